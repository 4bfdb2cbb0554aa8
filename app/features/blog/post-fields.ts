import { z } from "zod";

// The rules a post's fields follow, wherever a post is written: content files (the import) and the
// back office's editor. Messages finish a sentence that starts with the field's name.

export const POST_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const POST_IMAGE_URL_PATTERN = /^(https?:\/\/[^\s]+|\/[^\s]*)$/;

const required = (what: string) => (issue: { input: unknown }) => (issue.input === undefined ? "is required" : `must be ${what}`);
const text = (max: number) =>
  z
    .string({ error: required("text") })
    .trim()
    .min(1, "must not be empty")
    .max(max, `must be at most ${max} characters`);

export const postFieldRules = {
  title: text(200),
  slug: z
    .string({ error: "must be text (lowercase words joined by hyphens)" })
    .max(120, "must be at most 120 characters")
    .regex(POST_SLUG_PATTERN, "must be lowercase letters, digits and single hyphens, e.g. ai-governance-basics"),
  excerpt: text(500),
  category: text(60),
  author: text(100),
  readTime: z
    .int({ error: required("a whole number of minutes") })
    .min(1, "must be at least 1")
    .max(600, "must be at most 600"),
  imageUrl: z
    .string({ error: "must be text" })
    .regex(POST_IMAGE_URL_PATTERN, "must be an http(s) URL or a site path starting with /"),
};

/** Words a minute a reader gets through: a post's read time unless its editor sets one. */
const WORDS_PER_MINUTE = 220;

/** Minutes to read a post's markup: its words (markup signs and URLs not counted), at least 1. */
export function readTimeOf(markup: string): number {
  const words = markup
    .replace(/\]\([^)]*\)/g, "]")
    .replace(/https?:\/\/\S+/g, "")
    .split(/\s+/)
    .filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
  return Math.max(1, Math.round(words / WORDS_PER_MINUTE));
}

/** The post editor's fields as its form sends them (text), kept to show back after a refusal. */
export type PostForm = {
  title: string;
  slug: string;
  excerpt: string;
  content: string;
  category: string;
  author: string;
  publishedAt: string;
  timeZone: string;
  readTime: string;
  imageUrl: string;
  featured: boolean;
};

/** A message per field of the editor's form that was refused. */
export type FieldErrors = Partial<Record<keyof PostForm, string>>;
