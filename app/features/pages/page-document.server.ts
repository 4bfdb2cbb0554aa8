import { z } from "zod";
import { blocksSchema, describeProblem, type Block, type BlockProblem } from "~/features/pages/blocks/registry.server";
import { isSitePath, sitePath, text } from "~/features/pages/blocks/fields.server";

// A page as data: its address, what search engines and social cards show, and its blocks. The
// content files (content/pages/*.yaml) hold this shape; so will the content core's page rows.

export const pageDocumentSchema = z.strictObject({
  path: sitePath(),
  title: text(120),
  description: text(300),
  /** The social card's image: a path of this site or an https:// address. */
  image: z
    .string()
    .trim()
    .refine((value) => isSitePath(value) || /^https:\/\/\S+$/.test(value), "must be a path of this site or an https:// address")
    .optional(),
  /** Another page this one is a copy of, for search engines; the page's own path when absent. */
  canonicalPath: sitePath().optional(),
  /** Kept out of search engines and the sitemap. */
  noindex: z.boolean().default(false),
  blocks: blocksSchema,
});

export type PageDocument = Omit<z.output<typeof pageDocumentSchema>, "blocks"> & { blocks: Block[] };

export type CheckedPage = { ok: true; page: PageDocument } | { ok: false; problems: BlockProblem[] };

/** A page document from a file or a row, with every problem named by its field. */
export function validatePageDocument(input: unknown): CheckedPage {
  const result = pageDocumentSchema.safeParse(input);
  if (result.success) return { ok: true, page: result.data };
  return {
    ok: false,
    problems: result.error.issues.map((issue) => ({ path: issue.path.map(String).join("."), message: issue.message })),
  };
}

export { describeProblem };
