import { randomUUID } from "node:crypto";
import { sql, type Kysely, type Selectable, type Transaction } from "kysely";
import { toCount, toIso } from "~/db/normalize";
import type { Database, RedirectsTable } from "~/db/schema";
import type { RedirectKind } from "~/features/redirects/redirect-rules";

// The redirects table, and the blog's old slugs read as redirects (they stay the blog's: its post
// route answers them, and they follow the post wherever it moves).

type Db = Kysely<Database> | Transaction<Database>;

export type RedirectRow = {
  id: string;
  fromPath: string;
  target: string;
  kind: RedirectKind;
  source: "editor" | "page-move";
  hits: number;
  lastUsedAt: string | null;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  updatedBy: string;
};

function toRedirect(row: Selectable<RedirectsTable>): RedirectRow {
  return {
    id: row.id,
    fromPath: row.from_path,
    target: row.target,
    kind: row.kind,
    source: row.source,
    hits: toCount(row.hits),
    lastUsedAt: row.last_used_at === null ? null : toIso(row.last_used_at),
    createdAt: toIso(row.created_at),
    createdBy: row.created_by,
    updatedAt: toIso(row.updated_at),
    updatedBy: row.updated_by,
  };
}

export async function listRedirectRows(db: Db): Promise<RedirectRow[]> {
  const rows = await db.selectFrom("redirects").selectAll().orderBy("from_path").execute();
  return rows.map(toRedirect);
}

export async function findRedirectByPath(db: Db, fromPath: string): Promise<RedirectRow | undefined> {
  const row = await db.selectFrom("redirects").selectAll().where("from_path", "=", fromPath).executeTakeFirst();
  return row && toRedirect(row);
}

export async function findRedirectById(db: Db, id: string): Promise<RedirectRow | undefined> {
  const row = await db.selectFrom("redirects").selectAll().where("id", "=", id).executeTakeFirst();
  return row && toRedirect(row);
}

/** Redirects whose target is `path` itself or `path` with a query or fragment. */
export async function findRedirectsTo(db: Db, path: string): Promise<RedirectRow[]> {
  const rows = await db
    .selectFrom("redirects")
    .selectAll()
    .where((eb) =>
      eb.or([
        eb("target", "=", path),
        eb(sql<string>`substr(target, 1, ${path.length + 1})`, "=", `${path}?`),
        eb(sql<string>`substr(target, 1, ${path.length + 1})`, "=", `${path}#`),
      ]),
    )
    .orderBy("from_path")
    .execute();
  return rows.map(toRedirect);
}

export type RedirectValues = { fromPath: string; target: string; kind: RedirectKind };

export async function insertRedirect(
  db: Db,
  values: RedirectValues & { source: "editor" | "page-move" },
  by: string,
): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await db
    .insertInto("redirects")
    .values({
      id,
      from_path: values.fromPath,
      target: values.target,
      kind: values.kind,
      source: values.source,
      created_at: now,
      created_by: by,
      updated_at: now,
      updated_by: by,
    })
    .execute();
  return id;
}

export async function updateRedirect(
  db: Db,
  id: string,
  values: Partial<RedirectValues> & { source?: "editor" | "page-move" },
  by: string,
) {
  await db
    .updateTable("redirects")
    .set({
      ...(values.fromPath === undefined ? {} : { from_path: values.fromPath }),
      ...(values.target === undefined ? {} : { target: values.target }),
      ...(values.kind === undefined ? {} : { kind: values.kind }),
      ...(values.source === undefined ? {} : { source: values.source }),
      updated_at: new Date().toISOString(),
      updated_by: by,
    })
    .where("id", "=", id)
    .execute();
}

export async function deleteRedirectRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom("redirects").where("id", "=", id).execute();
}

/** A post's old slug and where the post is now. */
export type PostRenameRow = {
  slug: string;
  postId: string;
  title: string;
  currentSlug: string | null;
  live: boolean;
  hits: number;
  lastUsedAt: string | null;
  createdAt: string;
};

export async function listPostRenames(db: Db, slug?: string): Promise<PostRenameRow[]> {
  let query = db
    .selectFrom("blog_slug_redirects")
    .innerJoin("blog_posts", "blog_posts.id", "blog_slug_redirects.post_id")
    .select([
      "blog_slug_redirects.slug",
      "blog_slug_redirects.post_id",
      "blog_slug_redirects.hits",
      "blog_slug_redirects.last_used_at",
      "blog_slug_redirects.created_at",
      "blog_posts.title",
      "blog_posts.slug as current_slug",
      "blog_posts.published",
      "blog_posts.published_date",
    ])
    .orderBy("blog_slug_redirects.slug");
  if (slug !== undefined) query = query.where("blog_slug_redirects.slug", "=", slug);
  const rows = await query.execute();
  const now = Date.now();
  return rows.map((row) => ({
    slug: row.slug,
    postId: row.post_id,
    title: row.title,
    currentSlug: row.current_slug,
    // As the post route sees it: published and its date reached.
    live: Boolean(row.published) && new Date(toIso(row.published_date)).getTime() < now,
    hits: toCount(row.hits),
    lastUsedAt: row.last_used_at === null ? null : toIso(row.last_used_at),
    createdAt: toIso(row.created_at),
  }));
}

export type HitCount = {
  key: { table: "redirects"; fromPath: string } | { table: "posts"; slug: string };
  hits: number;
  at: string;
};

/** Adds counted uses; each statement adds (never sets), so servers flushing at once all count. */
export async function addRedirectHits(db: Kysely<Database>, counts: readonly HitCount[]): Promise<void> {
  if (counts.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (const { key, hits, at } of counts) {
      if (key.table === "redirects") {
        await trx
          .updateTable("redirects")
          .set((eb) => ({ hits: eb("hits", "+", hits), last_used_at: at }))
          .where("from_path", "=", key.fromPath)
          .execute();
      } else {
        await trx
          .updateTable("blog_slug_redirects")
          .set((eb) => ({ hits: eb("hits", "+", hits), last_used_at: at }))
          .where("slug", "=", key.slug)
          .execute();
      }
    }
  });
}
