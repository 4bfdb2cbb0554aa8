import { z } from "zod";
import type { LocalizedRouteName } from "~/features/i18n/route-paths";
import { postPath } from "~/features/blog/posts";
import { postFieldRules } from "~/features/blog/post-fields";
import { legalDocumentPath, type LegalDocumentType } from "~/features/legal/documents";
import { LEGAL_LIMITS, VERSION_PATTERN } from "~/features/legal/drafts";
import {
  EMPLOYMENT_TYPES,
  PAY_PERIODS,
  POSITION_SLUG_PATTERN,
  WORKPLACES,
  positionPath,
  type Position,
} from "~/features/careers/positions";
import {
  POSITION_LIST_KEY,
  POST_FEEDS_KEY,
  POST_LIST_KEY,
  SITEMAP_KEY,
  legalKey,
  pageKey,
  positionKey,
  postKey,
} from "~/features/cdn/surrogate-keys";

// The kinds of content the back office edits, in one place, as the lead forms have theirs: what a
// revision of each keeps (a Zod schema), where its public page is, how its editor groups the
// fields, and what it may do. The core (revisions, diff, restore, save, publish, preview links,
// audit, import and export) reads these facts instead of knowing any type.
//
// Server and back-office code only: it holds Zod schemas, which must not reach the browser bundle
// of a public page. Adding a type: an entry here, a storage (its own table, or the documents table),
// and its editor's routes.

export const CONTENT_TYPE_IDS = ["post", "legal", "page", "position"] as const;
export type ContentTypeId = (typeof CONTENT_TYPE_IDS)[number];

export type ContentCapabilities = {
  /** Publishing at a chosen moment later, shown by itself when it comes. */
  schedule: boolean;
  /** A signed link that shows an unpublished version to whoever holds it. */
  preview: boolean;
  /** One document of the type may be featured (the others lose the flag). */
  feature: boolean;
  /** Every save keeps a revision, listed, compared and restorable. */
  history: boolean;
};

/** A group of the editor's fields, in the order the form shows them. */
export type FieldGroup = { label: string; fields: readonly string[] };

export type ContentType<Snapshot = unknown> = {
  id: ContentTypeId;
  /** Singular, lower case, for sentences ("post"). */
  noun: string;
  /** Plural, for headings and menus ("Posts"). */
  label: string;
  /**
   * Where its documents live: a table of its own (posts and legal documents keep the tables that
   * tools outside the site read) or the core's documents table.
   */
  storage: "own-table" | "documents";
  /** The audit entries' target type (kept as it always was for posts and legal documents). */
  auditTarget: string;
  /** What one revision of a document keeps: the editor's fields. */
  schema: z.ZodType<Snapshot>;
  /** The fields a diff lists, labelled, in the editor's order. */
  fieldLabels: Record<string, string>;
  /** A revision's fields as text, one entry per labelled field, for diffs a reader can follow. */
  asText: (snapshot: Snapshot) => Record<string, string>;
  /** The public address of a document with these fields (null when it has none of its own). */
  publicPath: (snapshot: Snapshot, id: string) => string | null;
  /** The field the public address is made of, where a taken address is refused ("path" when not given). */
  addressField?: string;
  /**
   * The site's own route its addresses are under (positions: the careers page), when that route has
   * a translated address per language: a translation lives under the route's address in its language.
   */
  localizedRoute?: LocalizedRouteName;
  /** The back office's editor of one document. */
  editorPath: (id: string) => string;
  editorGroups: readonly FieldGroup[];
  capabilities: ContentCapabilities;
  /**
   * What a CDN in front knows its answers by (~/features/cdn/surrogate-keys): the key of a
   * document's own pages, and the keys of the lists and feeds that name it. A live change purges both.
   */
  surrogateKeys: { document: (id: string, snapshot: Snapshot) => string; lists: readonly string[] };
};

const yesNo = (value: boolean) => (value ? "yes" : "no");

// Posts ----------------------------------------------------------------------------------------

export const postSnapshotSchema = z.object({
  title: postFieldRules.title,
  slug: postFieldRules.slug.nullable(),
  excerpt: postFieldRules.excerpt,
  content: z.string(),
  category: postFieldRules.category,
  author: postFieldRules.author,
  published_date: z.string(),
  read_time: postFieldRules.readTime,
  read_time_manual: z.boolean(),
  image_url: postFieldRules.imageUrl.nullable(),
  featured: z.boolean(),
  published: z.boolean(),
});
export type PostSnapshot = z.output<typeof postSnapshotSchema>;

const postType: ContentType<PostSnapshot> = {
  id: "post",
  noun: "post",
  label: "Posts",
  storage: "own-table",
  auditTarget: "post",
  schema: postSnapshotSchema,
  fieldLabels: {
    title: "Title",
    slug: "Slug",
    excerpt: "Excerpt",
    category: "Category",
    author: "Author",
    published_date: "Publication date (UTC)",
    read_time: "Read time (minutes)",
    image_url: "Image URL",
    featured: "Featured",
    published: "Published",
    content: "Body",
  },
  asText: (fields) => ({
    title: fields.title,
    slug: fields.slug ?? "",
    excerpt: fields.excerpt,
    category: fields.category,
    author: fields.author,
    published_date: fields.published_date,
    read_time: `${fields.read_time}${fields.read_time_manual ? "" : " (from the body)"}`,
    image_url: fields.image_url ?? "",
    featured: yesNo(fields.featured),
    published: yesNo(fields.published),
    content: fields.content,
  }),
  publicPath: (fields, id) => postPath({ slug: fields.slug, id }),
  editorPath: (id) => `/admin/posts/${id}`,
  editorGroups: [
    { label: "Text", fields: ["title", "slug", "excerpt", "content"] },
    { label: "Details", fields: ["category", "author", "image_url", "read_time"] },
    { label: "Publishing", fields: ["published_date", "featured"] },
  ],
  capabilities: { schedule: true, preview: true, feature: true, history: true },
  surrogateKeys: { document: (id) => postKey(id), lists: [POST_LIST_KEY, POST_FEEDS_KEY, SITEMAP_KEY] },
};

// Legal documents ------------------------------------------------------------------------------

/** One version of a legal document as its editor saves it (a row of legal_documents). */
export const legalSnapshotSchema = z.object({
  document_type: z.enum(["privacy-policy", "terms-of-use"]),
  title: z.string().trim().min(1).max(LEGAL_LIMITS.title),
  version: z.string().regex(VERSION_PATTERN),
  /** The effective date (last_updated), an ISO timestamp at midnight UTC. */
  effective_date: z.string(),
  change_summary: z.string().max(LEGAL_LIMITS.changeSummary),
  sections: z
    .array(
      z.object({ title: z.string().max(LEGAL_LIMITS.sectionTitle), content: z.string().max(LEGAL_LIMITS.sectionText) }),
    )
    .max(LEGAL_LIMITS.sections),
});
export type LegalSnapshot = z.output<typeof legalSnapshotSchema>;

const legalType: ContentType<LegalSnapshot> = {
  id: "legal",
  noun: "legal document",
  label: "Legal documents",
  storage: "own-table",
  auditTarget: "legal_document",
  schema: legalSnapshotSchema,
  fieldLabels: {
    title: "Title",
    version: "Version",
    effective_date: "Effective date",
    change_summary: "Summary of changes",
    sections: "Text",
  },
  asText: (fields) => ({
    title: fields.title,
    version: fields.version,
    effective_date: fields.effective_date.slice(0, 10),
    change_summary: fields.change_summary,
    sections: fields.sections.map((section) => `## ${section.title}\n\n${section.content}`).join("\n\n"),
  }),
  publicPath: (fields) => legalDocumentPath(fields.document_type as LegalDocumentType),
  editorPath: (id) => `/admin/legal/versions/${id}`,
  editorGroups: [
    { label: "Version", fields: ["title", "version", "effective_date", "change_summary"] },
    { label: "Text", fields: ["sections"] },
  ],
  // A version goes live on its effective date when published; it is never scheduled or featured.
  capabilities: { schedule: false, preview: true, feature: false, history: true },
  // A type's versions and translations are one document to a visitor: keyed by the type.
  surrogateKeys: { document: (_id, fields) => legalKey(fields.document_type), lists: [SITEMAP_KEY] },
};

// Pages ----------------------------------------------------------------------------------------

/** A site path: lower case segments of letters, digits and single hyphens ("/" is the home page). */
export const PAGE_PATH_PATTERN = /^\/(?:[a-z0-9]+(?:-[a-z0-9]+)*(?:\/[a-z0-9]+(?:-[a-z0-9]+)*)*)?$/;

/**
 * A block as the core keeps it: a type and its fields. The block registry (app/features/pages/blocks)
 * checks each against its own schema; the core only needs the shape to store, diff and copy it.
 */
export const storedBlockSchema = z.looseObject({ type: z.string().min(1).max(60) });
export type StoredBlock = z.output<typeof storedBlockSchema>;

/** Refuses a block list larger than this when serialised (a page is text, not a file store). */
export const PAGE_MAX_BYTES = 512 * 1024;

export const pageSnapshotSchema = z
  .object({
    path: z.string().max(200).regex(PAGE_PATH_PATTERN, "must be a site path such as /solutions/financial-services"),
    title: z.string().trim().min(1, "must not be empty").max(200),
    description: z.string().trim().max(500),
    image: z.string().max(500).optional(),
    canonicalPath: z.string().max(200).regex(PAGE_PATH_PATTERN).optional(),
    noindex: z.boolean(),
    blocks: z.array(storedBlockSchema).max(200),
  })
  .refine((page) => JSON.stringify(page).length <= PAGE_MAX_BYTES, { message: "is too large", path: ["blocks"] });
export type PageSnapshot = z.output<typeof pageSnapshotSchema>;

/** A block's fields as indented "name: value" lines, nested lists and objects included. */
function blockText(value: unknown, indent = ""): string[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => [`${indent}${index + 1}.`, ...blockText(item, `${indent}  `)]);
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([key, item]) =>
      item && typeof item === "object" ? [`${indent}${key}:`, ...blockText(item, `${indent}  `)] : [`${indent}${key}: ${String(item)}`],
    );
  }
  return [`${indent}${String(value)}`];
}

/** The page's blocks as text, one paragraph per block headed by its position and type. */
export function blocksAsText(blocks: readonly StoredBlock[]): string {
  return blocks
    .map(({ type, ...fields }, index) => [`[Block ${index + 1}: ${type}]`, ...blockText(fields)].join("\n"))
    .join("\n\n");
}

const pageType: ContentType<PageSnapshot> = {
  id: "page",
  noun: "page",
  label: "Pages",
  storage: "documents",
  auditTarget: "page",
  schema: pageSnapshotSchema,
  fieldLabels: {
    path: "Path",
    title: "Title",
    description: "Description",
    image: "Social image",
    canonicalPath: "Canonical path",
    noindex: "Hidden from search engines",
    blocks: "Blocks",
  },
  asText: (page) => ({
    path: page.path,
    title: page.title,
    description: page.description,
    image: page.image ?? "",
    canonicalPath: page.canonicalPath ?? "",
    noindex: yesNo(page.noindex),
    blocks: blocksAsText(page.blocks),
  }),
  publicPath: (page) => page.path,
  editorPath: (id) => `/admin/pages/${id}`,
  editorGroups: [
    { label: "Address and search", fields: ["path", "title", "description", "image", "canonicalPath", "noindex"] },
    { label: "Blocks", fields: ["blocks"] },
  ],
  capabilities: { schedule: true, preview: true, feature: false, history: true },
  surrogateKeys: { document: (id) => pageKey(id), lists: [SITEMAP_KEY] },
};

// Open positions -------------------------------------------------------------------------------

const oneLine = (max: number) => z.string().trim().min(1, "must not be empty").max(max, `must be at most ${max} characters`);

export const payRangeSchema = z
  .object({
    min: z.number({ error: "is required" }).int("must be a whole number").positive("must be above 0"),
    max: z.number({ error: "is required" }).int("must be a whole number").positive("must be above 0"),
    currency: z
      .string({ error: "is required: a three-letter currency code such as EUR" })
      .regex(/^[A-Z]{3}$/, "must be a three-letter currency code such as EUR"),
    period: z.enum(PAY_PERIODS, { error: "must be year, month or hour" }),
  })
  .refine((pay) => pay.min <= pay.max, { message: "must not be above the maximum", path: ["min"] });

export const positionSnapshotSchema = z.object({
  slug: z
    .string()
    .max(80, "must be at most 80 characters")
    .regex(POSITION_SLUG_PATTERN, "must be lower-case words joined by hyphens, such as senior-backend-engineer"),
  title: oneLine(120),
  team: oneLine(60),
  locations: z.array(oneLine(80)).min(1, "must name at least one location").max(10, "must be at most 10"),
  workplace: z.enum(WORKPLACES, { error: "must be remote, hybrid or on-site" }),
  /** For remote work: where applicants may live ("European Union"). */
  remoteRegions: z.array(oneLine(80)).max(20, "must be at most 20"),
  employmentType: z.enum(EMPLOYMENT_TYPES, { error: "must be full-time, part-time, contract, temporary or internship" }),
  pay: payRangeSchema.nullable(),
  /** One line for lists. */
  summary: z.string().trim().max(300, "must be at most 300 characters"),
  /** Post markup (what the renderer would drop is refused by the position's save and import, on the server). */
  description: z.string().trim().max(20_000, "must be at most 20,000 characters"),
  /** What the person will do. */
  responsibilities: z.array(oneLine(300)).max(20, "must be at most 20"),
  /** What they bring. */
  requirements: z.array(oneLine(300)).max(20, "must be at most 20"),
  /** Who receives the position's applications as well as the careers inbox. */
  hiringContacts: z.array(z.email("must be an email address")).max(10, "must be at most 10"),
  /** Open until then (never when null); closed from then on, by the clock. */
  closesAt: z.iso.datetime({ offset: true, error: "must be a date and time" }).nullable(),
}) satisfies z.ZodType<Position>;
export type PositionSnapshot = z.output<typeof positionSnapshotSchema>;

const positionType: ContentType<PositionSnapshot> = {
  id: "position",
  noun: "position",
  label: "Open positions",
  storage: "documents",
  auditTarget: "position",
  schema: positionSnapshotSchema,
  fieldLabels: {
    slug: "Slug",
    title: "Title",
    team: "Team",
    locations: "Locations",
    workplace: "Workplace",
    remoteRegions: "Remote regions",
    employmentType: "Employment type",
    pay: "Pay",
    summary: "Summary",
    description: "Description",
    responsibilities: "What you will do",
    requirements: "What you bring",
    hiringContacts: "Hiring contacts",
    closesAt: "Closing date",
  },
  asText: (position) => ({
    slug: position.slug,
    title: position.title,
    team: position.team,
    locations: position.locations.join("\n"),
    workplace: position.workplace,
    remoteRegions: position.remoteRegions.join("\n"),
    employmentType: position.employmentType,
    pay: position.pay ? `${position.pay.min}–${position.pay.max} ${position.pay.currency} a ${position.pay.period}` : "",
    summary: position.summary,
    description: position.description,
    responsibilities: position.responsibilities.join("\n"),
    requirements: position.requirements.join("\n"),
    hiringContacts: position.hiringContacts.join("\n"),
    closesAt: position.closesAt ?? "",
  }),
  publicPath: (position) => positionPath(position.slug),
  addressField: "slug",
  localizedRoute: "careers",
  editorPath: (id) => `/admin/positions/${id}`,
  editorGroups: [
    { label: "Position", fields: ["title", "slug", "team", "summary"] },
    { label: "Where and how", fields: ["locations", "workplace", "remoteRegions", "employmentType", "pay"] },
    { label: "Text", fields: ["description", "responsibilities", "requirements"] },
    { label: "Hiring", fields: ["hiringContacts", "closesAt"] },
  ],
  capabilities: { schedule: true, preview: true, feature: false, history: true },
  surrogateKeys: { document: (id) => positionKey(id), lists: [POSITION_LIST_KEY, SITEMAP_KEY] },
};

// The registry ---------------------------------------------------------------------------------

export const contentTypes = {
  post: postType,
  legal: legalType,
  page: pageType,
  position: positionType,
} satisfies Record<ContentTypeId, { id: ContentTypeId }>;

export type SnapshotOf<T extends ContentTypeId> = (typeof contentTypes)[T] extends ContentType<infer S> ? S : never;

export const contentTypeList: readonly ContentType<unknown>[] = CONTENT_TYPE_IDS.map(
  (id) => contentTypes[id] as ContentType<unknown>,
);

export function isContentTypeId(value: string): value is ContentTypeId {
  return (CONTENT_TYPE_IDS as readonly string[]).includes(value);
}

export function contentTypeOf(id: ContentTypeId): ContentType<unknown> {
  return contentTypes[id] as ContentType<unknown>;
}

/** The content type whose audit entries name `targetType` as their target. */
export function contentTypeOfAuditTarget(targetType: string): ContentType<unknown> | undefined {
  return contentTypeList.find((type) => type.auditTarget === targetType);
}

/** The surrogate keys a live change of document `id` (with these fields) purges: its own and its lists'. */
export function changedSurrogateKeys(type: ContentTypeId, id: string, snapshot: unknown): string[] {
  const { surrogateKeys } = contentTypeOf(type);
  return [surrogateKeys.document(id, snapshot), ...surrogateKeys.lists];
}
