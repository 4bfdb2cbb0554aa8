import type { Migration, MigrationProvider } from "kysely";
import type { Dialect } from "~/lib/db/normalize";
import { initialMigration } from "~/lib/db/migrations/0001-initial";
import { leadDeliveriesMigration } from "~/lib/db/migrations/0002-lead-deliveries";

// Migrations are modules, not files read at runtime: the server is bundled by Vite.
// Names sort in the order they run; never rename or edit one that has shipped, add a new one.
export function migrationProvider(dialect: Dialect): MigrationProvider {
  return {
    async getMigrations(): Promise<Record<string, Migration>> {
      return {
        "0001-initial": initialMigration(dialect),
        "0002-lead-deliveries": leadDeliveriesMigration(dialect),
      };
    },
  };
}
