// `npm run content -- import [DIR] [--dry-run]`: validate content files and upsert them into the
// database named by DATABASE_URL, in one transaction. Exit 1 when any file is bad (nothing written).
// `npm run content -- export DIR`: write every post and legal version (drafts included), image,
// published page, saved menu and redirect to DIR in the import format, so the site can be backed
// up, reviewed in Git or moved to a fresh database.
// Exit 1 when a row would not import back as stored (nothing written).
// `npm run content -- status`: the posts scheduled to appear later, soonest first, with their times.
// `npm run content -- preview SLUG|ID [--days N]`: a private link showing a draft or scheduled post
// on the site as it will look, valid N days (default 7, at most 90), signed with PREVIEW_SECRET (or the database's shared
// preview secret when it is not set, as the servers do).
import "./lib/quiet-logs";
import path from "node:path";
import { parseArgs } from "node:util";
import { makePreviewLink } from "~/features/blog/preview-links.server";
import { formatProblem } from "~/features/content/content-files.server";
import { exportContent } from "~/features/content/content-export.server";
import { importContent } from "~/features/content/db/content-import.server";
import { findAnyPostSummary, isPublic, listScheduledPosts } from "~/features/blog/db/posts.server";
import { PREVIEW_DEFAULT_DAYS, PREVIEW_MAX_DAYS } from "~/features/blog/preview-token.server";
import { runCommands, UsageError, type CommandParser } from "./lib/command";

const USAGE = [
  "Usage: npm run content -- import [DIR] [--dry-run]   (DIR defaults to ./content)",
  "       npm run content -- export DIR",
  "       npm run content -- status",
  `       npm run content -- preview SLUG|ID [--days N]   (N from 1 to ${PREVIEW_MAX_DAYS}, default ${PREVIEW_DEFAULT_DAYS})`,
].join("\n");

/** Node's own argument parser; its complaints become usage errors (exit 2). */
function readArgs<Options extends NonNullable<Parameters<typeof parseArgs>[0]>["options"]>(argv: string[], options: Options) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${(error as Error).message.split("\n")[0]}\n${USAGE}`);
  }
}

const commands: Record<string, CommandParser> = {
  import(argv) {
    const { values, positionals } = readArgs(argv, { "dry-run": { type: "boolean" } });
    if (positionals.length > 1) throw new UsageError(USAGE);
    const dir = positionals[0] ?? "content";
    const dryRun = values["dry-run"] === true;
    return async ({ db, dialect, location, env }) => {
      const report = await importContent(db, path.resolve(dir), { dryRun, siteUrl: env.SITE_URL });
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
    };
  },

  /** The database's content as content files (DIR/posts, legal, media, pages, navigation, redirects), files no longer in the database removed. */
  export(argv) {
    const { positionals } = readArgs(argv, {});
    if (positionals.length !== 1) throw new UsageError(USAGE);
    const dir = positionals[0]!;
    return async ({ db, dialect, location }) => {
      const report = await exportContent(db, path.resolve(dir));
      if (report.problems.length) {
        console.error("These rows would not import back as they are stored; fix them and export again:\n");
        for (const problem of report.problems) console.error(formatProblem(problem));
        console.error(`\n${report.problems.length} problem(s); nothing was written.`);
        return 1;
      }
      const counts = { create: 0, update: 0, unchanged: 0, remove: 0 };
      for (const change of report.changes) {
        counts[change.action] += 1;
        if (change.action !== "unchanged") console.log(`${change.action} ${path.join(dir, change.path)}`);
      }
      console.log(
        `Exported ${report.summaries.join(" and ")} from ${dialect} ${location} to ${dir}: ` +
          `${counts.create} created, ${counts.update} updated, ${counts.remove} removed, ${counts.unchanged} unchanged.`,
      );
    };
  },

  /** Scheduled posts: published, with a published_date still ahead. They appear by themselves then. */
  status(argv) {
    if (argv.length) throw new UsageError(USAGE);
    return async ({ db, dialect, location }) => {
      const scheduled = await listScheduledPosts(db);
      if (scheduled.length === 0) {
        console.log(`No scheduled posts in ${dialect} ${location}.`);
        return;
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
    };
  },

  /** Prints a signed link to a post's preview page, whatever the post's state. */
  preview(argv) {
    const { values, positionals } = readArgs(argv, { days: { type: "string" } });
    if (positionals.length !== 1) throw new UsageError(USAGE);
    const daysText = values.days ?? String(PREVIEW_DEFAULT_DAYS);
    if (!/^\d+$/.test(daysText) || Number(daysText) < 1 || Number(daysText) > PREVIEW_MAX_DAYS) {
      throw new UsageError(`--days must be a whole number from 1 to ${PREVIEW_MAX_DAYS}.`);
    }
    const days = Number(daysText);
    const target = positionals[0]!;
    return async ({ db, dialect, location, env }) => {
      const post = await findAnyPostSummary(db, target);
      if (!post) {
        console.error(`No post with slug or id ${JSON.stringify(target)} in ${dialect} ${location}.`);
        return 1;
      }
      const { url, expiresAt } = await makePreviewLink(db, env, post.id, days);
      const state = !post.published ? "draft" : isPublic(post) ? "published" : `scheduled for ${post.published_date}`;
      console.log(url);
      console.error(
        `Preview of "${post.title}" (${state}), valid until ${expiresAt.toISOString()}. Anyone with the link can see the post until then.` +
          (state === "published" ? " It is already public: the link leads to its page." : ""),
      );
    };
  },
};

runCommands(USAGE, commands);
