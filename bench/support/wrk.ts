import { spawn, spawnSync } from "node:child_process";

/**
 * Debian's `wrk` (`apt-get install -y wrk`), or "" when it is not installed. Written in C, it
 * saturates nginx and our server on this 2-core machine with little CPU of its own, where a Node
 * client (autocannon, the fallback) is itself the bottleneck and competes with the server it
 * measures.
 */
export const WRK = spawnSync("sh", ["-c", "command -v wrk"]).stdout.toString().trim();

export type WrkResult = {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  /** Socket errors and timeouts. */
  errors: number;
  /** Answers other than 2xx and 3xx. */
  non2xx: number;
  /** What a `done()` in the Lua script printed, if any. */
  scriptOutput: string;
};

/** One wrk run: `connections` over 2 threads for `seconds`, with an optional Lua script. */
export async function runWrk(
  url: string,
  {
    connections,
    seconds,
    headers = {},
    script,
  }: { connections: number; seconds: number; headers?: Record<string, string>; script?: string },
): Promise<WrkResult> {
  const args = ["-t2", `-c${connections}`, `-d${seconds}s`, "--latency"];
  for (const [name, value] of Object.entries(headers)) args.push("-H", `${name}: ${value}`);
  if (script) args.push("-s", script);
  const child = spawn(WRK, [...args, url]);
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(output)?.[1];
  const requests = /(\d+) requests in/.exec(output)?.[1];
  if (code !== 0 || !rps || !requests) throw new Error(`wrk failed on ${url}:\n${output}`);
  const ms = (percent: string) => {
    const match = new RegExp(`^\\s+${percent}%\\s+([\\d.]+)(us|ms|s)`, "m").exec(output);
    return match ? Number(match[1]) * { us: 0.001, ms: 1, s: 1000 }[match[2] as "us" | "ms" | "s"] : NaN;
  };
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  return {
    requests: Number(requests),
    rps: Number(rps),
    p50: ms("50"),
    p99: ms("99"),
    errors: socketErrors ? socketErrors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0),
    scriptOutput: output.slice(output.indexOf("Transfer/sec:")).split("\n").slice(1).join("\n").trim(),
  };
}
