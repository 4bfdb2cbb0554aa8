import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { documentStateOf, findDocument, liveVersionOf } from "~/features/content/documents.server";

// What an application needs to know of the position it names: its title, whether it is open and
// who hires for it. Positions are content documents of type "position"; an id that is not a UUID
// or names no position is "unknown", never an error, since it comes from a visitor's form.

export type PositionForApplication = {
  id: string;
  title: string;
  state: "open" | "closed" | "draft" | "unknown";
  hiringContacts: string[];
};

/** The few fields of a position's snapshot read here. */
type PositionFields = { title?: unknown; closesAt?: unknown; hiringContacts?: unknown };

export async function findPositionForApplication(
  db: Kysely<Database>,
  id: string,
  now: Date = new Date(),
): Promise<PositionForApplication> {
  const doc = await findDocument<PositionFields>(db, id);
  if (!doc || (doc.type as string) !== "position") return { id, title: "", state: "unknown", hiringContacts: [] };
  const live = documentStateOf(doc, now.getTime()) === "published" ? liveVersionOf(doc, now.getTime()) : null;
  if (!live) return { id: doc.id, title: textOf(doc.draft.title), state: "draft", hiringContacts: [] };
  const closesAt = typeof live.data.closesAt === "string" ? Date.parse(live.data.closesAt) : Number.NaN;
  const open = live.data.closesAt == null || closesAt > now.getTime();
  return {
    id: doc.id,
    title: textOf(live.data.title),
    state: open ? "open" : "closed",
    hiringContacts: Array.isArray(live.data.hiringContacts)
      ? live.data.hiringContacts.filter((contact): contact is string => typeof contact === "string")
      : [],
  };
}

function textOf(value: unknown): string {
  return typeof value === "string" ? value : "";
}
