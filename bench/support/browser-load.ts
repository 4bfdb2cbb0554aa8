import autocannon from "autocannon";
import { runWrk, WRK } from "./wrk";

// Load as browsers make it, for the page benchmarks: wrk when installed, else autocannon.

/** What a browser sends: every cache hit is answered with its prepared brotli body. */
export const ACCEPT_ENCODING = "gzip, deflate, br";
/** A browser's user agent: the visit counter skips requests without one (and crawlers). */
export const USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";

export type Figures = { requests: number; rps: number; p50: number; p99: number; errors: number };

/** The load generator's name, for a run's settings line. */
export const LOAD_TOOL = WRK ? "wrk (2 threads)" : "autocannon (wrk not installed)";

/** `seconds` of GETs of `url` over `connections` (autocannon flatters a ratio against nginx: see ./wrk.ts). */
export async function browserLoad(
  url: string,
  { connections, seconds }: { connections: number; seconds: number },
): Promise<Figures> {
  const headers = { "accept-encoding": ACCEPT_ENCODING, "user-agent": USER_AGENT };
  if (WRK) {
    const result = await runWrk(url, { connections, seconds, headers });
    return {
      requests: result.requests,
      rps: result.rps,
      p50: result.p50,
      p99: result.p99,
      errors: result.errors + result.non2xx,
    };
  }
  const result = await autocannon({ url, connections, duration: seconds, headers });
  return {
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}
