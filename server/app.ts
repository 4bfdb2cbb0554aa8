import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import path from "node:path";
import compression from "compression";
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from "express";
import expressStaticGzip from "express-static-gzip";
import onHeaders from "on-headers";
import type { ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { clientAddress } from "~/platform/request-context";
import { isDatabaseUnreachable } from "~/db/connection.server";
import { closeDatabase, getDb, initDatabase } from "~/db/index.server";
import { loadEnv, ConfigError, type Env } from "~/env.server";
import { hasCatalog } from "~/features/i18n/messages.server";
import { loadImageManifest } from "~/features/media/image-manifest.server";
import { seedSampleContent } from "~/features/content/db/content-import.server";
import { startJobs, stopJobs } from "~/jobs.server";
import { serverLeadSpool } from "~/features/leads/spool.server";
import { logSafeUrl } from "~/platform/log-safe-url";
import { isDraining, startDraining } from "~/platform/draining.server";
import { logger } from "~/platform/logger.server";
import { pageViews } from "~/features/visits/page-view-counter.server";
import { backOfficeHeaders } from "./back-office";
import { canonicalPath, hasDotSegments } from "~/platform/canonical-path";
import { limitBodySize, limitFormPosts } from "./form-posts";
import { HEALTH_CHECK_PATH, loadShedder } from "./load-shedding";
import { sendRefusal, type Refusal } from "./refusal-page";
import { requestLogger } from "./request-log";
import { mediaFiles } from "./media";
import { setContentChangeListener } from "~/features/content/publish-hook.server";
import { createPageCache, type PageCache } from "./page-cache";
import { sharedCacheControl } from "~/features/cdn/shared-cache.server";
import { tagForSharedCache } from "./surrogate-keys";
import { turnQueue } from "./turn-queue";
import { markStaticFile, measureApp, measureCacheHit, measureRequests, startMetricsServer } from "./metrics";
import { measure, refusedRequests } from "~/platform/metrics.server";
import { allowedMethods, reactRouterHandler } from "./react-router";
import { pageViewOf } from "./visit-counting";
import { assignNonce, rejectCrossSitePosts, securityHeaders, strictTransportSecurity } from "./security";

const BUILD_DIR = path.resolve(process.env.BUILD_DIR ?? "build");

const busyRefusal: Refusal = {
  status: 503,
  title: "We are busy right now",
  message: "The site has more visitors than it can serve this moment. Please try again in a few seconds.",
  retryAfterSeconds: 3,
};
const CLIENT_DIR = path.join(BUILD_DIR, "client");

/** A malformed URL (bad percent-encoding) is answered 400 before any route sees it. */
const rejectMalformedUrls: RequestHandler = (req, res, next) => {
  try {
    decodeURIComponent(req.path);
    next();
  } catch {
    res.status(400).set("Cache-Control", "no-store").type("text/plain").send("Bad request: the URL is not validly encoded.");
  }
};

/** Error answers are about one request at one moment: no cache, shared or private, keeps them. */
const errorsAreNotStored: RequestHandler = (_req, res, next) => {
  onHeaders(res, () => {
    if (res.statusCode >= 400) res.setHeader("Cache-Control", "no-store");
  });
  next();
};

/**
 * One URL per page: any other spelling of a path answers a permanent redirect to it, query kept;
 * a path with dot segments (which no browser sends) is refused. Either way the route never runs,
 * so no page renders under a second address.
 */
const redirectToCanonicalPath: RequestHandler = (req, res, next) => {
  const queryStart = req.originalUrl.indexOf("?");
  const pathname = queryStart === -1 ? req.originalUrl : req.originalUrl.slice(0, queryStart);
  if (hasDotSegments(pathname)) {
    return void res.status(404).set("Cache-Control", "no-store").type("text/plain").send("Not found.");
  }
  const canonical = canonicalPath(pathname);
  if (canonical === pathname) return next();
  res.redirect(308, canonical + (queryStart === -1 ? "" : req.originalUrl.slice(queryStart)));
};

/**
 * Pages answer GET and HEAD, and POST where they have a form; anything else is 405 with Allow,
 * a small page that costs no render (a flood of posts to pages without a form must not cost a
 * page each). The body of a refused post is not read.
 */
function onlyAllowedMethods(build: () => Promise<ServerBuild>): RequestHandler {
  return async (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD") return next();
    try {
      const allowed = await allowedMethods(await build(), req.path);
      if (allowed.includes(req.method)) return next();
      res.set("Allow", allowed.join(", "));
      if (req.method === "OPTIONS") return res.status(204).end();
      sendRefusal(req, res, {
        status: 405,
        title: "Nothing to send here",
        message: `This page does not take ${req.method} requests.`,
        headers: { Connection: "close" },
      });
    } catch (error) {
      next(error);
    }
  };
}

/** Under /assets only fingerprinted build files exist: anything else is a plain 404. */
const assetNotFound: RequestHandler = (_req, res) => {
  res.status(404).set("Cache-Control", "no-store").type("text/plain").send("Not found.");
};

const lastResort: ErrorRequestHandler = (error, req, res, _next) => {
  // A client error raised by a library (a malformed request) is the client's, not ours.
  const status = Number((error as { status?: unknown })?.status);
  if (status >= 400 && status < 500) {
    logger.info({ requestId: res.locals.requestId, url: logSafeUrl(req.originalUrl), status }, "client error");
    if (res.headersSent) return res.end();
    return res.status(status).set("Cache-Control", "no-store").type("text/plain").send("Bad request.");
  }
  logger.error({ requestId: res.locals.requestId, url: logSafeUrl(req.originalUrl), err: error }, "unhandled server error");
  if (res.headersSent) return res.end();
  res.status(500).set("Cache-Control", "no-store").type("text/plain").send("Unexpected Application Error!");
};

/**
 * Express's `req.secure` for a request Express has not seen: TLS on the socket, or
 * X-Forwarded-Proto (its first value) when the peer is a trusted proxy.
 */
function arrivedOverHttps(req: IncomingMessage, trustProxy: (address: string, hop: number) => boolean): boolean {
  const encrypted = (req.socket as TLSSocket).encrypted === true;
  if (!trustProxy(req.socket.remoteAddress ?? "", 0)) return encrypted;
  const forwarded = req.headers["x-forwarded-proto"];
  const proto = (Array.isArray(forwarded) ? forwarded[0] : forwarded) || (encrypted ? "https" : "http");
  const comma = proto.indexOf(",");
  return (comma === -1 ? proto : proto.slice(0, comma)).trim() === "https";
}

/** The most time per turn of the event loop that requests waiting for the app may start in. */
const APP_SLICE_MS = 4;

/**
 * Cache hits are answered before Express sees the request: a hit needs none of its middleware
 * (the page's headers, security headers included, were prepared when it was stored; a cached URL
 * is already canonical and well-formed; GET and HEAD are always allowed; load shedding never
 * sheds a hit), only its per-request headers and its log line, which has the fields of the
 * request logger's (method, url, status, responseTime, requestId). Everything else goes to
 * the app, in turn (./turn-queue): a flood of requests that cost more than a hit (redirects,
 * refusals, renders) then delays hits and health checks by one slice, not by the whole flood.
 */
function answerCacheHitsFirst(
  app: Express,
  pages: PageCache,
  hstsHeader: string | undefined,
  countView: ViewCounting | undefined,
): RequestListener {
  const trustProxy = app.get("trust proxy fn") as (address: string, hop: number) => boolean;
  const inTurn = turnQueue(APP_SLICE_MS);
  measure({ turnQueue: inTurn.depth });
  return (req, res) => {
    const page = pages.lookup(req);
    if (!page) {
      // A health check is answered at once: a flood must not make a healthy server look dead.
      if (req.url === HEALTH_CHECK_PATH) return void app(req, res);
      return inTurn(() => app(req, res));
    }
    const started = Date.now();
    const measured = performance.now();
    const requestId = randomUUID();
    let status: number;
    try {
      status = pages.serveHit(req, res, page, {
        requestId,
        secure: arrivedOverHttps(req, trustProxy),
        strictTransportSecurity: hstsHeader,
      });
    } catch (error) {
      logger.error({ requestId, url: logSafeUrl(req.url ?? ""), err: error }, "serving a cached page failed");
      if (!res.headersSent) return void app(req, res);
      return void res.destroy();
    }
    measureCacheHit(req.method, status, measured);
    countView?.(req, status, page.headers["content-type"] ?? "");
    // A cached page's address carries no credential (previews and the back office are never
    // stored), but its campaign parameters may hold whatever a link put in them.
    logger.info(
      {
        requestId,
        req: { method: req.method, url: logSafeUrl(req.url ?? "") },
        res: { statusCode: status },
        responseTime: Date.now() - started,
      },
      "request completed",
    );
  };
}

/** Counts a finished answer as a page view when it is one (see ./visit-counting). */
type ViewCounting = (req: IncomingMessage, status: number, contentType: string) => void;

/** Express takes a hop count as a number and a list of addresses as a string. */
function trustProxySetting(value: string): number | string {
  return /^\d+$/.test(value) ? Number(value) : value;
}

/**
 * The whole site as one Express app. In development `vite` (in middleware mode) serves the
 * source modules with hot reload and compiles routes on demand; everything else (headers, limits,
 * logging, the page cache, the database) is the same as in production.
 */
export function createApp(env: Env, vite?: ViteDevServer): RequestListener {
  const app = express();
  // Not in development, where compiling on demand keeps the event loop busy by design. The page
  // cache asks whether the server is overloaded; a request the shedder does not render gets the
  // last good copy of its page when there is one.
  const shedder = loadShedder({
    targetMs: vite ? 0 : env.LOAD_SHED_DELAY_MS,
    intervalMs: env.LOAD_SHED_INTERVAL_MS,
    rendersAtOnce: env.LOAD_SHED_RENDERS,
    refuse: (req, res) => {
      if (pages.serveStale(req, res)) refusedRequests.labels("overloaded-stale").inc();
      else sendRefusal(req, res, busyRefusal);
    },
  });
  const pages = createPageCache({ busy: shedder.overloaded, sharedCacheControl: sharedCacheControl(env) });
  measureApp({ shedder, pages });
  // Content published on this server shows at once here: the publish hook names what changed.
  setContentChangeListener((change) => pages.forget(change.paths));
  const siteUrl = new URL(env.SITE_URL);
  const hstsHeader = strictTransportSecurity(env.HSTS);
  const build = vite
    ? () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>
    : () => import("virtual:react-router/server-build") as Promise<ServerBuild>;
  app.disable("x-powered-by");
  app.disable("etag"); // the page cache sets strong ETags on what it can vouch for
  // req.ip then names the address the trusted proxies forwarded; it is read only through
  // clientAddress, which keeps an IP address and nothing else.
  if (env.TRUST_PROXY) app.set("trust proxy", trustProxySetting(env.TRUST_PROXY));

  app.use(measureRequests);
  app.use(requestLogger(logger));
  app.use((req, res, next) => {
    res.locals.requestId = String(req.id);
    next();
  });
  const countView: ViewCounting | undefined = env.VISIT_COUNTING
    ? (req, status, contentType) => {
        const key = pageViewOf(req, status, contentType, siteUrl.host);
        if (key) pageViews.record(key);
      }
    : undefined;
  if (countView) {
    // Mounted middleware rewrites req.url on the way; the view is the address the browser asked for.
    app.use((req, res, next) => {
      res.once("finish", () =>
        countView(
          { method: req.method, url: req.originalUrl, headers: req.headers } as IncomingMessage,
          res.statusCode,
          String(res.getHeader("content-type") ?? ""),
        ),
      );
      next();
    });
  }
  app.use(
    assignNonce,
    securityHeaders(hstsHeader),
    rejectMalformedUrls,
    errorsAreNotStored,
    backOfficeHeaders(env.OIDC_ISSUER),
    redirectToCanonicalPath,
  );
  if (vite) app.use(vite.middlewares);
  app.use(onlyAllowedMethods(build));
  // A response with an ETag comes precompressed from the page cache; recompressing would change it.
  app.use(compression({ filter: (req, res) => !res.hasHeader("ETag") && compression.filter(req, res) }));
  // Misses render below and are stored here (hits never get this far: see answerCacheHitsFirst);
  // a request for a page being rendered waits for that render.
  app.use(pages.middleware);

  // Uploaded images: made from the database on first request, then files on this server's disk.
  // Ahead of the static folder, which would otherwise look each one up on disk first.
  app.use("/media", mediaFiles(env.MEDIA_CACHE_DIR, env.CDN_PURGE_STYLE));
  if (!vite) {
    // Fingerprinted assets never change: cache them for a year; serve the precompressed brotli copy.
    app.use(
      "/assets",
      expressStaticGzip(path.join(CLIENT_DIR, "assets"), {
        enableBrotli: true,
        orderPreference: ["br", "gz"],
        serveStatic: { immutable: true, maxAge: "1y" },
      }),
      assetNotFound,
    );
    // No directory redirect: `/images` would be sent to `/images/`, which the canonical-path
    // redirect sends back to `/images`, for ever. A directory is no page: it falls through to 404.
    app.use(express.static(CLIENT_DIR, { maxAge: "1h", index: false, redirect: false, setHeaders: markStaticFile }));
  }

  // Only uncached work reaches this point: shed it first when the server is overloaded.
  app.use(shedder.middleware);
  app.use(limitBodySize, rejectCrossSitePosts(siteUrl), limitFormPosts);
  app.use(
    reactRouterHandler({
      build,
      reloads: vite !== undefined,
      siteUrl,
      getLoadContext: (req, res) => ({
        requestId: String(res.locals.requestId),
        cspNonce: String(res.locals.cspNonce),
        clientIp: clientAddress(req),
        documentRequest: !req.path.endsWith(".data"),
        formLimit: res.locals.formLimit,
        documentHtml: new Map(),
        surrogateKeys: new Set(),
      }),
      // A CDN in front learns what each cacheable answer shows (~/features/cdn).
      beforeSend: (req, res, context) => tagForSharedCache(req, res, context, env.CDN_PURGE_STYLE),
    }),
  );
  app.use(lastResort);
  return answerCacheHitsFirst(app, pages, hstsHeader, countView);
}

/** Boots the server: configuration, database, HTTP, and a graceful SIGTERM. `vite` in development only. */
export async function startServer({ vite }: { vite?: ViteDevServer } = {}) {
  let env: Env;
  try {
    env = loadEnv();
  } catch (error) {
    if (error instanceof ConfigError) return fail(error.message);
    throw error;
  }
  // A language the site is configured for answers visitors from its own catalog, never in silence in English.
  const uncatalogued = env.SITE_LOCALES.filter(({ tag }) => !hasCatalog(tag)).map(({ tag }) => tag);
  if (uncatalogued.length)
    return fail(
      `Invalid configuration: SITE_LOCALES names ${uncatalogued.join(", ")}, which has no message catalog (app/features/i18n/catalogs/<tag>.json)`,
    );

  // The database is ready (migrated, seeded) before the first request can arrive.
  try {
    await initDatabaseKeepingSpooledLeads(env);
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }

  // Post images with variants made by the build are drawn as <picture>; development has none.
  if (!vite) loadImageManifest(path.join(BUILD_DIR, "image-manifest.json"));

  // Background work beside the pages (lead delivery, retention, the lead spool's replay): see ~/jobs.server.
  startJobs({ env, getDb });

  const app = createApp(env, vite);
  // Answers under way, for the shutdown below: each must close its connection when it is done.
  const answering = new Set<ServerResponse>();
  const server: Server = createServer(
    {
      headersTimeout: env.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeout: env.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeout: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      // Node looks for expired requests on this interval: check often so a slow client is cut
      // close to the limit, not up to 30 s after it.
      connectionsCheckingInterval: 1_000,
    },
    (req, res) => {
      if (isDraining()) res.setHeader("Connection", "close");
      else {
        answering.add(res);
        res.once("close", () => answering.delete(res));
      }
      app(req, res);
    },
  );
  server.maxConnections = env.HTTP_MAX_CONNECTIONS;
  server.listen(env.PORT, env.HOST);
  server.on("error", (error: NodeJS.ErrnoException) =>
    fail(`Cannot listen on ${env.HOST}:${env.PORT}: ${error.code ?? error.message}. Set PORT to a free port.`),
  );
  server.on("listening", () => logger.info({ port: env.PORT, siteUrl: env.SITE_URL }, "server listening"));
  // Prometheus's own listener (METRICS_PORT), never the public one; closed with it.
  const metricsServer = startMetricsServer(env);

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down: finishing in-flight requests");
    const force = setTimeout(() => {
      logger.warn("shutdown timed out after 10 s; exiting");
      process.exit(1);
    }, 10_000);
    force.unref();
    // Draining: /healthz answers 503 from now on. A proxy keeps idle connections to the app open
    // and may send its next request on one at any moment, and server.close() leaves a connection
    // that is busy now open after its answer (until the keep-alive timeout). So every answer from
    // now on says "Connection: close", and one whose headers are already sent has its connection
    // closed as soon as it is done: no request is cut, none waits on a closed connection.
    startDraining();
    for (const res of answering) {
      if (!res.headersSent) res.setHeader("Connection", "close");
      else res.once("finish", () => setImmediate(() => server.closeIdleConnections()));
    }
    // Jobs stop taking work at once; what they have in flight finishes or is handed back.
    const jobsStopped = stopJobs();
    metricsServer?.close();
    server.close(async () => {
      logger.info("server stopped");
      await jobsStopped;
      // Only after the last request finished: close the pool / checkpoint and close the SQLite file.
      try {
        await vite?.close();
        await closeDatabase();
        logger.info("database closed");
      } catch (error) {
        logger.error({ err: error }, "closing the database failed");
        process.exit(1);
      }
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.once("SIGTERM", () => shutdown("SIGTERM"));
  process.once("SIGINT", () => shutdown("SIGINT"));
  return server;
}

/** While a server whose spool holds leads waits for an unreachable database at start. */
const DATABASE_RETRY_MS = 2_000;

/**
 * initDatabase, except that a server whose lead spool holds leads does not give up on an
 * unreachable database: it waits for it (the leads are on this server's disk, and only this server
 * replays them), logging how many wait. With an empty spool an unreachable database stops the
 * start at once, as a wrong host or port should (docs/decisions/014-lead-spool.md).
 */
async function initDatabaseKeepingSpooledLeads(env: Env): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await initDatabase(env, seedSampleContent);
    } catch (error) {
      const waiting = isDatabaseUnreachable(error) ? spooledLeads(env) : 0;
      if (waiting === 0) throw error;
      if (attempt === 1 || attempt % 15 === 0) {
        logger.warn(
          { spool: { entries: waiting }, retryMs: DATABASE_RETRY_MS },
          "database unreachable at start; kept leads wait in the lead spool, trying again",
        );
      }
      await new Promise((resolve) => setTimeout(resolve, DATABASE_RETRY_MS));
    }
  }
}

function spooledLeads(env: Env): number {
  try {
    return serverLeadSpool(env).depth().entries;
  } catch (error) {
    logger.error({ code: (error as { code?: unknown }).code }, "the lead spool directory cannot be used");
    return 0;
  }
}

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}
