import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";

// Positions written straight into content_documents, as an editor's tool would: only the fields the
// applications read (title, hiring contacts, closing date), in the state a test needs.

export type PositionRow = {
  id?: string;
  slug?: string;
  title?: string;
  hiringContacts?: string[];
  closesAt?: string | null;
  /** published: live since `publishedAt`; draft: saved, never published; unpublished: taken off the site. */
  state?: "published" | "draft" | "unpublished";
  publishedAt?: string;
};

export function positionRowValues(row: PositionRow = {}) {
  const id = row.id ?? randomUUID();
  const slug = row.slug ?? `position-${id.slice(0, 8)}`;
  const path = `/company/careers/${slug}`;
  const snapshot = JSON.stringify({
    slug,
    title: row.title ?? "Security Researcher",
    team: "Research",
    locations: ["Berlin"],
    workplace: "hybrid",
    remoteRegions: [],
    employmentType: "full-time",
    pay: null,
    summary: "",
    description: "",
    responsibilities: [],
    requirements: [],
    hiringContacts: row.hiringContacts ?? [],
    closesAt: row.closesAt ?? null,
  });
  const state = row.state ?? "published";
  const published = state === "published";
  return {
    id,
    type: "position",
    path,
    draft: snapshot,
    published: published ? snapshot : null,
    published_path: published ? path : null,
    published_at: published ? (row.publishedAt ?? "2026-01-01T00:00:00.000Z") : null,
    unpublished_at: state === "unpublished" ? "2026-02-01T00:00:00.000Z" : null,
    state,
    revision: 1,
  };
}

/** Adds a position and returns its id. */
export async function addPosition(db: Kysely<Database>, row: PositionRow = {}): Promise<string> {
  const values = positionRowValues(row);
  await db.insertInto("content_documents").values(values).execute();
  return values.id;
}
