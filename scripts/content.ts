// `npm run content -- import [DIR] [--dry-run]`: validate content files and upsert them into the
// database named by DATABASE_URL, in one transaction. Exit 1 when any file is bad (nothing written).
import path from "node:path";
import { formatProblem } from "~/lib/content-files.server";
import { DatabaseError, migrateToLatest, openDatabase } from "~/lib/db/connection.server";
import { importContent } from "~/lib/db/content-import.server";
import { ConfigError, loadEnv } from "~/lib/env.server";

const usage = "Usage: npm run content -- import [DIR] [--dry-run]   (DIR defaults to ./content)";

async function main(argv: string[]): Promise<number> {
  const flags = argv.filter((arg) => arg.startsWith("-"));
  const [command, dir = "content", ...extra] = argv.filter((arg) => !arg.startsWith("-"));
  const unknown = flags.filter((flag) => flag !== "--dry-run");
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log(usage);
    return 0;
  }
  if (command !== "import" || extra.length || unknown.length) {
    console.error(unknown.length ? `Unknown option ${unknown.join(", ")}. ${usage}` : usage);
    return 2;
  }
  const dryRun = flags.includes("--dry-run");

  const env = loadEnv();
  const { db, dialect, location } = await openDatabase(env.DATABASE_URL, 2);
  try {
    await migrateToLatest(db, dialect);
    const report = await importContent(db, path.resolve(dir), { dryRun });
    if (report.problems.length) {
      for (const problem of report.problems) console.error(formatProblem(problem));
      const files = new Set(report.problems.map((problem) => problem.path)).size;
      console.error(`\n${report.problems.length} problem(s) in ${files} file(s); nothing was written.`);
      return 1;
    }
    const counts = { create: 0, update: 0, unchanged: 0 };
    for (const change of report.changes) {
      counts[change.action] += 1;
      if (change.action !== "unchanged")
        console.log(`${dryRun ? "would " : ""}${change.action} ${change.table} ${change.key} (${change.path})`);
    }
    console.log(
      dryRun
        ? `Dry run against ${dialect} ${location}: would create ${counts.create}, update ${counts.update}; ${counts.unchanged} unchanged. Nothing written.`
        : `Imported into ${dialect} ${location}: ${counts.create} created, ${counts.update} updated, ${counts.unchanged} unchanged.`,
    );
    return 0;
  } finally {
    await db.destroy();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    // Operator-facing failures are one line, not a stack trace.
    if (error instanceof DatabaseError || error instanceof ConfigError) console.error(error.message);
    else console.error(`Import failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
