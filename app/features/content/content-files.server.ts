import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import matter from "gray-matter";
import { z } from "zod";
import { MAX_ALT_LENGTH, MEDIA_TYPES, type MediaType } from "~/features/media/media";
import { postFieldRules } from "~/features/blog/post-fields";
import { isValidLegalContent, legalDocumentTypes, type LegalContent } from "~/features/legal/db/legal.server";
import type { BlogPost } from "~/features/blog/db/posts.server";
import { LEGAL_SECTION_HEADING } from "~/features/legal/drafts";
import { SOURCE_LOCALE } from "~/features/i18n/messages.server";
import { contentLocales, localeOfFolder, filesByLanguage } from "~/features/content/translation-files.server";

// Content files, read and validated: DIR/posts/*.md (one post each; a translation in the folder
// of its language, DIR/posts/de/*.md) and DIR/legal/*.md (one legal
// document each), Markdown with YAML front matter; DIR/media/<id>.json with its image beside it. Writing them into the database is
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
const PostFrontMatter = z.strictObject({
  id: z
    .uuid({ error: "must be a UUID such as 3f1c2a8e-5b7d-4c1e-9a2f-6d8e0b4c7a15" })
    .transform((id) => id.toLowerCase())
    .optional(),
  title: postFieldRules.title,
  slug: postFieldRules.slug.nullable().optional(),
  excerpt: postFieldRules.excerpt,
  category: postFieldRules.category,
  author: postFieldRules.author,
  published_date: timestamp(),
  read_time: postFieldRules.readTime,
  image_url: postFieldRules.imageUrl.nullable().optional(),
  featured: flag().default(false),
  published: flag(),
  // A translation: its language (one with a message catalog) and the slug of the post it translates.
  locale: z
    .string({ error: "must be a language tag such as de" })
    .refine((tag) => contentLocales().some((locale) => locale.tag === tag), {
      error: () => `must be one of ${contentLocales()
        .map((locale) => locale.tag)
        .join(", ")}`,
    })
    .optional(),
  translation_of: postFieldRules.slug.optional(),
  // Kept by `content export`, so a restored post keeps its dates (feeds and the sitemap show them).
  // Used when the import creates the post; an import that changes a post stamps it with its own time.
  created_at: timestamp().optional(),
  updated_at: timestamp().optional(),
});

function isLanguageTag(value: string): boolean {
  try {
    return Intl.getCanonicalLocales(value).length === 1;
  } catch {
    return false;
  }
}

const LegalFrontMatter = z.strictObject({
  document_type: z.enum(legalDocumentTypes as [string, ...string[]], {
    error: `must be one of ${legalDocumentTypes.join(", ")}`,
  }),
  // A translation's language (its English version is the one with the same type and version); English when left out.
  locale: z
    .string({ error: "must be a language tag such as de" })
    .trim()
    .refine(isLanguageTag, "must be a language tag such as de")
    .transform((tag) => Intl.getCanonicalLocales(tag)[0]!)
    .default("en"),
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
  // What the back office records about a version; `content export` writes them when they are set.
  // Left out, an import leaves a row's own values alone.
  change_summary: z.string({ error: "must be text" }).trim().max(500, "must be at most 500 characters").optional(),
  author_email: z.string({ error: "must be text" }).trim().max(254, "must be at most 254 characters").optional(),
  published_at: timestamp().optional(),
  published_by_email: z.string({ error: "must be text" }).trim().max(254, "must be at most 254 characters").optional(),
});

/** A post as written in a content file: the row, the id and timestamps optional. */
export type ContentPost = Omit<BlogPost, "id" | "created_at" | "updated_at" | "locale"> & {
  id?: string;
  created_at?: string;
  updated_at?: string;
  /** Left out for the source language. */
  locale?: string;
  /** A translation's source post, by its slug. */
  translation_of?: string;
};
export type ContentLegal = {
  /** "en" for the governing text; another language translates the English file of the same type and version. */
  locale: string;
  document_type: string;
  title: string;
  version: string;
  last_updated: string;
  published: boolean;
  content: LegalContent;
  change_summary?: string;
  author_email?: string;
  published_at?: string;
  published_by_email?: string;
};
type Parsed<T> = { path: string; value: T };
/** An uploaded image as the export writes it: its details (DIR/media/<id>.json) and its bytes (beside them). */
export type ContentMedia = {
  id: string;
  file_name: string;
  original_name: string;
  content_type: MediaType;
  alt: string;
  created_at?: string;
  data: Buffer;
  sha256: string;
};
export type ContentSet = {
  posts: Parsed<ContentPost>[];
  legal: Parsed<ContentLegal>[];
  media: Parsed<ContentMedia>[];
  problems: ContentProblem[];
};

const MediaDetails = z.strictObject({
  id: z.uuid({ error: "must be the image's UUID" }).transform((id) => id.toLowerCase()),
  file_name: z
    .string({ error: "must be text" })
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be lowercase letters, digits and single hyphens")
    .max(60, "must be at most 60 characters"),
  original_name: z.string({ error: "must be text" }).max(255, "must be at most 255 characters").default(""),
  content_type: z.enum(Object.keys(MEDIA_TYPES) as [MediaType, ...MediaType[]], {
    error: `must be one of ${Object.keys(MEDIA_TYPES).join(", ")}`,
  }),
  alt: text().max(MAX_ALT_LENGTH, `must be at most ${MAX_ALT_LENGTH} characters`),
  created_at: timestamp().optional(),
});

/** DIR/media/<id>.json with its image DIR/media/<id>.<ext>: read, checked, the bytes hashed. */
function loadMedia(folder: string, set: ContentSet) {
  if (!existsSync(folder)) return;
  for (const name of readdirSync(folder)
    .filter((entry) => entry.endsWith(".json"))
    .sort()) {
    const file = path.join(folder, name);
    const shown = path.relative(process.cwd(), file);
    let details: unknown;
    try {
      details = JSON.parse(readFileSync(file, "utf8"));
    } catch (error) {
      set.problems.push({
        path: shown,
        field: "file",
        message: `is not valid JSON (${(error as Error).message.split("\n")[0]})`,
      });
      continue;
    }
    const result = MediaDetails.safeParse(details);
    if (!result.success) {
      set.problems.push(...zodProblems(shown, result.error));
      continue;
    }
    const media = result.data;
    if (name !== `${media.id}.json`) {
      set.problems.push({ path: shown, field: "id", message: `must match the file's name (${media.id}.json)` });
      continue;
    }
    const imageFile = path.join(folder, `${media.id}.${MEDIA_TYPES[media.content_type].extension}`);
    if (!existsSync(imageFile)) {
      set.problems.push({ path: shown, field: "content_type", message: `names ${path.basename(imageFile)}, which is missing` });
      continue;
    }
    const data = readFileSync(imageFile);
    set.media.push({ path: shown, value: { ...media, data, sha256: createHash("sha256").update(data).digest("hex") } });
  }
}

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
    const heading = LEGAL_SECTION_HEADING.exec(line);
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
  const set: ContentSet = { posts: [], legal: [], media: [], problems: [] };
  const shownDir = path.relative(process.cwd(), dir) || ".";
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    set.problems.push({ path: shownDir, field: "folder", message: "does not exist" });
    return set;
  }
  // Posts in the source language in DIR/posts, translations in a folder per language (DIR/posts/de).
  const posts = filesByLanguage(
    path.join(dir, "posts"),
    (name) => name.endsWith(".md"),
    (file) => path.relative(process.cwd(), file),
  );
  set.problems.push(...posts.problems);
  const postFiles = posts.files;
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
    const locale = post.locale ?? SOURCE_LOCALE;
    if (post.translation_of !== undefined && locale === SOURCE_LOCALE)
      set.problems.push({
        path: shown,
        field: "translation_of",
        message: `needs locale: a translation names its language (such as locale: de) and the ${SOURCE_LOCALE} post it translates`,
      });
    const named = localeOfFolder(file);
    if (named !== undefined && named !== locale)
      set.problems.push({ path: shown, field: "locale", message: `must be ${named}, the language of the file's folder` });
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
    const english = result.data.locale === "en";
    const key = `${result.data.document_type} ${result.data.version}${english ? "" : ` ${result.data.locale}`}`;
    const other = legalKeys.get(key);
    if (other) {
      set.problems.push({
        path: shown,
        field: "version",
        message: english
          ? `"${result.data.version}" of ${result.data.document_type} is also defined by ${other} (each version of a document needs its own version string)`
          : `the ${result.data.locale} translation of "${result.data.version}" of ${result.data.document_type} is also defined by ${other}`,
      });
    } else legalKeys.set(key, shown);
    if (sections.content) set.legal.push({ path: shown, value: { ...result.data, content: sections.content } });
  }
  loadMedia(path.join(dir, "media"), set);
  return set;
}
