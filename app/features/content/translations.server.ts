import type { Kysely } from "kysely";
import { contentTypeOf, type ContentTypeId, type PageSnapshot, type PositionSnapshot } from "~/features/content/content-types";
import { diffSnapshots, saveDocument, type Editor, type FieldChange, type SaveOutcome } from "~/features/content/core.server";
import { documentStateOf, findDocument, type ContentDocument, type DocumentState } from "~/features/content/documents.server";
import { languageName, SOURCE_LOCALE, translatedPagePath } from "~/features/content/document-locale";
import { findRevision } from "~/features/content/revisions.server";
import { postStateOf, type PostState } from "~/features/blog/post-state";
import { savePost, type SaveOutcome as PostSaveOutcome } from "~/features/blog/post-editor.server";
import { fieldsOfPost, findPostForEditor, type PostFields } from "~/features/blog/db/post-editing.server";
import { readTimeOf } from "~/features/blog/post-fields";
import type { Database } from "~/db/schema";

// Translations, for every type of the registry kept in the core's documents (pages, positions) or
// in the posts' table: a translation is its own document in its language, naming its English
// source and the source's revision it was last brought up to date with. Its status is Missing (no
// translation), Outdated (the source has a newer revision) or Current. Legal versions have their
// own rule (a translation belongs to one version of the governing document).

type Db = Kysely<Database>;

export type TranslatableType = Exclude<ContentTypeId, "legal">;

export type TranslationStatus = "missing" | "outdated" | "current";

export const TRANSLATION_STATUS_LABELS: Record<TranslationStatus, string> = {
  missing: "Missing",
  outdated: "Outdated",
  current: "Current",
};

/** One language's translation of a source, as the lists show it. */
export type TranslationState = {
  locale: string;
  /** The language's name in that language ("Deutsch"). */
  language: string;
  status: TranslationStatus;
  translation?: {
    id: string;
    state: DocumentState | PostState;
    editorPath: string;
    /** The source's revision it was last brought up to date with. */
    sourceRevision: number;
  };
};

type TranslationRow = {
  id: string;
  locale: string;
  translationOf: string;
  sourceRevision: number;
  state: DocumentState | PostState;
};

/** The newest revision number of each of `ids` (0 when none: a post no one has edited here yet). */
async function latestRevisions(db: Db, type: TranslatableType, ids: readonly string[]): Promise<Map<string, number>> {
  const latest = new Map<string, number>(ids.map((id) => [id, 0]));
  for (const chunk of chunks(ids)) {
    const rows = await db
      .selectFrom("content_revisions")
      .select(["document_id", (eb) => eb.fn.max("number").as("latest")])
      .where("type", "=", type)
      .where("document_id", "in", chunk)
      .groupBy("document_id")
      .execute();
    for (const row of rows) latest.set(row.document_id, Number(row.latest ?? 0));
  }
  return latest;
}

/** The source's newest revision: the number a translation brought up to date records. */
export async function sourceRevisionOf(db: Db, type: TranslatableType, sourceId: string): Promise<number> {
  return (await latestRevisions(db, type, [sourceId])).get(sourceId) ?? 0;
}

function chunks<T>(items: readonly T[], size = 400): T[][] {
  const out: T[][] = [];
  for (let index = 0; index < items.length; index += size) out.push(items.slice(index, index + size));
  return out;
}

/** Every translation of the sources `ids`. */
async function translationsOf(db: Db, type: TranslatableType, ids: readonly string[], now = Date.now()): Promise<TranslationRow[]> {
  const found: TranslationRow[] = [];
  for (const chunk of chunks(ids)) {
    if (type === "post") {
      const rows = await db
        .selectFrom("blog_posts")
        .select(["id", "locale", "translation_of", "source_revision", "published", "published_date", "unpublished_at"])
        .where("translation_of", "in", chunk)
        .execute();
      for (const row of rows)
        found.push({
          id: row.id,
          locale: row.locale,
          translationOf: row.translation_of!,
          sourceRevision: Number(row.source_revision ?? 0),
          state: postStateOf(
            {
              published: Boolean(row.published),
              published_date: new Date(row.published_date as string | Date).toISOString(),
              unpublished_at: row.unpublished_at == null ? null : String(row.unpublished_at),
            },
            now,
          ),
        });
    } else {
      const rows = await db
        .selectFrom("content_documents")
        .select(["id", "locale", "translation_of", "source_revision", "state", "published", "publish_at"])
        .where("type", "=", type)
        .where("translation_of", "in", chunk)
        .execute();
      for (const row of rows)
        found.push({
          id: row.id,
          locale: row.locale,
          translationOf: row.translation_of!,
          sourceRevision: Number(row.source_revision ?? 0),
          state: documentStateOf(
            {
              storedState: row.state as ContentDocument["storedState"],
              published: row.published,
              publishAt: row.publish_at == null ? null : new Date(row.publish_at as string | Date).toISOString(),
            } as ContentDocument,
            now,
          ),
        });
    }
  }
  return found;
}

/**
 * Each source's translations into `locales` (the site's languages but English), by source id:
 * missing, outdated (the source's newest revision is past the one the translation was brought up
 * to date with) or current, each with the translation's own state and its editor.
 */
export async function translationStates(
  db: Db,
  type: TranslatableType,
  sourceIds: readonly string[],
  locales: readonly string[],
): Promise<Map<string, TranslationState[]>> {
  const targets = locales.filter((locale) => locale !== SOURCE_LOCALE);
  const states = new Map<string, TranslationState[]>();
  if (!sourceIds.length || !targets.length) return states;
  const [latest, translations] = await Promise.all([latestRevisions(db, type, sourceIds), translationsOf(db, type, sourceIds)]);
  const editorPath = contentTypeOf(type).editorPath;
  for (const id of sourceIds) {
    states.set(
      id,
      targets.map((locale) => {
        const language = languageName(locale);
        const found = translations.find((row) => row.translationOf === id && row.locale === locale);
        if (!found) return { locale, language, status: "missing" as const };
        return {
          locale,
          language,
          status: found.sourceRevision < (latest.get(id) ?? 0) ? ("outdated" as const) : ("current" as const),
          translation: { id: found.id, state: found.state, editorPath: editorPath(found.id), sourceRevision: found.sourceRevision },
        };
      }),
    );
  }
  return states;
}

/** Where a translation stands against its source, for its editor. */
export type TranslationContext<Snapshot> = {
  locale: string;
  language: string;
  source: { id: string; title: string; editorPath: string; fields: Snapshot; revision: number };
  /** The source's revision the translation was last brought up to date with. */
  sourceRevision: number;
  outdated: boolean;
  /** What changed in the source since (empty when current). */
  changes: FieldChange[];
};

/** The source's fields at its newest revision (a post no one has edited here yet: as stored). */
async function sourceFields(db: Db, type: TranslatableType, sourceId: string, revision: number): Promise<{ title: string; fields: unknown } | undefined> {
  if (type === "post") {
    const post = await findPostForEditor(db, sourceId);
    if (!post) return undefined;
    const kept = revision ? await findRevision<PostFields>(db, type, sourceId, revision) : undefined;
    return { title: post.title, fields: kept?.snapshot ?? fieldsOfPost(post, post.read_time !== readTimeOf(post.content)) };
  }
  const doc = await findDocument<{ title: string }>(db, sourceId);
  return doc && doc.type === type ? { title: doc.draft.title, fields: doc.draft } : undefined;
}

/**
 * A translation's source as it is now, and when it changed since the translation was brought up to
 * date, what changed (the source's revision then against its newest). Undefined for a source.
 */
export async function translationContext<Snapshot = unknown>(
  db: Db,
  type: TranslatableType,
  translation: { locale: string; translationOf: string | null; sourceRevision: number | null },
): Promise<TranslationContext<Snapshot> | undefined> {
  if (!translation.translationOf) return undefined;
  const sourceId = translation.translationOf;
  const latest = await sourceRevisionOf(db, type, sourceId);
  const source = await sourceFields(db, type, sourceId, latest);
  if (!source) return undefined;
  const from = translation.sourceRevision ?? 0;
  const outdated = from < latest;
  let changes: FieldChange[] = [];
  if (outdated) {
    // A source's first revision is how it stood before anyone edited it here (a post from the
    // content files has none until then): the base of a translation made at 0.
    const before = await findRevision(db, type, sourceId, Math.max(1, from));
    if (before && before.number < latest) changes = diffSnapshots(type, before.snapshot, source.fields);
  }
  return {
    locale: translation.locale,
    language: languageName(translation.locale),
    source: { id: sourceId, title: source.title, editorPath: contentTypeOf(type).editorPath(sourceId), fields: source.fields as Snapshot, revision: latest },
    sourceRevision: from,
    outdated,
    changes,
  };
}

export type TranslateOutcome =
  | { ok: true; id: string }
  | { ok: false; problem: string }
  | { ok: false; errors: Record<string, string> };

function refusal(problem: string): TranslateOutcome {
  return { ok: false, problem };
}

/** Whether `locale` may be translated into: another of the site's languages than English. */
function translatableInto(locale: string, locales: readonly string[]): boolean {
  return locale !== SOURCE_LOCALE && locales.includes(locale);
}

async function existingTranslation(db: Db, type: TranslatableType, sourceId: string, locale: string) {
  const [found] = (await translationsOf(db, type, [sourceId])).filter((row) => row.locale === locale);
  return found;
}

/**
 * "Translate into <language>" on an English document of the core (a page, a position): a draft copy
 * of its fields (to be translated), as `fieldsIn` places it in the language, naming its source and
 * the source's newest revision. Audited as the type's translation-created.
 */
async function translateDocument<Snapshot>(
  db: Db,
  editor: Editor,
  type: "page" | "position",
  input: { sourceId: string; locale: string; locales: readonly string[] },
  fieldsIn: (source: Snapshot, locale: string) => Snapshot,
): Promise<TranslateOutcome> {
  const { noun } = contentTypeOf(type);
  const source = await findDocument<Snapshot>(db, input.sourceId);
  if (!source || source.type !== type) return refusal(`There is no such ${noun}.`);
  if (source.translationOf || source.locale !== SOURCE_LOCALE) return refusal(`Only an English ${noun} is translated.`);
  if (!translatableInto(input.locale, input.locales)) return refusal("The site is not published in that language.");
  if (await existingTranslation(db, type, source.id, input.locale))
    return refusal(`This ${noun} already has a ${languageName(input.locale)} translation.`);
  const outcome: SaveOutcome = await saveDocument(db, editor, {
    type,
    baseRevision: 0,
    fields: fieldsIn(structuredClone(source.draft), input.locale),
    translation: { locale: input.locale, of: source.id, sourceRevision: source.revision },
  });
  if (outcome.ok) return { ok: true, id: outcome.id };
  if ("errors" in outcome) return { ok: false, errors: outcome.errors };
  return refusal("Someone made this translation at the same moment. Reload the page.");
}

/**
 * "Translate into Deutsch" on an English page: a draft copy of the page's fields (to be translated)
 * at the same address under the language's prefix, naming its source and the source's newest
 * revision. Audited as the page's translation-created.
 */
export function translatePage(
  db: Db,
  editor: Editor,
  input: { sourceId: string; locale: string; locales: readonly string[] },
): Promise<TranslateOutcome> {
  return translateDocument<PageSnapshot>(db, editor, "page", input, (page, locale) => ({
    ...page,
    path: translatedPagePath(page.path, locale),
  }));
}

/**
 * "Translate into Deutsch" on an English position: a draft copy of its fields (to be translated),
 * with the English slug under the language's careers page (/de/unternehmen/karriere/<slug>: the
 * slug may be changed, the careers page not), naming its source and the source's newest revision.
 * Audited as the position's translation-created.
 */
export function translatePosition(
  db: Db,
  editor: Editor,
  input: { sourceId: string; locale: string; locales: readonly string[] },
): Promise<TranslateOutcome> {
  return translateDocument<PositionSnapshot>(db, editor, "position", input, (position) => position);
}

/**
 * "Translate into Deutsch" on an English post: a draft copy of the post's fields (to be
 * translated), with a slug of its own (the source's and the language's tag), naming its source and
 * the source's newest revision. Audited as the post's translation-created.
 */
export async function translatePost(
  db: Db,
  editor: Editor,
  input: { sourceId: string; locale: string; locales: readonly string[] },
): Promise<TranslateOutcome> {
  const source = await findPostForEditor(db, input.sourceId);
  if (!source) return refusal("There is no such post.");
  if (source.translation_of || source.locale !== SOURCE_LOCALE) return refusal("Only an English post is translated.");
  if (!translatableInto(input.locale, input.locales)) return refusal("The site is not published in that language.");
  if (await existingTranslation(db, "post", source.id, input.locale))
    return refusal(`This post already has a ${languageName(input.locale)} translation.`);
  const revision = await sourceRevisionOf(db, "post", source.id);
  const current = await sourceFields(db, "post", source.id, revision);
  const fields: PostFields = {
    ...(current!.fields as PostFields),
    slug: `${source.slug ?? source.id}-${input.locale.toLowerCase()}`.slice(0, 120),
    featured: false,
    published: false,
    published_date: new Date().toISOString(),
  };
  const outcome: PostSaveOutcome = await savePost({
    id: undefined,
    baseRevision: 0,
    fields,
    intent: "save",
    summary: `Translation into ${languageName(input.locale)} created`,
    translation: { locale: input.locale, of: source.id, sourceRevision: revision },
    actor: editor.actor,
    ip: editor.ip,
  });
  if (outcome.ok) return { ok: true, id: outcome.id };
  if ("errors" in outcome) return { ok: false, errors: outcome.errors };
  return refusal("This translation could not be made. Reload the page and try again.");
}

// What the back office shows -------------------------------------------------------------------

const STATE_LABELS: Record<DocumentState | PostState, string> = {
  draft: "Draft",
  scheduled: "Scheduled",
  published: "Published",
  unpublished: "Unpublished",
};

/** A language's translation of a source as a list's cell names it (plain data for the page). */
export type TranslationSummary = {
  locale: string;
  language: string;
  status: TranslationStatus;
  statusLabel: string;
  /** The translation's own state ("Draft", "Published"), and its editor. */
  state?: string;
  href?: string;
  /** A missing translation the person looking may start (they may edit its language). */
  startable?: boolean;
};

/**
 * The lists' and editors' view of a source's translations; `mayEdit` says which languages the
 * person looking may edit: only there is a missing translation offered to start.
 */
export function summarizeTranslations(
  states: readonly TranslationState[] | undefined,
  mayEdit: (locale: string) => boolean,
): TranslationSummary[] {
  return (states ?? []).map((entry) => ({
    locale: entry.locale,
    language: entry.language,
    status: entry.status,
    statusLabel: TRANSLATION_STATUS_LABELS[entry.status],
    ...(entry.translation ? { state: STATE_LABELS[entry.translation.state], href: entry.translation.editorPath } : {}),
    ...(entry.status === "missing" && mayEdit(entry.locale) ? { startable: true } : {}),
  }));
}

/** The site's languages other than English (those a source may be translated into), as tags. */
export const translationLocales = (siteLocales: readonly { tag: string }[]) =>
  siteLocales.map((locale) => locale.tag).filter((tag) => tag !== SOURCE_LOCALE);

/**
 * A translation's context for its editor, as plain data: its source, and what changed in it since.
 * The source's editor is linked only for someone who may open it (a translator limited to the
 * translation's language reads the source here, beside the fields).
 */
export function translationView(context: TranslationContext<unknown>, sourceOpens: boolean) {
  return {
    language: context.language,
    sourceTitle: context.source.title,
    sourceHref: sourceOpens ? context.source.editorPath : null,
    sourceRevision: context.source.revision,
    from: context.sourceRevision,
    outdated: context.outdated,
    changes: context.changes,
  };
}
export type TranslationView = ReturnType<typeof translationView>;
