import type { Kysely, Transaction } from "kysely";
import {
  checkDraft,
  describePlace,
  type DraftReference,
  type ProblemPlace,
  type PublishProblem,
  type RenderedPiece,
} from "~/features/content/publish-checks.server";
import { contentTypes } from "~/features/content/content-types";
import { blockRegistry, blockTypes, type BlockType } from "~/features/pages/blocks/registry.server";
import { renderBlockHtml, viewEnv } from "~/features/pages/blocks/render.server";
import { validatePageDocument } from "~/features/pages/page-document.server";
import type { Database } from "~/db/schema";

// A page's draft through the checks it must pass before it goes live: its blocks drawn as the
// public page draws them (without the site's header and footer, which are not part of it), each
// problem named by the block it is in.

type Db = Kysely<Database> | Transaction<Database>;

const labels = contentTypes.page.fieldLabels;

function blockPlace(index: number, type: unknown): ProblemPlace {
  const known = typeof type === "string" && (blockTypes as readonly string[]).includes(type);
  return { block: index, label: known ? blockRegistry[type as BlockType].label : "Unknown block" };
}

/** Every problem that keeps `page` (a page's draft as stored) from going live; none when it may. */
export async function checkPageBeforePublish(db: Db, page: unknown): Promise<PublishProblem[]> {
  const checked = validatePageDocument(page);
  if (!checked.ok) {
    // A draft saved before a block type's rules changed: named like the other problems.
    const blocks = (page as { blocks?: unknown[] } | null)?.blocks;
    return checked.problems.map((problem) => {
      const [field, index, ...rest] = problem.path.split(".");
      const where: ProblemPlace =
        field === "blocks" && index !== undefined && /^\d+$/.test(index)
          ? blockPlace(Number(index), (blocks?.[Number(index)] as { type?: unknown } | undefined)?.type)
          : { field: field || "document", label: labels[field ?? ""] ?? "The page" };
      const detail = rest.length ? `${rest.join(" › ")} ` : "";
      return { rule: "schema", message: `${describePlace(where)}: ${detail}${problem.message}.`, where };
    });
  }
  const { page: document } = checked;
  const env = viewEnv(document.path, "");
  const pieces: RenderedPiece[] = document.blocks.flatMap((block, index) =>
    // A live block is drawn in the browser from the site's own data: there is no markup of the draft's to check.
    blockRegistry[block.type].live ? [] : [{ where: blockPlace(index, block.type), html: renderBlockHtml(block, env) }],
  );
  const references: DraftReference[] = [];
  if (document.image) references.push({ where: { field: "image", label: labels.image! }, kind: "image", url: document.image });
  if (document.canonicalPath)
    references.push({
      where: { field: "canonicalPath", label: labels.canonicalPath! },
      kind: "link",
      url: document.canonicalPath,
    });
  return checkDraft(db, { pieces, references, ownPath: document.path });
}
