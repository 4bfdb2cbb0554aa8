import type { Kysely } from "kysely";
import { DatabaseError, migrateToLatest, openDatabase } from "~/db/connection.server";
import type { Dialect } from "~/db/normalize";
import type { Database } from "~/db/schema";
import { ConfigError, loadEnv, type Env } from "~/env.server";
import { UsageError } from "./usage-error";

// The one runner of the operator's commands (`npm run content|leads|admin -- …`): it picks the
// subcommand, lets it read its arguments, opens and migrates the database named by DATABASE_URL,
// runs it and closes the database. Exit codes: 0 done, 1 failed (one line saying why), 2 a
// mistake in the command line (one line, nothing done).

export { UsageError };

export type CommandContext = { db: Kysely<Database>; dialect: Dialect; location: string; env: Env };

/** A subcommand whose arguments are read; returns its exit code (0 when nothing is returned). */
export type ParsedCommand = (context: CommandContext) => Promise<number | void>;

/** Reads a subcommand's arguments (throwing UsageError for a mistake) and returns what to run. */
export type CommandParser = (argv: string[]) => ParsedCommand;

export function runCommands(usage: string, commands: Record<string, CommandParser>, argv = process.argv.slice(2)): void {
  main(usage, commands, argv).then(
    (code) => process.exit(code),
    (error: unknown) => {
      if (error instanceof UsageError) {
        console.error(error.message);
        process.exit(2);
      }
      if (error instanceof DatabaseError || error instanceof ConfigError) console.error(error.message);
      else console.error(`The command failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}

async function main(usage: string, commands: Record<string, CommandParser>, [name, ...argv]: string[]): Promise<number> {
  if (name === "--help" || name === "-h") {
    console.log(usage);
    return 0;
  }
  const parse = name !== undefined && Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!parse) throw new UsageError(name ? `Unknown command "${name}".\n${usage}` : usage);
  const run = parse(argv);
  const env = loadEnv();
  const { db, dialect, location } = await openDatabase(env.DATABASE_URL, 2);
  try {
    await migrateToLatest(db, dialect);
    return (await run({ db, dialect, location, env })) ?? 0;
  } finally {
    await db.destroy();
  }
}
