// `npm run content -- import [DIR] [--dry-run]`: validate content files and upsert them into the
// database named by DATABASE_URL, in one transaction. Exit 1 when any file is bad (nothing written).
// `npm run content -- status`: the posts scheduled to appear later, soonest first, with their times.
// `npm run content -- preview SLUG|ID [--days N]`: a private link showing a draft or scheduled post
// on the site as it will look, valid N days (default 7, at most 90), signed with PREVIEW_SECRET.
import path from "node:path";
import { formatProblem } from "~/lib/content-files.server";
import { DatabaseError, migrateToLatest, openDatabase } from "~/lib/db/connection.server";
import { importContent } from "~/lib/db/content-import.server";
import { findAnyPostSummary, isPublic, listScheduledPosts } from "~/lib/db/posts.server";
import { previewPath } from "~/lib/blog";
import { ConfigError, loadEnv } from "~/lib/env.server";
import { PREVIEW_DEFAULT_DAYS, PREVIEW_MAX_DAYS, signPreviewToken } from "~/lib/preview-token.server";

const usage = [
  "Usage: npm run content -- import [DIR] [--dry-run]   (DIR defaults to ./content)",
  "       npm run content -- status",
  `       npm run content -- preview SLUG|ID [--days N]   (N from 1 to ${PREVIEW_MAX_DAYS}, default ${PREVIEW_DEFAULT_DAYS})`,
].join("\n");

async function main(argv: string[]): Promise<number> {
  const flags = argv.filter((arg) => arg.startsWith("-"));
  const [command, dir = "content", ...extra] = argv.filter((arg) => !arg.startsWith("-"));
  const unknown = flags.filter((flag) => flag !== "--dry-run");
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log(usage);
    return 0;
  }
  if (command === "status" && argv.length === 1) return status();
  if (command === "preview") return preview(argv.slice(1));
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

/** Scheduled posts: published, with a published_date still ahead. They appear by themselves then. */
async function status(): Promise<number> {
  const env = loadEnv();
  const { db, dialect, location } = await openDatabase(env.DATABASE_URL, 2);
  try {
    await migrateToLatest(db, dialect);
    const scheduled = await listScheduledPosts(db);
    if (scheduled.length === 0) {
      console.log(`No scheduled posts in ${dialect} ${location}.`);
      return 0;
    }
    console.log(`${scheduled.length} scheduled post(s) in ${dialect} ${location}, soonest first (times in UTC):`);
    const now = Date.now();
    for (const post of scheduled) {
      const hours = (Date.parse(post.published_date) - now) / 3_600_000;
      const until =
        hours < 2
          ? `in ${Math.max(1, Math.round(hours * 60))} min`
          : hours < 48
            ? `in ${Math.round(hours)} h`
            : `in ${Math.round(hours / 24)} days`;
      console.log(`${post.published_date}  (${until})  ${post.slug ?? post.id}  ${post.title}`);
    }
    return 0;
  } finally {
    await db.destroy();
  }
}

/** Prints a signed link to a post's preview page, whatever the post's state. */
async function preview(args: string[]): Promise<number> {
  let days = PREVIEW_DEFAULT_DAYS;
  const targets: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === "--days" || arg.startsWith("--days=")) {
      const value = arg === "--days" ? args[(i += 1)] : arg.slice("--days=".length);
      if (!value || !/^\d+$/.test(value) || Number(value) < 1 || Number(value) > PREVIEW_MAX_DAYS) {
        console.error(`--days must be a whole number from 1 to ${PREVIEW_MAX_DAYS}.`);
        return 2;
      }
      days = Number(value);
    } else if (arg.startsWith("-")) {
      console.error(`Unknown option ${arg}. ${usage}`);
      return 2;
    } else targets.push(arg);
  }
  if (targets.length !== 1) {
    console.error(usage);
    return 2;
  }
  const env = loadEnv();
  if (!env.PREVIEW_SECRET) {
    console.error("PREVIEW_SECRET is not set: preview links are signed with it, and the server must have the same value.");
    return 1;
  }
  const { db, dialect, location } = await openDatabase(env.DATABASE_URL, 2);
  try {
    await migrateToLatest(db, dialect);
    const post = await findAnyPostSummary(db, targets[0]!);
    if (!post) {
      console.error(`No post with slug or id ${JSON.stringify(targets[0])} in ${dialect} ${location}.`);
      return 1;
    }
    const expiresAt = new Date(Date.now() + days * 24 * 3_600_000);
    const token = signPreviewToken(env.PREVIEW_SECRET, post.id, expiresAt);
    const state = !post.published ? "draft" : isPublic(post) ? "published" : `scheduled for ${post.published_date}`;
    console.log(`${env.SITE_URL}${previewPath(token)}`);
    console.error(
      `Preview of "${post.title}" (${state}), valid until ${expiresAt.toISOString()}. Anyone with the link can see the post until then.` +
        (state === "published" ? " It is already public: the link leads to its page." : ""),
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
