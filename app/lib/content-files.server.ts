import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import matter from "gray-matter";
import { z } from "zod";
import { isValidLegalContent, legalDocumentTypes, type LegalContent } from "~/lib/db/legal.server";
import type { BlogPost } from "~/lib/db/posts.server";

// Content files, read and validated: DIR/posts/*.md (one post each) and DIR/legal/*.md (one legal
// document each), Markdown with YAML front matter. Writing them into the database is
// db/content-import.server.ts's job.

export type ContentProblem = { path: string; field: string; message: string };

export function formatProblem(problem: ContentProblem): string {
  return `${problem.path}: ${problem.field}: ${problem.message}`;
}

const required = (what: string) => (issue: { input: unknown }) => (issue.input === undefined ? "is required" : `must be ${what}`);
const text = () =>
  z
    .string({ error: required("text") })
    .trim()
    .min(1, "must not be empty");
const flag = () => z.boolean({ error: required("true or false") });
const timestamp = () =>
  z.union([z.date(), z.string()], { error: required("a date such as 2025-03-14") }).transform((value, ctx) => {
    const date = value instanceof Date ? value : new Date(value);
    if (Number.isNaN(date.getTime())) {
      ctx.addIssue({ code: "custom", message: "must be a date such as 2025-03-14 or 2025-03-14T09:30:00Z" });
      return z.NEVER;
    }
    return date.toISOString();
  });
const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const urlPattern = /^(https?:\/\/[^\s]+|\/[^\s]*)$/;

const PostFrontMatter = z.strictObject({
  id: z
    .uuid({ error: "must be a UUID such as 3f1c2a8e-5b7d-4c1e-9a2f-6d8e0b4c7a15" })
    .transform((id) => id.toLowerCase())
    .optional(),
  title: text().max(200, "must be at most 200 characters"),
  slug: z
    .string({ error: "must be text (lowercase words joined by hyphens)" })
    .regex(slugPattern, "must be lowercase letters, digits and single hyphens, e.g. ai-governance-basics")
    .nullable()
    .optional(),
  excerpt: text().max(500, "must be at most 500 characters"),
  category: text().max(60, "must be at most 60 characters"),
  author: text().max(100, "must be at most 100 characters"),
  published_date: timestamp(),
  read_time: z
    .int({ error: required("a whole number of minutes") })
    .min(1, "must be at least 1")
    .max(600, "must be at most 600"),
  image_url: z
    .string({ error: "must be text" })
    .regex(urlPattern, "must be an http(s) URL or a site path starting with /")
    .nullable()
    .optional(),
  featured: flag().default(false),
  published: flag(),
});

const LegalFrontMatter = z.strictObject({
  document_type: z.enum(legalDocumentTypes as [string, ...string[]], {
    error: `must be one of ${legalDocumentTypes.join(", ")}`,
  }),
  title: text().max(200, "must be at most 200 characters"),
  version: z
    .string({
      error: (issue) =>
        typeof issue.input === "number"
          ? 'must be quoted text, e.g. version: "1.0" (YAML reads 1.0 as the number 1)'
          : "must be text",
    })
    .trim()
    .min(1, "must not be empty")
    .default("1.0"),
  last_updated: timestamp(),
  published: flag(),
});

/** A post as written in a content file: the row without its timestamps, the id optional. */
export type ContentPost = Omit<BlogPost, "id" | "created_at" | "updated_at"> & { id?: string };
export type ContentLegal = {
  document_type: string;
  title: string;
  version: string;
  last_updated: string;
  published: boolean;
  content: LegalContent;
};
type Parsed<T> = { path: string; value: T };
export type ContentSet = { posts: Parsed<ContentPost>[]; legal: Parsed<ContentLegal>[]; problems: ContentProblem[] };

function zodProblems(file: string, error: z.ZodError): ContentProblem[] {
  return error.issues.map((issue) => {
    if (issue.code === "unrecognized_keys") {
      return { path: file, field: issue.keys.join(", "), message: "is not a known field (check the spelling)" };
    }
    return { path: file, field: issue.path.join(".") || "front matter", message: issue.message };
  });
}

function readMarkdown(file: string, shown: string, problems: ContentProblem[]) {
  try {
    // A fresh object each time: gray-matter caches by content, and its YAML errors carry the line.
    const parsed = matter(readFileSync(file, "utf8"), {});
    return { data: parsed.data as Record<string, unknown>, body: parsed.content };
  } catch (error) {
    const message = (error as Error).message.split("\n")[0] ?? "unreadable";
    problems.push({ path: shown, field: "front matter", message: `is not valid YAML (${message})` });
    return undefined;
  }
}

/** `## ` headings split a legal document's body into its sections: `{"sections":[{"title","content"}, ...]}`. */
export function splitLegalSections(body: string): { content?: LegalContent; error?: string } {
  const sections: { title: string; lines: string[] }[] = [];
  const preamble: string[] = [];
  for (const line of body.split(/\r?\n/)) {
    const heading = /^## +(.+?)\s*$/.exec(line);
    if (heading) sections.push({ title: heading[1]!, lines: [] });
    else (sections.at(-1)?.lines ?? preamble).push(line);
  }
  if (preamble.join("").trim()) return { error: "has text before the first '## ' section heading" };
  if (sections.length === 0) return { error: "needs at least one section starting with a '## ' heading" };
  const empty = sections.find((section) => !section.lines.join("").trim());
  if (empty) return { error: `section "${empty.title}" has no text` };
  const content = { sections: sections.map((section) => ({ title: section.title, content: section.lines.join("\n").trim() })) };
  return isValidLegalContent(content) ? { content } : { error: "Invalid document content structure" };
}

function markdownFiles(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => path.join(folder, name));
}

/** Reads and validates every file under DIR; problems list every bad field of every bad file. */
export function loadContent(dir: string): ContentSet {
  const set: ContentSet = { posts: [], legal: [], problems: [] };
  const shownDir = path.relative(process.cwd(), dir) || ".";
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    set.problems.push({ path: shownDir, field: "folder", message: "does not exist" });
    return set;
  }
  const postFiles = markdownFiles(path.join(dir, "posts"));
  const legalFiles = markdownFiles(path.join(dir, "legal"));
  if (postFiles.length + legalFiles.length === 0) {
    set.problems.push({ path: shownDir, field: "folder", message: "has no posts/*.md or legal/*.md files" });
  }

  const slugs = new Map<string, string>();
  const ids = new Map<string, string>();
  for (const file of postFiles) {
    const shown = path.relative(process.cwd(), file);
    const markdown = readMarkdown(file, shown, set.problems);
    if (!markdown) continue;
    const result = PostFrontMatter.safeParse(markdown.data);
    const content = markdown.body.trim();
    if (!content)
      set.problems.push({ path: shown, field: "body", message: "is empty (the post text goes below the front matter)" });
    // Checked on the raw data so it is reported alongside every other bad field, not after them.
    if (!markdown.data.slug && !markdown.data.id) {
      set.problems.push({
        path: shown,
        field: "id",
        message: "is required when there is no slug (a post without a slug is keyed and linked by its id)",
      });
    }
    if (!result.success) {
      set.problems.push(...zodProblems(shown, result.error));
      continue;
    }
    const post = result.data;
    for (const [key, value, seen] of [
      ["slug", post.slug, slugs],
      ["id", post.id, ids],
    ] as const) {
      if (!value) continue;
      const other = seen.get(value);
      if (other) set.problems.push({ path: shown, field: key, message: `"${value}" is also used by ${other}` });
      else seen.set(value, shown);
    }
    if (content && (post.slug || post.id))
      set.posts.push({ path: shown, value: { ...post, slug: post.slug ?? null, image_url: post.image_url ?? null, content } });
  }

  const legalKeys = new Map<string, string>();
  for (const file of legalFiles) {
    const shown = path.relative(process.cwd(), file);
    const markdown = readMarkdown(file, shown, set.problems);
    if (!markdown) continue;
    const result = LegalFrontMatter.safeParse(markdown.data);
    const sections = splitLegalSections(markdown.body);
    if (sections.error) set.problems.push({ path: shown, field: "body", message: sections.error });
    if (!result.success) {
      set.problems.push(...zodProblems(shown, result.error));
      continue;
    }
    // Versions of one document are told apart by `version` (the history lists them, each has its own
    // page): two files of one type with the same version are refused, whichever was meant.
    const key = `${result.data.document_type} ${result.data.version}`;
    const other = legalKeys.get(key);
    if (other) {
      set.problems.push({
        path: shown,
        field: "version",
        message: `"${result.data.version}" of ${result.data.document_type} is also defined by ${other} (each version of a document needs its own version string)`,
      });
    } else legalKeys.set(key, shown);
    if (sections.content) set.legal.push({ path: shown, value: { ...result.data, content: sections.content } });
  }
  return set;
}
