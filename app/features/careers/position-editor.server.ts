import { isDeepStrictEqual } from "node:util";
import type { Kysely } from "kysely";
import type { Role } from "~/config/roles";
import type { Database } from "~/db/schema";
import { listDocuments } from "~/features/content/documents.server";
import { contentTypes, positionSnapshotSchema, type PositionSnapshot } from "~/features/content/content-types";
import { slugFromTitle } from "~/platform/slug";
import type { Position } from "~/features/careers/positions";

// The position editor's server side: who edits positions, what a new one starts as, and the
// teams it offers.

/** Recruiters (and owners, who hold every role) publish the positions they hire for. */
export const POSITION_ROLE: Role = "recruiter";

/** A new position: its title, team and first location, the rest to be written before it is published. */
export function newPosition({ title, team, location }: { title: string; team: string; location: string }): Position {
  return {
    slug: slugFromTitle(title, 80),
    title,
    team,
    locations: location ? [location] : [],
    workplace: "hybrid",
    remoteRegions: [],
    employmentType: "full-time",
    pay: null,
    summary: "",
    description: "",
    responsibilities: [],
    requirements: [],
    hiringContacts: [],
    closesAt: null,
  };
}

/** The teams positions name, for the editor's choices. */
export async function positionTeams(db: Kysely<Database>): Promise<string[]> {
  const docs = await listDocuments<PositionSnapshot>(db, "position");
  return [...new Set(docs.map((doc) => doc.draft.team))].sort((a, b) => a.localeCompare(b));
}

/** Whether `fields` (the form's, unchecked) are the position `saved`: publishing them needs no new revision. */
export function samePosition(fields: unknown, saved: unknown): boolean {
  const a = positionSnapshotSchema.safeParse(fields);
  const b = positionSnapshotSchema.safeParse(saved);
  return a.success && b.success && isDeepStrictEqual(a.data, b.data);
}

/** The English source's fields beside a translation's, by the editor's groups: a label and its text each. */
export type PositionSourceColumn = Record<string, { label: string; text: string }[]>;

export function positionSourceColumn(position: PositionSnapshot): PositionSourceColumn {
  const { asText, fieldLabels, editorGroups } = contentTypes.position;
  const text = asText(position);
  return Object.fromEntries(
    editorGroups.map((group) => [
      group.label,
      group.fields.map((field) => ({ label: fieldLabels[field] ?? field, text: text[field] ?? "" })),
    ]),
  );
}
