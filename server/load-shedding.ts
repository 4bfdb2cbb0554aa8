import type { Request, RequestHandler, Response } from "express";
import { watchEventLoop } from "~/platform/event-loop.server";
import { renderWait } from "~/platform/metrics.server";

/**
 * A social card (og:image: a post's, a page's) is never shed: a crawler that gets a 503 shows the
 * link without a picture. Cards have their own budget instead (one render at a time:
 * app/features/social-cards/cards.server.ts).
 */
const SOCIAL_CARD = /^\/resources\/blog\/[^/]+\/og\.png$|^\/social-cards\/[^/]+\/[^/]+\.png$/;

/** The health check: answered whatever the load, so a flood never makes a healthy server look dead. */
export const HEALTH_CHECK_PATH = "/healthz";

/** How often waiting requests are checked against the longest wait allowed. */
const SWEEP_MS = 25;

/** How often the event loop's utilisation is sampled. */
const LOOP_SAMPLE_MS = 100;
/** A sample busier than this leaves a new request no turn of its own: it waits behind others. */
const LOOP_BUSY = 0.9;
/**
 * The loop busy at every sample for the interval is saturated (as the line is overloaded when it
 * has not emptied for it: a fresh server's start-up or a burst of renders is shorter); it stays so
 * until it has had idle moments for LOOP_RECOVERY_MS. A flood of cheap requests (cache hits,
 * redirects, refusals) delays every request, health checks included, while the line of renders
 * stays short. A burst is not refused by it: what already waits in line is served.
 */
const LOOP_RECOVERY_MS = 1_000;

export type LoadShedder = {
  /**
   * Sustained overload: renders have waited in line without a break for the interval, or every
   * request has waited for the event loop longer than the target for a second.
   */
  overloaded: () => boolean;
  /** Requests waiting for a render slot now. */
  waiting: () => number;
  /** Renders under way now. */
  rendering: () => number;
  middleware: RequestHandler;
};

type Options = {
  /** Once overloaded, the longest a request may wait for its render to start; 0 turns shedding off. */
  targetMs: number;
  /** How long the queue must stay non-empty to count as overload (and the longest wait before that). */
  intervalMs: number;
  /** Renders under way at once; the others wait their turn. */
  rendersAtOnce: number;
  /** Answers a request that is not rendered: the last good copy of its page when there is one, else a refusal. */
  refuse: (req: Request, res: Response) => void;
};

type Waiting = { res: Response; start: () => void; since: number; giveUp?: () => void };

/**
 * Uncached renders are admitted a few at a time; the rest wait in line, and how long requests
 * wait before their work starts is the measure of load (a CoDel-like rule, as in "Fail at Scale",
 * ACM Queue 2015). A burst only fills the line for a moment, so a server whose line empties now
 * and then is healthy and every request in it is served, however many arrive at once. Only when
 * the line has not been empty for a whole interval is the server overloaded; then a request that
 * has waited longer than the target is answered at once (`refuse`) instead of adding to the
 * backlog, which keeps the wait short for those that follow. Every request also waits for the
 * event loop before any of its work runs: when the loop has had no idle moment for
 * the interval (a flood leaves no turn for anything), newly arriving renders are refused
 * beyond one per sample, so the cache still fills; those already in line keep their place. Health checks, form posts (a lead is worth a slow answer) and social cards never
 * wait; cached pages and assets are answered before this point.
 */
export function loadShedder({ targetMs, intervalMs, rendersAtOnce, refuse }: Options): LoadShedder {
  if (targetMs <= 0)
    return { overloaded: () => false, waiting: () => 0, rendering: () => 0, middleware: (_req, _res, next) => next() };
  const line: Waiting[] = [];
  let rendering = 0;
  let emptySince = performance.now();
  let sweeper: NodeJS.Timeout | undefined;

  // The loop's state from its samples: busy since (undefined: the last sample was not busy), idle since.
  let busySince: number | undefined;
  let idleSince = performance.now();
  let loopSaturated = false;
  let rendersLeftWhileSaturated = 1;
  watchEventLoop(LOOP_SAMPLE_MS, (utilization) => {
    const now = performance.now();
    rendersLeftWhileSaturated = 1;
    if (utilization > LOOP_BUSY) {
      busySince ??= now - LOOP_SAMPLE_MS;
      if (now - busySince >= intervalMs) loopSaturated = true;
    } else {
      if (busySince !== undefined) idleSince = now;
      busySince = undefined;
      if (now - idleSince >= LOOP_RECOVERY_MS) loopSaturated = false;
    }
  });
  const saturated = () => loopSaturated;

  const lineOverloaded = () => line.length > 0 && performance.now() - emptySince > intervalMs;
  const overloaded = () => lineOverloaded() || saturated();
  // Only the line's own overload shortens the wait of those already in it: a burst is served whole.
  const longestWait = () => (lineOverloaded() ? targetMs : intervalMs);

  const release = () => {
    rendering -= 1;
    admitNext();
  };
  const admit = (entry: Waiting) => {
    if (entry.giveUp) entry.res.off("close", entry.giveUp);
    rendering += 1;
    renderWait.observe((performance.now() - entry.since) / 1000);
    entry.res.once("close", release);
    entry.start();
  };
  const leave = (entry: Waiting) => {
    const index = line.indexOf(entry);
    if (index !== -1) line.splice(index, 1);
    if (line.length === 0) settle();
  };
  const settle = () => {
    emptySince = performance.now();
    clearInterval(sweeper);
    sweeper = undefined;
  };
  // The first in line has waited longest: while it has waited too long, it is answered, not rendered.
  const shedOverdue = () => {
    const limit = longestWait();
    const now = performance.now();
    while (line.length > 0 && now - line[0]!.since > limit) {
      const entry = line.shift()!;
      if (entry.giveUp) entry.res.off("close", entry.giveUp);
      if (line.length === 0) settle();
      refuse(entry.res.req, entry.res);
    }
  };
  function admitNext() {
    shedOverdue();
    while (rendering < rendersAtOnce && line.length > 0) {
      const entry = line.shift()!;
      if (line.length === 0) settle();
      admit(entry);
    }
  }

  const middleware: RequestHandler = (req, res, next) => {
    if (req.method === "POST" || req.path === HEALTH_CHECK_PATH || SOCIAL_CARD.test(req.path)) return next();
    const entry: Waiting = { res, start: () => next(), since: performance.now() };
    if (saturated()) {
      if (rendersLeftWhileSaturated === 0) return refuse(req, res);
      rendersLeftWhileSaturated -= 1;
    }
    if (rendering < rendersAtOnce && line.length === 0) return admit(entry);
    line.push(entry);
    // A visitor who gives up waiting leaves the line.
    entry.giveUp = () => leave(entry);
    res.once("close", entry.giveUp);
    sweeper ??= setInterval(shedOverdue, SWEEP_MS);
  };
  return { overloaded, waiting: () => line.length, rendering: () => rendering, middleware };
}
