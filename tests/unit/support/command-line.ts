import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/** An operator's command (`scripts/<script>`) run as `npm run` runs it, with its exit code and both outputs. */
export function runScript(
  script: string,
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(process.execPath, ["--import", "tsx", `scripts/${script}`, ...args], { env: { ...process.env, ...env } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );
}
