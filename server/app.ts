import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type ErrorRequestHandler, type RequestHandler } from "express";
import expressStaticGzip from "express-static-gzip";
import { pinoHttp } from "pino-http";
import "~/lib/request-context";
import { closeDatabase, initDatabase } from "~/lib/db/index.server";
import { loadEnv, ConfigError, type Env } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { pageCache } from "./page-cache";
import { assignNonce, rejectCrossSitePosts, securityHeaders } from "./security";

/** DESIGN.md §6: no request body may exceed 64 KiB. Actions enforce it for chunked bodies too. */
export const MAX_BODY_BYTES = 64 * 1024;

const CLIENT_DIR = path.resolve(process.env.BUILD_DIR ?? "build", "client");

/** A malformed URL (bad percent-encoding) is answered 400 before any route sees it. */
const rejectMalformedUrls: RequestHandler = (req, res, next) => {
  try {
    decodeURIComponent(req.path);
    next();
  } catch {
    res.status(400).set("Cache-Control", "no-store").type("text/plain").send("Bad request: the URL is not validly encoded.");
  }
};

const limitBodySize: RequestHandler = (req, res, next) => {
  const declared = Number(req.get("content-length") ?? 0);
  if (declared > MAX_BODY_BYTES) {
    res.status(413).set("Cache-Control", "no-store").set("Connection", "close").type("text/plain")
      .send("Payload too large: submissions are limited to 64 KiB.");
    return;
  }
  next();
};

const lastResort: ErrorRequestHandler = (error, req, res, _next) => {
  logger.error({ requestId: res.locals.requestId, url: req.originalUrl, err: error }, "unhandled server error");
  if (res.headersSent) return res.end();
  res.status(500).set("Cache-Control", "no-store").type("text/plain").send("Unexpected Application Error!");
};

export function createApp(env: Env) {
  const app = express();
  app.disable("x-powered-by");
  if (env.TRUST_PROXY) app.set("trust proxy", /^\d+$/.test(env.TRUST_PROXY) ? Number(env.TRUST_PROXY) : env.TRUST_PROXY === "true");

  app.use(
    pinoHttp({
      logger,
      genReqId: (_req, res) => {
        const id = randomUUID();
        res.setHeader("X-Request-Id", id);
        return id;
      },
      customAttributeKeys: { reqId: "requestId" },
      quietReqLogger: true,
      serializers: { req: (req) => ({ method: req.method, url: req.url }), res: (res) => ({ statusCode: res.statusCode }) },
    }),
  );
  app.use((req, res, next) => {
    res.locals.requestId = String(req.id);
    next();
  });
  app.use(assignNonce, securityHeaders(), rejectMalformedUrls);
  app.use(compression());
  // Before the static file handlers: a cached page is answered without touching the disk.
  app.use(pageCache());

  // Fingerprinted assets never change: cache them for a year; serve the precompressed brotli copy.
  app.use(
    "/assets",
    expressStaticGzip(path.join(CLIENT_DIR, "assets"), {
      enableBrotli: true,
      orderPreference: ["br", "gz"],
      serveStatic: { immutable: true, maxAge: "1y", fallthrough: false },
    }),
  );
  app.use(express.static(CLIENT_DIR, { maxAge: "1h", index: false }));

  app.use(limitBodySize, rejectCrossSitePosts);
  app.use(
    createRequestHandler({
      build: () => import("virtual:react-router/server-build"),
      getLoadContext: (req, res) => ({
        requestId: String(res.locals.requestId),
        cspNonce: String(res.locals.cspNonce),
        clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown",
      }),
    }),
  );
  app.use(lastResort);
  return app;
}

/** Boots the production server: configuration, database, HTTP, and a graceful SIGTERM. */
export async function startServer() {
  let env: Env;
  try {
    env = loadEnv();
  } catch (error) {
    if (error instanceof ConfigError) return fail(error.message);
    throw error;
  }

  // The database is ready (migrated, seeded) before the first request can arrive.
  try {
    await initDatabase(env);
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }

  const app = createApp(env);
  const server: Server = app.listen(env.PORT, env.HOST);
  server.on("error", (error: NodeJS.ErrnoException) => fail(`Cannot listen on ${env.HOST}:${env.PORT}: ${error.code ?? error.message}. Set PORT to a free port.`));
  server.on("listening", () => logger.info({ port: env.PORT, siteUrl: env.SITE_URL }, "server listening"));
  server.keepAliveTimeout = 5_000;

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
    server.close(async () => {
      logger.info("server stopped");
      // Only after the last request finished: close the pool / checkpoint and close the SQLite file.
      try {
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

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}
