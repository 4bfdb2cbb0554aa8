import type { ComponentType } from "react";
import { z } from "zod";
import {
  blockMeta,
  blockSchemas,
  blockTypes,
  type Block,
  type BlockOf,
  type BlockType,
} from "~/features/pages/blocks/definitions.server";
import { isSitePath, markupLinks, type EditorField } from "~/features/pages/blocks/fields.server";
import { blockViews, type BlockViewProps } from "~/features/pages/blocks/views.server";
import { MAX_BLOCKS, MAX_BLOCKS_BYTES } from "~/features/pages/page-form";

// The registry of block types: the one list the editor, the validation and the public renderer
// read. A type is its name, its schema, a default block, its editor fields and its view
// (~/features/pages/blocks/definitions.server and ~/features/pages/blocks/views.server).

export type BlockTypeDefinition<Type extends BlockType = BlockType> = {
  type: Type;
  label: string;
  description: string;
  schema: (typeof blockSchemas)[Type];
  defaultValue: BlockOf<Type>;
  fields: readonly EditorField[];
  view: ComponentType<BlockViewProps<Type>>;
  /** Drawn by the browser's React (it needs data or behaviour there), not into the page's HTML on the server. */
  live: boolean;
};

const LIVE: ReadonlySet<BlockType> = new Set(["latest-insights"]);

export const blockRegistry = Object.fromEntries(
  blockTypes.map((type) => [
    type,
    {
      type,
      ...blockMeta[type],
      schema: blockSchemas[type],
      view: blockViews[type],
      live: LIVE.has(type),
    },
  ]),
) as { [Type in BlockType]: BlockTypeDefinition<Type> };

export { blockTypes, type Block, type BlockOf, type BlockType };

export type BlockProblem = { path: string; message: string };

/** "items.2.icon: …": a problem with the field it concerns first. */
export const describeProblem = (problem: BlockProblem) =>
  problem.path ? `${problem.path}: ${problem.message}` : problem.message;

function problemsOf(error: z.ZodError, prefix: readonly PropertyKey[] = []): BlockProblem[] {
  return error.issues.map((issue) => ({
    path: [...prefix, ...issue.path].map(String).join("."),
    message: issue.message,
  }));
}

export type Checked<T> = { ok: true; value: T } | { ok: false; problems: BlockProblem[] };

/** One block against its type's schema; an unknown type is refused by name. */
export function validateBlock(input: unknown, prefix: readonly PropertyKey[] = []): Checked<Block> {
  const type = typeof input === "object" && input !== null ? (input as { type?: unknown }).type : undefined;
  if (typeof type !== "string" || !Object.hasOwn(blockSchemas, type)) {
    const known = blockTypes.join(", ");
    return {
      ok: false,
      problems: [
        {
          path: [...prefix, "type"].map(String).join("."),
          message:
            type === undefined
              ? `is required (one of ${known})`
              : `"${String(type).slice(0, 40)}" is not a block type (one of ${known})`,
        },
      ],
    };
  }
  const result = blockSchemas[type as BlockType].safeParse(input);
  return result.success ? { ok: true, value: result.data as Block } : { ok: false, problems: problemsOf(result.error, prefix) };
}

/** A list of blocks as one schema (a page document's `blocks`), with the registry's messages. */
export const blocksSchema = z.unknown().transform((input, context) => {
  const checked = validateBlocks(input, []);
  if (checked.ok) return checked.value;
  for (const problem of checked.problems)
    context.addIssue({ code: "custom", path: problem.path ? problem.path.split(".") : [], message: problem.message });
  return z.NEVER;
});

/** A page's block list: each block against its schema, the list against its limits. */
export function validateBlocks(input: unknown, prefix: readonly PropertyKey[] = ["blocks"]): Checked<Block[]> {
  const where = prefix.map(String).join(".");
  if (!Array.isArray(input)) return { ok: false, problems: [{ path: where, message: "must be a list of blocks" }] };
  if (input.length > MAX_BLOCKS) return { ok: false, problems: [{ path: where, message: `holds at most ${MAX_BLOCKS} blocks` }] };
  const bytes = Buffer.byteLength(JSON.stringify(input) ?? "");
  if (bytes > MAX_BLOCKS_BYTES)
    return {
      ok: false,
      problems: [
        { path: where, message: `is ${Math.ceil(bytes / 1024)} KB: a page's blocks take at most ${MAX_BLOCKS_BYTES / 1024} KB` },
      ],
    };
  const blocks: Block[] = [];
  const problems: BlockProblem[] = [];
  input.forEach((block, index) => {
    const checked = validateBlock(block, [...prefix, index]);
    if (checked.ok) blocks.push(checked.value);
    else problems.push(...checked.problems);
  });
  return problems.length ? { ok: false, problems } : { ok: true, value: blocks };
}

/**
 * The paths of this site a block links to (query and fragment dropped), for the content core to
 * check that each leads to a page. Read from the editor fields: every link field and every link
 * in a markup field.
 */
export function internalLinksOf(block: Block): string[] {
  const found = new Set<string>();
  const add = (href: string) => {
    if (isSitePath(href)) found.add(href.replace(/[?#].*$/, "") || "/");
  };
  const walk = (value: unknown, fields: readonly EditorField[]) => {
    if (typeof value !== "object" || value === null) return;
    for (const field of fields) {
      const child = (value as Record<string, unknown>)[field.name];
      if (child === undefined) continue;
      if (field.kind === "link" && typeof child === "string") add(child);
      else if (field.kind === "markup" && typeof child === "string") markupLinks(child).forEach(add);
      else if (field.kind === "group") walk(child, field.fields ?? []);
      else if (field.kind === "list" && Array.isArray(child)) for (const entry of child) walk(entry, field.fields ?? []);
    }
  };
  walk(block, blockRegistry[block.type].fields);
  return [...found];
}
