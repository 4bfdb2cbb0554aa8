import { monitorEventLoopDelay } from "node:perf_hooks";
import type { RequestHandler } from "express";

/** The delay monitor's timer period: what exceeds it is time the loop spent busy. */
const RESOLUTION_MS = 10;
/** Shedding starts only once this many uncached requests are already being worked on. */
const MIN_RENDERS_IN_PROGRESS = 4;

export type LoadShedder = {
  /** Whether the event loop was overloaded over the last sample. */
  overloaded: () => boolean;
  middleware: RequestHandler;
};

/**
 * When the event loop is overloaded (its delay over the last sample above `maxDelayMs`), new
 * uncached renders are answered 503 with Retry-After at once instead of queueing behind the
 * others. Mounted after the page cache and the static files, so cached pages and assets keep
 * being served; health checks and form posts (a lead is worth a slow answer) are never shed.
 */
export function loadShedder({ maxDelayMs, sampleMs = 100 }: { maxDelayMs: number; sampleMs?: number }): LoadShedder {
  if (maxDelayMs <= 0) return { overloaded: () => false, middleware: (_req, _res, next) => next() };
  // Node's own event-loop delay histogram (perf_hooks): a timer every RESOLUTION_MS records when it
  // actually ran, so what exceeds RESOLUTION_MS is time the loop spent busy.
  const delay = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  delay.enable();
  let overloaded = false;
  setInterval(() => {
    overloaded = delay.percentile(99) / 1e6 - RESOLUTION_MS > maxDelayMs;
    delay.reset();
  }, sampleMs).unref();

  // Renders this server is working on. A busy loop with hardly any renders in progress is not
  // overload but a cold start (the first renders compile code): those requests are served.
  let inProgress = 0;
  const middleware: RequestHandler = (req, res, next) => {
    if (!overloaded || inProgress < MIN_RENDERS_IN_PROGRESS || req.method === "POST" || req.path === "/healthz") {
      inProgress += 1;
      res.once("close", () => (inProgress -= 1));
      return next();
    }
    res.status(503).set("Retry-After", "1").set("Cache-Control", "no-store").type("text/plain");
    res.send("The site is busy right now: please try again in a moment.");
  };
  return { overloaded: () => overloaded, middleware };
}
