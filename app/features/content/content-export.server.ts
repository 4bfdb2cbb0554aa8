import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import matter from "gray-matter";
import type { Kysely } from "kysely";
import { loadContent, type ContentPost, type ContentProblem, type ContentSet } from "~/features/content/content-files.server";
import { MEDIA_TYPES } from "~/features/media/media";
import { pageSnapshotSchema, type PageSnapshot } from "~/features/content/content-types";
import { validatePageDocument } from "~/features/pages/page-document.server";
import {
  checkPageFiles,
  listPageSourcesForExport,
  listPagesForEditors,
  listPublishedPagesForExport,
} from "~/features/pages/page-documents.server";
import { contentLocales, folderOf } from "~/features/content/translation-files.server";
import { documentLocaleOf } from "~/features/content/locales.server";
import { inReadSnapshot, listAllPosts, type ExportedPost } from "~/features/content/db/content-export.server";
import { SOURCE_LOCALE } from "~/features/i18n/messages.server";
import { listMediaForExport, type MediaExport } from "~/features/media/db/media.server";
import { listAllLegalVersionRecords, type LegalVersionRecord } from "~/features/legal/db/legal-editing.server";
import { isValidLegalContent, type LegalContent } from "~/features/legal/db/legal.server";
import type { Database } from "~/db/schema";
import type { ContentExporter, ExportFile } from "~/features/content/content-exporter.server";
import { INVALID_CONTENT_REASON } from "~/features/legal/documents";
import { menusExporter } from "~/features/navigation/menu-files.server";
import { redirectsExporter } from "~/features/redirects/redirect-files.server";
import { positionsExporter } from "~/features/careers/position-documents.server";
import { LEGAL_SECTION_HEADING } from "~/features/legal/drafts";

// The content tables → content files: `npm run content -- export DIR`, the import's mirror image
// (the format is docs/content.md's, read by content-files.server.ts). Every post and every legal
// version is written, whatever its state, and every uploaded image. Before anything reaches DIR, the files are written to a
// scratch folder and read back with the importer's own reader: a row that would not come back as
// it is stored is reported, and nothing is written. Unchanged files are left untouched, so a
// second export of the same data changes no byte.

const contentsOf = (file: ExportFile): Buffer => ("bytes" in file ? file.bytes : Buffer.from(file.text));


export type ExportChange = { path: string; action: "create" | "update" | "unchanged" | "remove" };
export type ExportReport = { problems: ContentProblem[]; changes: ExportChange[]; summaries: string[]; written: boolean };

/**
 * YAML as people write it: no folded lines, so each field stays one line in a diff. gray-matter
 * hands its options on to js-yaml (as its documentation says; its types list only its own).
 */
const YAML_OPTIONS: matter.GrayMatterOption<string, never> & { lineWidth: number } = { lineWidth: -1 };

const SAFE_NAME = /^(?:[a-z0-9-]+\/)?[a-z0-9][a-z0-9._-]{0,150}$/;

/** The folder a language's files go in under pages/ and posts/: none for the source language, else "de/". */
function languageFolder(tag: string): string {
  const locale = contentLocales().find((entry) => entry.tag === tag);
  return locale?.prefix ? `${folderOf(locale)}/` : "";
}

/** File names from database values: only safe characters, never a path, each name once. */
function uniqueNames(candidates: readonly string[], fallback: (index: number) => string): string[] {
  const seen = new Set<string>();
  return candidates.map((candidate, index) => {
    const other = fallback(index);
    const base = SAFE_NAME.test(candidate) ? candidate : SAFE_NAME.test(other) ? other : `row-${index + 1}`;
    let name = base;
    for (let counter = 2; seen.has(name); counter += 1) name = `${base}-${counter}`;
    seen.add(name);
    return name;
  });
}

/** Reports the fields where what the reader read back differs from what the rows hold. */
function differences(file: string, expected: Record<string, unknown>, actual: Record<string, unknown>): ContentProblem[] {
  return Object.keys(expected)
    .filter((field) => !isDeepStrictEqual(expected[field], actual[field]))
    .map((field) => ({
      path: file,
      field,
      message: `would not import back as stored (stored ${JSON.stringify(expected[field])?.slice(0, 120)}, read back ${JSON.stringify(actual[field])?.slice(0, 120)})`,
    }));
}

/** Fields the reader trims and the pages never show the ends of: their surrounding space is not content. */
const trimmed = (value: string) => value.replace(/\r\n?/g, "\n").trim();
const withoutUndefined = (value: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined));

const postsExporter: ContentExporter = {
  folder: "posts",
  extensions: [".md"],
  async export(db) {
    const posts = await listAllPosts(db);
    // A post's file is named by its slug (its address), a slugless post's by its id.
    const names = uniqueNames(
      posts.map((post) => post.slug ?? post.id.toLowerCase()),
      (index) => `post-${posts[index]!.id.toLowerCase()}`,
    );
    // A translation in its language's folder: posts/de/<slug>.md.
    const files = posts.map((post, index) => ({ path: `posts/${languageFolder(post.locale)}${names[index]}.md`, text: postFile(post) }));
    const drafts = posts.filter((post) => !post.published).length;
    return {
      files,
      problems: [],
      summary: `${posts.length} post${posts.length === 1 ? "" : "s"} (${drafts} unpublished)`,
      check(readBack) {
        const read = new Map(readBack.posts.map((entry) => [entry.path, entry.value]));
        return posts.flatMap((post, index) => {
          const file = files[index]!.path;
          const value = read.get(file);
          return value ? differences(file, expectedPost(post), comparablePost(value)) : [];
        });
      },
    };
  },
};

function postFile(post: ExportedPost): string {
  const data = withoutUndefined({
    // Always the id: preview links and anything else that names a post by id keep working after a restore.
    id: post.id,
    title: post.title,
    slug: post.slug ?? undefined,
    ...translationFields(post),
    excerpt: post.excerpt,
    category: post.category,
    author: post.author,
    published_date: new Date(post.published_date),
    read_time: post.read_time,
    image_url: post.image_url ?? undefined,
    featured: post.featured,
    published: post.published,
    created_at: new Date(post.created_at),
    updated_at: new Date(post.updated_at),
  });
  return matter.stringify(`${trimmed(post.content)}\n`, data, YAML_OPTIONS);
}

/** A translated post's language and source; nothing for a post in the source language. */
function translationFields(post: ExportedPost) {
  if (post.locale === SOURCE_LOCALE) return {};
  return { locale: post.locale, translation_of: post.translationOf ?? undefined };
}

function expectedPost(post: ExportedPost): Record<string, unknown> {
  return {
    id: post.id.toLowerCase(),
    slug: post.slug,
    locale: undefined,
    translation_of: undefined,
    ...translationFields(post),
    title: trimmed(post.title),
    excerpt: trimmed(post.excerpt),
    content: trimmed(post.content),
    category: trimmed(post.category),
    author: trimmed(post.author),
    published_date: post.published_date,
    read_time: post.read_time,
    image_url: post.image_url,
    featured: post.featured,
    published: post.published,
    created_at: post.created_at,
    updated_at: post.updated_at,
  };
}

function comparablePost(value: ContentPost): Record<string, unknown> {
  return { ...value, content: trimmed(value.content) };
}

const legalExporter: ContentExporter = {
  folder: "legal",
  extensions: [".md"],
  async export(db) {
    const versions = await listAllLegalVersionRecords(db);
    // Named by document and version: privacy-policy-2.1.md, a translation privacy-policy-2.1-de.md.
    // Drafts are files with published: false.
    const names = uniqueNames(
      versions.map((version) =>
        `${version.documentType}-${version.version}${version.locale === "en" ? "" : `-${version.locale}`}`.toLowerCase(),
      ),
      (index) => `${versions[index]!.documentType}-${versions[index]!.id.toLowerCase()}`,
    );
    const problems: ContentProblem[] = [];
    const files: ExportFile[] = [];
    const written: { file: string; version: LegalVersionRecord }[] = [];
    versions.forEach((version, index) => {
      const file = `legal/${names[index]}.md`;
      if (!isValidLegalContent(version.content)) {
        problems.push({
          path: file,
          field: "body",
          message: `${INVALID_CONTENT_REASON} in the database (version ${version.version} of ${version.documentType}, row ${version.id})`,
        });
        return;
      }
      const heading = version.content.sections.find((section) =>
        section.content.split(/\r?\n/).some((line) => LEGAL_SECTION_HEADING.test(line)),
      );
      if (heading) {
        problems.push({
          path: file,
          field: "body",
          message: `a line of section "${heading.title}" starts with "## ", which the import would read as a new section (row ${version.id})`,
        });
        return;
      }
      files.push({ path: file, text: legalFile(version) });
      written.push({ file, version });
    });
    const drafts = versions.filter((version) => !version.published).length;
    return {
      files,
      problems,
      summary: `${versions.length} legal version${versions.length === 1 ? "" : "s"} (${drafts} draft${drafts === 1 ? "" : "s"})`,
      check(readBack) {
        const read = new Map(readBack.legal.map((entry) => [entry.path, entry.value]));
        return written.flatMap(({ file, version }) => {
          const value = read.get(file);
          return value ? differences(file, expectedLegal(version), withoutUndefined(value) as Record<string, unknown>) : [];
        });
      },
    };
  },
};

function legalFile(version: LegalVersionRecord): string {
  const { sections } = version.content as LegalContent;
  const data = withoutUndefined({
    locale: version.locale === "en" ? undefined : version.locale,
    document_type: version.documentType,
    title: version.title,
    version: version.version,
    last_updated: new Date(version.effectiveDate),
    published: version.published,
    change_summary: version.changeSummary || undefined,
    author_email: version.authorEmail || undefined,
    published_at: version.publishedAt ? new Date(version.publishedAt) : undefined,
    published_by_email: version.publishedByEmail || undefined,
  });
  const body = sections.map((section) => `## ${trimmed(section.title)}\n\n${trimmed(section.content)}`).join("\n\n");
  return matter.stringify(`${body}\n`, data, YAML_OPTIONS);
}

function expectedLegal(version: LegalVersionRecord): Record<string, unknown> {
  const { sections } = version.content as LegalContent;
  return withoutUndefined({
    locale: version.locale,
    document_type: version.documentType,
    title: trimmed(version.title),
    version: version.version,
    last_updated: version.effectiveDate,
    published: version.published,
    content: { sections: sections.map((section) => ({ title: trimmed(section.title), content: trimmed(section.content) })) },
    change_summary: trimmed(version.changeSummary) || undefined,
    author_email: trimmed(version.authorEmail) || undefined,
    published_at: version.publishedAt ?? undefined,
    published_by_email: trimmed(version.publishedByEmail) || undefined,
  });
}

/** Uploaded images: each one's bytes as stored (DIR/media/<id>.<ext>) and its details beside them (<id>.json). */
const mediaExporter: ContentExporter = {
  folder: "media",
  extensions: [".json", ...Object.values(MEDIA_TYPES).map((type) => `.${type.extension}`)],
  async export(db) {
    const images = await listMediaForExport(db);
    const files: ExportFile[] = images.flatMap((image) => [
      { path: `media/${image.id}.${MEDIA_TYPES[image.contentType].extension}`, bytes: image.data },
      { path: `media/${image.id}.json`, text: `${JSON.stringify(mediaDetails(image), null, 2)}\n` },
    ]);
    return {
      files,
      problems: [],
      summary: `${images.length} image${images.length === 1 ? "" : "s"}`,
      check(readBack) {
        const read = new Map(readBack.media.map((entry) => [entry.value.id, entry.value]));
        return images.flatMap((image) => {
          const value = read.get(image.id);
          const file = `media/${image.id}.json`;
          if (!value) return [{ path: file, field: "file", message: "was not read back" }];
          const { data: _data, ...details } = value;
          return differences(file, { ...mediaDetails(image), sha256: image.sha256 }, withoutUndefined(details));
        });
      },
    };
  },
};

function mediaDetails(image: MediaExport) {
  return {
    id: image.id,
    file_name: image.fileName,
    original_name: image.originalName,
    content_type: image.contentType,
    alt: image.alt,
    created_at: image.createdAt,
  };
}

/** The YAML writer and reader gray-matter uses for front matter (js-yaml's safe schema). */
const yaml = (
  matter as unknown as {
    engines: { yaml: { parse: (text: string) => unknown; stringify: (value: unknown, options?: object) => string } };
  }
).engines.yaml;

/** A stored page with its fields, and each block's, in the order their schemas declare them. */
function inSchemaOrder(page: PageSnapshot): PageSnapshot {
  const checked = validatePageDocument(page);
  return checked.ok ? pageSnapshotSchema.parse(checked.page) : page;
}

/**
 * Pages as visitors see them (DIR/pages/<name>.yaml, named by the last segment of their path, the
 * home page "home"): the import publishes what it reads, so a page never published stays out and
 * is counted in the summary.
 */
const pagesExporter: ContentExporter = {
  folder: "pages",
  extensions: [".yaml", ".yml"],
  async export(db) {
    const [live, all, sources] = await Promise.all([
      listPublishedPagesForExport(db),
      listPagesForEditors(db),
      listPageSourcesForExport(db),
    ]);
    const nameOf = (pagePath: string) => pagePath.split("/").filter(Boolean).at(-1) ?? "home";
    // A page in another language in that language's folder, a translation named as its source is
    // (pages/de/sentinel.yaml translates pages/sentinel.yaml).
    const folders = live.map((page) => languageFolder(documentLocaleOf(page.path)));
    const names = uniqueNames(
      live.map((page, index) => {
        const source = sources.get(page.path);
        return `${folders[index]}${source === undefined ? nameOf(page.path) : nameOf(source)}`;
      }),
      (index) => `${folders[index]}${live[index]!.path.split("/").filter(Boolean).join("-") || "home"}`,
    );
    const files = live.map((page, index) => {
      const source = sources.get(page.path);
      // Fields in the schemas' order, whatever order the engine keeps them in (jsonb sorts keys);
      // a translation's source right after its path.
      const { path: pagePath, ...ordered } = inSchemaOrder(page);
      const fields = { path: pagePath, ...(source === undefined ? {} : { translation_of: source }), ...ordered };
      return { path: `pages/${names[index]}.yaml`, text: yaml.stringify(fields, { lineWidth: -1 }) };
    });
    // The reader is the import's own: what it makes of each file must be the page as stored.
    const problems = files.flatMap((file, index) => {
      const checked = checkPageFiles([{ path: file.path, value: yaml.parse(file.text) }]);
      if (checked.problems.length) return checked.problems;
      return isDeepStrictEqual(checked.pages[0]!.page, live[index]) &&
        checked.pages[0]!.translationOf === sources.get(live[index]!.path)
        ? []
        : [{ path: file.path, field: "page", message: "would not import back as stored" }];
    });
    const drafts = all.length - live.length;
    return {
      files,
      problems,
      summary: all.length
        ? `${live.length} page${live.length === 1 ? "" : "s"}${drafts ? ` (${drafts} never published or taken off the site, not exported)` : ""}`
        : "",
      check: () => [],
    };
  },
};

/** What the export writes, in order. */
export const contentExporters: readonly ContentExporter[] = [
  postsExporter,
  legalExporter,
  mediaExporter,
  pagesExporter,
  positionsExporter,
  menusExporter,
  redirectsExporter,
];

/**
 * Writes the database's content to DIR in the import format. Nothing is written when any row
 * would not import back as it is stored: every such row is reported.
 */
export async function exportContent(
  db: Kysely<Database>,
  dir: string,
  exporters: readonly ContentExporter[] = contentExporters,
): Promise<ExportReport> {
  const report: ExportReport = { problems: [], changes: [], summaries: [], written: false };
  const shownDir = path.relative(process.cwd(), dir) || ".";
  for (const folder of [dir, ...exporters.map((exporter) => path.join(dir, exporter.folder))]) {
    if (existsSync(folder) && !statSync(folder).isDirectory()) {
      report.problems.push({
        path: path.relative(process.cwd(), folder) || ".",
        field: "folder",
        message: "is a file, not a folder",
      });
    }
  }
  if (report.problems.length) return report;

  // One snapshot for every kind: the export is the database at one moment.
  const kinds = await inReadSnapshot(db, (trx) => Promise.all(exporters.map((exporter) => exporter.export(trx))));
  // A kind with nothing to say (no pages yet) is left out of the report's line.
  report.summaries = kinds.map((kind) => kind.summary).filter(Boolean);
  report.problems = kinds.flatMap((kind) => kind.problems);
  const files = kinds.flatMap((kind) => kind.files);

  const scratch = mkdtempSync(path.join(os.tmpdir(), "quorvant-export-"));
  try {
    for (const file of files) writeExportFile(scratch, file.path, contentsOf(file));
    if (files.length) {
      const readBack = loadContent(scratch);
      // The reader names files as seen from the working directory: name them as seen from DIR.
      const fromDir = (shown: string) => path.relative(scratch, path.resolve(shown)).split(path.sep).join("/");
      const shownScratch = path.relative(process.cwd(), scratch);
      const relocate = (set: ContentSet): ContentSet => ({
        posts: set.posts.map((entry) => ({ ...entry, path: fromDir(entry.path) })),
        legal: set.legal.map((entry) => ({ ...entry, path: fromDir(entry.path) })),
        media: set.media.map((entry) => ({ ...entry, path: fromDir(entry.path) })),
        problems: set.problems.map((problem) => ({
          ...problem,
          path: fromDir(problem.path),
          // A message naming another file (a version defined twice) names it as it will be in DIR.
          message: problem.message.split(shownScratch).join(shownDir),
        })),
      });
      const relocated = relocate(readBack);
      report.problems.push(...relocated.problems, ...kinds.flatMap((kind) => kind.check(relocated)));
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  if (report.problems.length) {
    report.problems = report.problems.map((problem) => ({ ...problem, path: path.join(shownDir, problem.path) }));
    return report;
  }

  for (const exporter of exporters) {
    const folder = path.join(dir, exporter.folder);
    mkdirSync(folder, { recursive: true });
    const mine = files.filter((file) => file.path.startsWith(`${exporter.folder}/`));
    const keep = new Set(mine.map((file) => file.path.slice(exporter.folder.length + 1)));
    for (const file of mine) {
      const target = path.join(dir, file.path);
      const before = existsSync(target) ? readFileSync(target) : undefined;
      if (before?.equals(contentsOf(file))) {
        report.changes.push({ path: file.path, action: "unchanged" });
        continue;
      }
      writeExportFile(dir, file.path, contentsOf(file));
      report.changes.push({ path: file.path, action: before === undefined ? "create" : "update" });
    }
    // Its files, and those of each language's folder in it (pages/de, posts/de).
    const languageFolders = contentLocales()
      .filter((locale) => locale.prefix)
      .map((locale) => `${folderOf(locale)}/`)
      .filter((inner) => existsSync(path.join(folder, inner)) && statSync(path.join(folder, inner)).isDirectory());
    const present = ["", ...languageFolders].flatMap((inner) =>
      readdirSync(path.join(folder, inner), { withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => `${inner}${entry.name}`)
        .sort(),
    );
    for (const name of present) {
      if (!exporter.extensions.some((extension) => name.endsWith(extension)) || keep.has(name)) continue;
      unlinkSync(path.join(folder, ...name.split("/")));
      report.changes.push({ path: `${exporter.folder}/${name}`, action: "remove" });
    }
  }
  report.written = report.changes.some((change) => change.action !== "unchanged");
  return report;
}

/** Writes one file whole or not at all (a temporary file renamed over the target). */
function writeExportFile(root: string, relative: string, contents: Buffer) {
  const target = path.join(root, ...relative.split("/"));
  mkdirSync(path.dirname(target), { recursive: true });
  const temporary = `${target}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, target);
}
