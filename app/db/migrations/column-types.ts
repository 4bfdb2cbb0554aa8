import { sql } from "kysely";
import type { Dialect } from "~/db/normalize";

// Column types and defaults per engine, shared by the migrations: only these differ between them.

export function columnTypes(dialect: Dialect) {
  if (dialect === "postgres") {
    return {
      uuid: sql`uuid`,
      uuidDefault: sql`gen_random_uuid()`,
      timestamp: sql`timestamptz`,
      now: sql`now()`,
      bool: sql`boolean`,
      false: sql`false`,
      json: sql`jsonb`,
      bytes: sql`bytea`,
    };
  }
  return {
    uuid: sql`text`,
    // A random version-4 UUID, so rows inserted by hand or by other tools get an id too.
    uuidDefault: sql`(lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' || substr(lower(hex(randomblob(2))), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))))`,
    timestamp: sql`text`,
    // Same shape as Date#toISOString, so text ordering is time ordering.
    now: sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`,
    bool: sql`integer`,
    false: sql`0`,
    json: sql`text`,
    bytes: sql`blob`,
  };
}
