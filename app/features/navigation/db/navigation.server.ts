import type { Kysely, Transaction } from "kysely";
import type { Database } from "~/db/schema";
import { toIso } from "~/db/normalize";

// The navigation_menus table: one row per menu edited in the back office.

type Db = Kysely<Database> | Transaction<Database>;

export type MenuRow = { menu: string; items: unknown; revision: number; updatedAt: string; updatedBy: string };

/** jsonb arrives parsed from pg; SQLite hands back the JSON text. */
function parseItems(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

export async function listMenuRows(db: Db): Promise<MenuRow[]> {
  const rows = await db.selectFrom("navigation_menus").selectAll().execute();
  return rows.map((row) => ({
    menu: row.menu,
    items: parseItems(row.items),
    revision: Number(row.revision),
    updatedAt: toIso(row.updated_at),
    updatedBy: row.updated_by,
  }));
}

export async function findMenuRow(db: Db, menu: string): Promise<MenuRow | undefined> {
  const row = await db.selectFrom("navigation_menus").selectAll().where("menu", "=", menu).executeTakeFirst();
  return (
    row && {
      menu: row.menu,
      items: parseItems(row.items),
      revision: Number(row.revision),
      updatedAt: toIso(row.updated_at),
      updatedBy: row.updated_by,
    }
  );
}

/**
 * Writes a menu that was at `revision` (0: no row yet) as revision + 1. False when someone else
 * wrote it first: the row is no longer at that revision, or (for 0) another save created it.
 */
export async function writeMenuRow(
  db: Db,
  menu: string,
  revision: number,
  values: { items: unknown; updatedBy: string; now: string },
): Promise<boolean> {
  const columns = { items: JSON.stringify(values.items), updated_at: values.now, updated_by: values.updatedBy };
  if (revision === 0) {
    const result = await db
      .insertInto("navigation_menus")
      .values({ menu, revision: 1, ...columns })
      .onConflict((conflict) => conflict.column("menu").doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }
  const result = await db
    .updateTable("navigation_menus")
    .set({ ...columns, revision: revision + 1 })
    .where("menu", "=", menu)
    .where("revision", "=", revision)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
