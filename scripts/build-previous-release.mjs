// Builds the release before this one (its commit is named in deploy/previous-release) once, and
// prints the directory of that build on the last line of its output: the checked-out tree with
// its `build/`. The build is kept under node_modules/.cache by commit, so a second run (a second
// test, the next `npm test`) reuses it. The test of the previous release on the current schema
// runs it (tests/topology/previous-release.spec.ts); `npm test` builds it in its first stage.
//
//   node scripts/build-previous-release.mjs            → builds if needed, prints the directory
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const RELEASE_FILE = path.join(ROOT, "deploy/previous-release");
const CACHE = path.join(ROOT, "node_modules/.cache/quorvant-previous-release");

/** The commit of the previous release: the first line of deploy/previous-release that is not a comment. */
export function previousReleaseCommit() {
  const line = readFileSync(RELEASE_FILE, "utf8")
    .split("\n")
    .map((entry) => entry.trim())
    .find((entry) => entry && !entry.startsWith("#"));
  if (!line || !/^[0-9a-f]{40}$/.test(line)) throw new Error(`${RELEASE_FILE} names no commit (40 hex digits)`);
  return line;
}

/** The directory of the previous release's built tree; builds it first when the cache has none. */
export function buildPreviousRelease({ log = (line) => console.log(line) } = {}) {
  const sha = previousReleaseCommit();
  const target = path.join(CACHE, sha);
  if (existsSync(path.join(target, "build/server/index.js"))) {
    log(`previous release ${sha.slice(0, 7)}: cached build in ${target}`);
    return target;
  }
  try {
    execFileSync("git", ["cat-file", "-e", `${sha}^{commit}`], { cwd: ROOT, stdio: "ignore" });
  } catch {
    throw new Error(
      `The previous release's commit ${sha} (deploy/previous-release) is not in this clone. ` +
        "Fetch the full history (git fetch --unshallow, or a clone without --depth) or correct the file.",
    );
  }
  const began = Date.now();
  mkdirSync(CACHE, { recursive: true });
  // Built in a directory of its own and moved into place when done: a half-made build is never
  // reused, and two runs at once do not build into the same directory. Not under node_modules:
  // the build tools treat every file there as a package's, not as the site's source.
  const work = mkdtempSync(path.join(os.tmpdir(), `quorvant-previous-release-${sha.slice(0, 7)}-`));
  try {
    const archive = spawnSync("git", ["archive", "--format=tar", sha], { cwd: ROOT, maxBuffer: 1 << 30 });
    if (archive.status !== 0) throw new Error(`git archive ${sha} failed: ${archive.stderr}`);
    execFileSync("tar", ["-x", "-C", work], { input: archive.stdout });
    // The release's own package-lock may differ a little; the packages installed here serve both.
    symlinkSync(realpathSync(path.join(ROOT, "node_modules")), path.join(work, "node_modules"));
    const build = spawnSync("npm", ["run", "build"], {
      cwd: work,
      env: { ...process.env, BUILD_DIR: "build" },
      encoding: "utf8",
      maxBuffer: 1 << 28,
    });
    if (build.status !== 0) {
      throw new Error(`building the previous release ${sha} failed:\n${build.stdout}\n${build.stderr}`);
    }
    moveIntoCache(work, target);
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    throw error;
  }
  log(`previous release ${sha.slice(0, 7)}: built in ${((Date.now() - began) / 1000).toFixed(1)} s (${target})`);
  return target;
}

function moveIntoCache(work, target) {
  try {
    renameSync(work, target);
    return;
  } catch (error) {
    // Another run finished the same build first: keep that one.
    if (existsSync(path.join(target, "build/server/index.js"))) return void rmSync(work, { recursive: true, force: true });
    if (error.code !== "EXDEV") throw error;
  }
  // The temporary directory is on another file system: copy, then rename on this one.
  const copy = `${target}.copying-${process.pid}`;
  cpSync(work, copy, { recursive: true, verbatimSymlinks: true });
  rmSync(work, { recursive: true, force: true });
  try {
    renameSync(copy, target);
  } catch (error) {
    rmSync(copy, { recursive: true, force: true });
    if (!existsSync(path.join(target, "build/server/index.js"))) throw error;
  }
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    console.log(buildPreviousRelease());
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
