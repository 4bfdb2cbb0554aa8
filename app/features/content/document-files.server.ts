import { randomUUID } from "node:crypto";
import { sql, type Kysely } from "kysely";
import type { ContentTypeId } from "~/features/content/content-types";
import { insertRevision } from "~/features/content/revisions.server";
import { documentLocaleOf } from "~/features/content/locales.server";
import type { Database } from "~/db/schema";

// Documents of the core's own table written from content files (the import and the seed of a fresh
// database), for any type stored there: a file's document is found by its public address, and
// published as the file says.

type Db = Kysely<Database>;

/**
 * A checked document of a content file: where it comes from, its address, its fields; its language
 * when the file's type has them, and for a translation its source's id and current revision.
 */
export type DocumentFile<Snapshot> = {
  file: string;
  path: string;
  snapshot: Snapshot;
  locale?: string;
  translation?: { of: string; revision: number };
};
export type DocumentFileChange = { path: string; file: string; action: "create" | "update" | "unchanged" };

/**
 * Writes documents of `type` from content files, published: an address not stored yet becomes a
 * new document; a stored one whose draft differs gets the file's version as a new revision,
 * published. With `onlyIntoEmpty` (SEED=auto) nothing is written once any document of the type
 * exists. A translation written (new, changed, or pointed at another source) records its source's
 * current revision; one left alone keeps the revision it was made from. Runs inside the caller's
 * transaction; returns what changed.
 */
export async function writeDocumentFiles<Snapshot>(
  trx: Db,
  type: ContentTypeId,
  documents: readonly DocumentFile<Snapshot>[],
  options: { dryRun?: boolean; onlyIntoEmpty?: boolean } = {},
): Promise<DocumentFileChange[]> {
  if (options.onlyIntoEmpty) {
    const any = await trx.selectFrom("content_documents").select("id").where("type", "=", type).executeTakeFirst();
    if (any) return [];
  }
  const changes: DocumentFileChange[] = [];
  const now = new Date().toISOString();
  for (const { file, path, snapshot, locale, translation } of documents) {
    const existing = await trx
      .selectFrom("content_documents")
      .select(["id", "draft", "revision", "locale", "translation_of"])
      .where("type", "=", type)
      .where("path", "=", path)
      .executeTakeFirst();
    const draft = JSON.stringify(snapshot);
    const same =
      existing &&
      stable(existing.draft) === stable(snapshot) &&
      (locale === undefined || existing.locale === locale) &&
      (locale === undefined || existing.translation_of === (translation?.of ?? null));
    changes.push({ path, file, action: !existing ? "create" : same ? "unchanged" : "update" });
    if (options.dryRun || same) continue;
    const id = existing?.id ?? randomUUID();
    const number = Number(existing?.revision ?? 0) + 1;
    const values = {
      path,
      locale: documentLocaleOf(path),
      draft,
      published: draft,
      published_path: path,
      published_at: now,
      state: "published",
      revision: number,
      updated_at: now,
      ...(locale === undefined
        ? {}
        : { locale, translation_of: translation?.of ?? null, source_revision: translation?.revision ?? null }),
    };
    if (existing)
      await trx
        .updateTable("content_documents")
        .set({
          ...values,
          first_published_at: sql`coalesce(first_published_at, ${now})`,
          scheduled: null,
          scheduled_path: null,
          publish_at: null,
          unpublished_at: null,
        })
        .where("id", "=", id)
        .execute();
    else
      await trx
        .insertInto("content_documents")
        .values({ id, type, ...values, first_published_at: now, created_at: now })
        .execute();
    await insertRevision(trx, { type, documentId: id, number, snapshot, summary: `Imported from ${file}`, author: null, at: now });
  }
  return changes;
}

/** Key order must not make identical JSON look different (jsonb reorders keys). */
function stable(value: unknown): string {
  const parsed = typeof value === "string" ? (JSON.parse(value) as unknown) : value;
  const walk = (item: unknown): string => {
    if (Array.isArray(item)) return `[${item.map(walk).join(",")}]`;
    if (item && typeof item === "object")
      return `{${Object.keys(item)
        .sort()
        .map((key) => `${JSON.stringify(key)}:${walk((item as Record<string, unknown>)[key])}`)
        .join(",")}}`;
    return JSON.stringify(item);
  };
  return walk(parsed);
}
