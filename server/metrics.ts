import { createServer, type Server } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import type { RequestHandler } from "express";
import { getDb, getPgPool } from "~/db/index.server";
import { jobLastRunAt } from "~/db/job-leases.server";
import type { Env } from "~/env.server";
import { pendingCdnPurges } from "~/features/cdn/purges.server";
import { deliveryCounts } from "~/features/leads/db/deliveries.server";
import { RETENTION_JOB_NAME } from "~/features/leads/retention-job.server";
import { postedAtOf, serverLeadSpool } from "~/features/leads/spool.server";
import { logger } from "~/platform/logger.server";
import {
  collectProcessMetrics,
  httpDuration,
  httpRequests,
  measure,
  methodLabel,
  registry,
  statusClass,
} from "~/platform/metrics.server";

// The metrics listener: Prometheus's text format at /metrics on METRICS_HOST:METRICS_PORT, a port
// of its own that neither the public listener nor the proxy in front ever answers for. Nothing
// else is served here.

/** Starts the listener when METRICS_PORT is set; undefined otherwise. */
export function startMetricsServer(env: Env): Server | undefined {
  if (env.METRICS_PORT === undefined) return undefined;
  collectProcessMetrics();
  measure({
    pool: () => {
      const pool = getPgPool();
      return pool && { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
    },
    deliveries: () => deliveryCounts(getDb()),
    spool: async () => {
      const spool = serverLeadSpool(env);
      const { entries, bytes } = spool.depth();
      // The directory is listed only when something waits in it.
      const oldest = entries > 0 ? (await spool.list())[0] : undefined;
      return { entries, bytes, oldestAt: oldest ? postedAtOf(oldest) : null };
    },
    cdnPurges: () => pendingCdnPurges(getDb()),
    sharedJobs: async () => {
      const lastRunAt = await jobLastRunAt(getDb(), RETENTION_JOB_NAME);
      return lastRunAt ? [{ job: RETENTION_JOB_NAME, lastRunAt }] : [];
    },
  });
  const server = createServer(answerScrape);
  server.listen(env.METRICS_PORT, env.METRICS_HOST);
  server.on("error", (error: NodeJS.ErrnoException) => {
    process.stderr.write(
      `Cannot listen for metrics on ${env.METRICS_HOST}:${env.METRICS_PORT}: ${error.code ?? error.message}. Set METRICS_PORT to a free port.\n`,
    );
    process.exit(1);
  });
  server.on("listening", () => logger.info({ port: env.METRICS_PORT, host: env.METRICS_HOST }, "metrics listening"));
  return server;
}

function answerScrape(req: IncomingMessage, res: ServerResponse): void {
  const path = (req.url ?? "").split("?")[0];
  if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
    res.writeHead(404, { "Content-Type": "text/plain" }).end("Not found: metrics are at /metrics.\n");
    return;
  }
  registry.metrics().then(
    (text) => {
      res.writeHead(200, { "Content-Type": registry.contentType, "Cache-Control": "no-store" });
      res.end(req.method === "HEAD" ? undefined : text);
    },
    (error: unknown) => {
      logger.error({ err: error }, "collecting metrics failed");
      res.writeHead(500, { "Content-Type": "text/plain" }).end("Collecting metrics failed.\n");
    },
  );
}

/**
 * Counts every request Express answers, by its route: a fixed name for assets, uploaded images and
 * the health check (a route of its own, named apart so that latency alerts can leave it out), else
 * the router's (res.locals.route, see ./react-router) or a static file's (`markStaticFile`), else
 * "unrouted".
 */
export const measureRequests: RequestHandler = (req, res, next) => {
  const started = performance.now();
  res.once("finish", () => {
    const route = fixedRoute(req.originalUrl) ?? (typeof res.locals.route === "string" ? res.locals.route : "unrouted");
    httpRequests.labels(route, methodLabel(req.method), statusClass(res.statusCode)).inc();
    httpDuration.labels(route).observe((performance.now() - started) / 1000);
  });
  next();
};

/** The fixed route names of paths: assets, uploaded images, the health check; undefined for any other. */
function fixedRoute(url: string): string | undefined {
  if (url.startsWith("/assets/")) return "assets";
  if (url.startsWith("/media/")) return "media";
  if (url === "/healthz" || url.startsWith("/healthz?")) return "healthz";
  return undefined;
}

/** express.static's setHeaders: the answer is a file of the public folder. */
export function markStaticFile(res: ServerResponse): void {
  (res as ServerResponse & { locals: Record<string, unknown> }).locals.route = "static";
}

// A cache hit's series, bound once: the hit path increments and observes, nothing else.
const cachedGet = [httpRequests.labels("cached", "GET", "2xx"), httpRequests.labels("cached", "GET", "3xx")] as const;
const cachedHead = [httpRequests.labels("cached", "HEAD", "2xx"), httpRequests.labels("cached", "HEAD", "3xx")] as const;
const cachedDuration = httpDuration.labels("cached");

/** A page cache hit answered before Express: status 200 or 304, `started` from performance.now(). */
export function measureCacheHit(method: string | undefined, status: number, started: number): void {
  (method === "HEAD" ? cachedHead : cachedGet)[status === 304 ? 1 : 0].inc();
  cachedDuration.observe((performance.now() - started) / 1000);
}

/** The app's queues and cache, read on a scrape. */
export function measureApp(parts: {
  shedder: { waiting: () => number; rendering: () => number };
  pages: { held: () => { entries: number; bytes: number } };
}): void {
  measure({
    renderQueue: () => ({ waiting: parts.shedder.waiting(), rendering: parts.shedder.rendering() }),
    pageCache: parts.pages.held,
  });
}
