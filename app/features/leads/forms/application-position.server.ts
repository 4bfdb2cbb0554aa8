import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { findPositionForApplication } from "~/features/careers/positions.server";
import type { ApplicationPosition } from "~/features/leads/registry.server";

// The position an application is for, as stored with it. An open position is named by its id and
// its title at the time; a closed, unknown or draft one is not filed under it (nobody recruits for
// it), yet the application is kept as an open application that names what was asked for, and the
// visitor is told so.

export type ResolvedPosition = {
  columns: ApplicationPosition;
  /** True when a position was asked for and it is not open: the visitor is told so. */
  notOpen: boolean;
};

/**
 * The field of a lead kept in the spool naming the position it asked for when that could not be
 * looked up (the database unreachable): the replay looks it up then, as it stood when the
 * application was posted. No table has such a column: an insert leaves it out.
 */
export const UNCHECKED_POSITION = "position_unchecked";

export const OPEN_APPLICATION: ApplicationPosition = { position_id: null, position_title: null, position_requested: null };

export async function resolveApplicationPosition(
  db: Kysely<Database>,
  requested: string | undefined,
  now: Date = new Date(),
): Promise<ResolvedPosition> {
  if (requested === undefined) return { columns: OPEN_APPLICATION, notOpen: false };
  const position = await findPositionForApplication(db, requested, now);
  if (position.state === "open")
    return { columns: { position_id: position.id, position_title: position.title, position_requested: null }, notOpen: false };
  return { columns: { ...OPEN_APPLICATION, position_requested: requestedLabel(position.id, position.title) }, notOpen: true };
}

/** "<id> (<title>)", or "<id> (unknown)" when the position has no title we know. */
export function requestedLabel(id: string, title: string): string {
  return `${id} (${title || "unknown"})`;
}

/** A spooled application's lead with its position looked up, if it asked for one that was not (see UNCHECKED_POSITION). */
export async function withCheckedPosition(
  db: Kysely<Database>,
  lead: Record<string, unknown>,
  postedAt: string,
): Promise<Record<string, unknown>> {
  const requested = lead[UNCHECKED_POSITION];
  if (typeof requested !== "string") return lead;
  const { columns } = await resolveApplicationPosition(db, requested, new Date(postedAt));
  return { ...lead, ...columns };
}
