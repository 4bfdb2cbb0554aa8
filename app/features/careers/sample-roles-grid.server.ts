import { isDeepStrictEqual } from "node:util";
import type { Kysely } from "kysely";
import type { PageSnapshot } from "~/features/content/content-types";
import { insertRevision, parseSnapshot } from "~/features/content/revisions.server";
import { CAREERS_PATH } from "~/features/careers/careers-path";
import type { Database } from "~/db/schema";

// Before open positions were content, the sample careers page listed four roles as a grid of
// items written in the page. A database seeded then gets the sample positions on its next start;
// the careers page would list the same roles twice. When the page still holds that grid exactly as
// the sample wrote it, the grid goes (a new revision, by the content import); a grid an editor
// changed is theirs and stays.

const SAMPLE_ROLES = [
  "Senior Backend Engineer, Detection Platform",
  "Security Researcher, AI Threats",
  "Enterprise Account Executive",
  "Compliance Program Manager",
];

function isSampleRolesGrid(block: Record<string, unknown>): boolean {
  if (block.type !== "item-grid" || block.title !== "Open roles" || !Array.isArray(block.items)) return false;
  return isDeepStrictEqual(
    block.items.map((item) => (item && typeof item === "object" ? (item as { title?: unknown }).title : undefined)),
    SAMPLE_ROLES,
  );
}

function withoutSampleGrid(page: PageSnapshot | null): PageSnapshot | null {
  if (!page) return page;
  const blocks = page.blocks.filter((block) => !isSampleRolesGrid(block));
  return blocks.length === page.blocks.length ? page : { ...page, blocks };
}

/** Removes the sample's "Open roles" grid from the careers page where it is as the sample wrote it; whether it did. */
export async function retireSampleRolesGrid(trx: Kysely<Database>): Promise<boolean> {
  const row = await trx
    .selectFrom("content_documents")
    .select(["id", "draft", "published", "revision"])
    .where("type", "=", "page")
    .where("path", "=", CAREERS_PATH)
    .executeTakeFirst();
  if (!row) return false;
  const draft = parseSnapshot<PageSnapshot>(row.draft);
  const published = row.published == null ? null : parseSnapshot<PageSnapshot>(row.published);
  const newDraft = withoutSampleGrid(draft)!;
  const newPublished = withoutSampleGrid(published);
  if (newDraft === draft && newPublished === published) return false;
  const now = new Date().toISOString();
  const number = Number(row.revision) + 1;
  await trx
    .updateTable("content_documents")
    .set({
      draft: JSON.stringify(newDraft),
      ...(newPublished !== published ? { published: JSON.stringify(newPublished) } : {}),
      revision: number,
      updated_at: now,
      updated_by_email: "",
    })
    .where("id", "=", row.id)
    .execute();
  await insertRevision(trx, {
    type: "page",
    documentId: row.id,
    number,
    snapshot: newDraft,
    summary: "The sample's Open roles grid removed: the open positions are listed below the page's blocks",
    author: null,
    at: now,
  });
  return true;
}
