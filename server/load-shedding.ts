import { monitorEventLoopDelay } from "node:perf_hooks";
import type { Request, RequestHandler } from "express";
import { watchEventLoop } from "~/lib/event-loop.server";

/** The delay monitor's timer period: what exceeds it is time the loop spent busy. */
const RESOLUTION_MS = 10;
/**
 * Busier than this share of the last sample counts as overloaded whatever the delay. Node works
 * on one request at a time: many short renders (a few milliseconds each) never hold the loop for
 * long, so the delay stays low, yet they leave it no idle moment, and every new request, a health
 * check included, waits in the socket queue behind all of them.
 */
const MAX_UTILIZATION = 0.9;
/**
 * While overloaded, this many renders of pages the cache does not know still go ahead per sample,
 * so a server that starts cold under load fills its cache instead of shedding for ever.
 */
const RENDERS_PER_SAMPLE_WHILE_OVERLOADED = 1;

/**
 * A post's social card (og:image) is never shed: a crawler that gets a 503 shows the post without
 * a picture. Cards have their own budget instead (one render at a time: og-card/cards.server.ts).
 */
const SOCIAL_CARD = /^\/resources\/blog\/[^/]+\/og\.png$/;

export type LoadShedder = {
  /** Whether the event loop was overloaded over the last sample. */
  overloaded: () => boolean;
  middleware: RequestHandler;
};

type Options = {
  /** Overloaded when the event loop's delay (p99 over a sample) exceeds this; 0 turns shedding off. */
  maxDelayMs: number;
  sampleMs?: number;
  /**
   * Requests never shed: the refresh of a page the cache holds (so a page in demand never expires
   * into 503s), besides health checks, form posts (a lead is worth a slow answer) and social cards.
   */
  exempt?: (req: Request) => boolean;
};

/**
 * When the event loop is overloaded (busy more than MAX_UTILIZATION of the last sample, or its
 * delay above `maxDelayMs`), new uncached renders are answered 503 with Retry-After at once
 * instead of queueing behind the others. Mounted after the page cache and the static files, so
 * cached pages and assets keep being served.
 */
export function loadShedder({ maxDelayMs, sampleMs = 100, exempt = () => false }: Options): LoadShedder {
  if (maxDelayMs <= 0) return { overloaded: () => false, middleware: (_req, _res, next) => next() };
  // Node's own event-loop delay histogram (perf_hooks): a timer every RESOLUTION_MS records when it
  // actually ran, so what exceeds RESOLUTION_MS is time the loop spent busy.
  const delay = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  delay.enable();
  let overloaded = false;
  let rendersLeft = RENDERS_PER_SAMPLE_WHILE_OVERLOADED;
  watchEventLoop(sampleMs, (utilization) => {
    overloaded = utilization > MAX_UTILIZATION || delay.percentile(99) / 1e6 - RESOLUTION_MS > maxDelayMs;
    rendersLeft = RENDERS_PER_SAMPLE_WHILE_OVERLOADED;
    delay.reset();
  });

  const middleware: RequestHandler = (req, res, next) => {
    if (!overloaded || req.method === "POST" || req.path === "/healthz" || SOCIAL_CARD.test(req.path) || exempt(req))
      return next();
    if (rendersLeft > 0) {
      rendersLeft -= 1;
      return next();
    }
    res.status(503).set("Retry-After", "1").set("Cache-Control", "no-store").type("text/plain");
    res.send("The site is busy right now: please try again in a moment.");
  };
  return { overloaded: () => overloaded, middleware };
}
