import type { Kysely } from "kysely";
import { z } from "zod";
import type { Database, LeadTable } from "~/db/schema";
import { findPositionForApplication } from "~/features/careers/positions.server";
import type { LeadRecord } from "~/features/leads/delivery/messages.server";

// An application filed under a position is emailed to the position's hiring contacts too, beside
// CAREERS_EMAIL_TO: read when the email is sent, so a retry reaches the contacts the position names then.

const address = z.email();

/** The hiring contacts of the position an application is filed under; none for an open application or another form. */
export async function hiringContactsOf(db: Kysely<Database>, table: LeadTable, lead: LeadRecord): Promise<string[]> {
  if (table !== "career_applications" || typeof lead.position_id !== "string" || lead.position_id === "") return [];
  const position = await findPositionForApplication(db, lead.position_id);
  // The position's own check accepts only addresses; one written around it never adds a header or a recipient list.
  return position.hiringContacts.filter((contact) => address.safeParse(contact).success);
}
