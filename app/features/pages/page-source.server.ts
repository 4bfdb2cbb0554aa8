import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import matter from "gray-matter";
import { validatePageDocument, describeProblem, type PageDocument } from "~/features/pages/page-document.server";
import { failed, loaded, notFound, type LoadResult } from "~/platform/load-result";
import { logger } from "~/platform/logger.server";

// Where the public pages come from: for now the content files (content/pages/*.yaml), read once
// per server and validated by the block registry. The content core's database takes this
// module's place; its callers keep calling loadPublishedPage.

/** The YAML reader gray-matter uses for front matter (js-yaml's safe schema). */
const yaml = (matter as unknown as { engines: { yaml: { parse: (text: string) => unknown } } }).engines.yaml;

export const PAGES_DIR = path.resolve("content", "pages");

export type PageFile = { file: string; path: string | undefined; result: ReturnType<typeof validatePageDocument> };

/** Every page file of `dir`, parsed and validated. */
export function readPageFiles(dir: string = PAGES_DIR): PageFile[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith(".yaml") || name.endsWith(".yml"));
  } catch {
    return [];
  }
  return names.sort().map((name) => {
    const file = path.join(dir, name);
    let data: unknown;
    try {
      data = yaml.parse(readFileSync(file, "utf8"));
    } catch (error) {
      return {
        file,
        path: undefined,
        result: { ok: false, problems: [{ path: "", message: `is not valid YAML: ${String(error)}` }] },
      };
    }
    const pagePath =
      typeof data === "object" && data && typeof (data as { path?: unknown }).path === "string"
        ? (data as { path: string }).path
        : undefined;
    return { file, path: pagePath, result: validatePageDocument(data) };
  });
}

let published: Map<string, LoadResult<PageDocument>> | undefined;

function publishedPages(): Map<string, LoadResult<PageDocument>> {
  // Development reads the files on every request, so an edit shows on reload.
  if (published && process.env.NODE_ENV !== "development") return published;
  const pages = new Map<string, LoadResult<PageDocument>>();
  for (const { file, path: pagePath, result } of readPageFiles()) {
    if (result.ok) pages.set(result.page.path, loaded(result.page));
    else {
      logger.error({ file, problems: result.problems.map(describeProblem) }, "page content is not valid");
      if (pagePath) pages.set(pagePath, failed(500, "The page's content is not valid."));
    }
  }
  published = pages;
  return pages;
}

/** The published page at `pagePath`: not-found when there is none, failed (500) when its content is not valid. */
export async function loadPublishedPage(pagePath: string): Promise<LoadResult<PageDocument>> {
  return publishedPages().get(pagePath) ?? notFound();
}
