// The two builds a before/after benchmark compares: this checkout's build and a reference, each
// served by its own checkout's server on its own fresh database, so both run with identical content.
//
// The reference is REFERENCE_BUILD_DIR when set (an existing build directory; when it sits in a
// checkout, that checkout's server.js and content serve it). Otherwise `ref` names it: another
// checkout's directory (its server.js serves its build/), or a git ref built here in a temporary
// worktree (node_modules linked from this checkout), which is removed after.
// The ref "none" runs this checkout's build alone (a check against a goal, not a comparison).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startBuiltServer, type BuiltServer } from "../../scripts/lib/built-server";

export type ComparedBuild = { name: "current" | "reference"; label: string; server: BuiltServer };

/** main just before the hydration work: what `bench:lighthouse` and `bench:interactions` compare with by default. */
export const DEFAULT_REFERENCE = "50798c3";
/** The reference that means none: this checkout's build is measured alone. */
export const NO_REFERENCE = "none";

const REPO = path.resolve(import.meta.dirname, "../..");

function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) {
  const result = spawnSync(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed:\n${result.stdout}\n${result.stderr}`);
  return result.stdout.trim();
}

/** A checkout of `ref` with its own production build, and how to remove it. */
function buildReference(ref: string) {
  const commit = run("git", ["rev-parse", "--short", `${ref}^{commit}`], { cwd: REPO });
  const checkout = mkdtempSync(path.join(os.tmpdir(), `quorvant-reference-${commit}-`));
  run("git", ["worktree", "add", "--detach", checkout, commit], { cwd: REPO });
  const remove = () => {
    spawnSync("git", ["worktree", "remove", "--force", checkout], { cwd: REPO, stdio: "ignore" });
    rmSync(checkout, { recursive: true, force: true });
  };
  try {
    symlinkSync(realpathSync(path.join(REPO, "node_modules")), path.join(checkout, "node_modules"));
    process.stderr.write(`building the reference ${ref} (${commit}) in ${checkout}…\n`);
    run("npm", ["run", "build"], { cwd: checkout, env: { ...process.env, BUILD_DIR: "build" } });
  } catch (error) {
    remove();
    throw error;
  }
  return { checkout, buildDir: path.join(checkout, "build"), label: `${ref} (${commit})`, remove };
}

/** Another checkout, built already: its server.js serves its build/ with its own content. */
function builtCheckout(checkout: string) {
  const buildDir = path.join(checkout, "build");
  if (!existsSync(path.join(buildDir, "server/index.js")))
    throw new Error(`no build at ${buildDir}: run \`npm run build\` in ${checkout} first`);
  const commit = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: checkout, encoding: "utf8" }).stdout?.trim();
  return { checkout, buildDir, label: commit ? `${checkout} (${commit})` : checkout, remove: () => {} };
}

/**
 * Starts this checkout's build (BUILD_DIR, else ./build) and the reference, each on a fresh SQLite
 * database in a temporary directory; `stop` stops both and removes what was made for them.
 * `discardStdout`: the servers' log lines go to /dev/null (a load test at LOG_LEVEL=info).
 * `prepareCurrentDatabase`: writes into this build's database before its server starts (more
 * content than the sample's); the reference's is seeded as `npm start` seeds it.
 */
export async function startComparedBuilds(
  ref: string,
  env: Record<string, string> = {},
  {
    discardStdout = false,
    prepareCurrentDatabase,
  }: { discardStdout?: boolean; prepareCurrentDatabase?: (databaseUrl: string) => Promise<void> } = {},
) {
  const currentBuild = path.resolve(REPO, process.env.BUILD_DIR ?? "build");
  if (!existsSync(path.join(currentBuild, "server/index.js")))
    throw new Error(`no build at ${currentBuild}: run \`npm run build\` first`);

  const given = process.env.REFERENCE_BUILD_DIR ? path.resolve(process.env.REFERENCE_BUILD_DIR) : undefined;
  const givenCheckout = given && existsSync(path.join(given, "../server.js")) ? path.dirname(given) : REPO;
  const reference = given
    ? { checkout: givenCheckout, buildDir: given, label: given, remove: () => {} }
    : ref === NO_REFERENCE
      ? null
      : existsSync(path.join(ref, "server.js"))
        ? builtCheckout(path.resolve(ref))
        : buildReference(ref);

  const dataDir = mkdtempSync(path.join(os.tmpdir(), "quorvant-compared-"));
  const started: ComparedBuild[] = [];
  const stop = async () => {
    await Promise.all(started.map(({ server }) => server.stop()));
    reference?.remove();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const common = { LOG_LEVEL: "silent", ...env };
    const currentDatabase = `file:${path.join(dataDir, "current.db")}`;
    await prepareCurrentDatabase?.(currentDatabase);
    started.push({
      name: "current",
      label: `${path.relative(REPO, currentBuild)} of this checkout`,
      server: await startBuiltServer(
        {
          ...common,
          BUILD_DIR: currentBuild,
          DATABASE_URL: currentDatabase,
        },
        { discardStdout },
      ),
    });
    if (reference)
      started.push({
        name: "reference",
        label: reference.label,
        server: await startBuiltServer(
          {
            ...common,
            BUILD_DIR: reference.buildDir,
            DATABASE_URL: `file:${path.join(dataDir, "reference.db")}`,
          },
          { cwd: reference.checkout, discardStdout },
        ),
      });
  } catch (error) {
    await stop();
    throw error;
  }
  return { builds: started, stop };
}

/** Round r visits the builds current-first when r is even, reference-first when odd: neither always goes first. */
export function inRoundOrder<T>(builds: T[], round: number): T[] {
  return round % 2 === 0 ? builds : [...builds].reverse();
}

export const median = (values: number[]) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** "median (lowest–highest)", or "—" for no values. */
export function medianAndSpread(values: number[], format: (value: number) => string = (value) => String(Math.round(value))) {
  if (values.length === 0) return "—";
  return `${format(median(values))} (${format(Math.min(...values))}–${format(Math.max(...values))})`;
}
