import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";
import { LRUCache } from "lru-cache";
import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";
import { createRequestHandler, matchRoutes, type AppLoadContext, type RouteObject, type ServerBuild } from "react-router";
import { publicOrigin } from "./public-url";

/**
 * Express → React Router glue. It differs from @react-router/express in what the router is told:
 * the URL the visitor's browser used (SITE_URL behind a TLS-terminating proxy), and GET for a HEAD
 * request, so a HEAD gets exactly the headers of the GET (Node sends no body for HEAD).
 */
export function reactRouterHandler(options: {
  build: () => Promise<ServerBuild>;
  /** Whether the build can change while the server runs (development: Vite reloads it). */
  reloads: boolean;
  siteUrl: URL;
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext;
  /** Called with the answer's headers set, before it is sent (the CDN's surrogate keys are added there). */
  beforeSend?: (req: ExpressRequest, res: ExpressResponse, context: AppLoadContext) => void;
}): RequestHandler {
  // Given a function, React Router derives its route tables from the build again for every request,
  // which costs a render several milliseconds of route ranking; a build that never changes is
  // loaded once and given as it is, so they are derived once.
  let handler: Promise<ReturnType<typeof createRequestHandler>> | undefined;
  /** The build once loaded, for the metrics' route names (none in development, where it reloads). */
  let loaded: ServerBuild | undefined;
  const handle = () =>
    (handler ??= options.reloads
      ? Promise.resolve(createRequestHandler(options.build, process.env.NODE_ENV))
      : options.build().then((build) => createRequestHandler((loaded = build), process.env.NODE_ENV)));
  return async (req, res, next) => {
    try {
      const request = toFetchRequest(req, res, publicOrigin(req, options.siteUrl));
      const context = options.getLoadContext(req, res);
      const response = await (await handle())(request, context);
      if (loaded) res.locals.route = routeLabel(await routeOf(loaded, req.path), response.status);
      await send(res, response, () => options.beforeSend?.(req, res, context));
    } catch (error) {
      next(error);
    }
  };
}

function toFetchRequest(req: ExpressRequest, res: ExpressResponse, origin: string): Request {
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const method = req.method === "HEAD" ? "GET" : req.method;
  const hasBody = method !== "GET";
  return new Request(new URL(req.originalUrl, origin), {
    method,
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: createReadableStreamFromReadable(req), duplex: "half" } : {}),
  } as RequestInit);
}

async function send(res: ExpressResponse, response: Response, beforeSend: () => void) {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers.entries()) {
    // A route's own Referrer-Policy (a preview link's no-referrer) replaces the site-wide one.
    if (name === "referrer-policy") res.setHeader(name, value);
    else res.append(name, value);
  }
  beforeSend();
  if (!response.body) {
    res.end();
    return;
  }
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (res.destroyed || res.writableEnded) return;
    throw error;
  }
}

/**
 * The methods a URL answers: GET and HEAD everywhere, POST where the route has an action.
 * `.data` URLs are the router's data requests for the page without the suffix.
 */
export async function allowedMethods(build: ServerBuild, pathname: string): Promise<string[]> {
  return (await routeOf(build, pathname)).methods;
}

/** What a URL's path leads to: the methods it answers, and its route (the leaf's id, and whether it is the catch-all). */
type RouteOfPath = { methods: string[]; id: string | undefined; catchAll: boolean };

async function routeOf(build: ServerBuild, pathname: string): Promise<RouteOfPath> {
  let known = routesByPath.get(build);
  if (!known) routesByPath.set(build, (known = new LRUCache({ max: 2_000 })));
  let found = known.get(pathname);
  if (!found) {
    const pagePath = pathname === "/_root.data" ? "/" : pathname.replace(/\.data$/, "");
    const leaf = matchRoutes(routeTree(build), pagePath)?.at(-1)?.route;
    const methods = (leaf?.handle as { hasAction?: boolean } | undefined)?.hasAction ? WITH_POST : WITHOUT_POST;
    found = { methods, id: leaf?.id, catchAll: leaf?.path === "*" };
    known.set(pathname, found);
  }
  return found;
}

/**
 * A render's route in the metrics: the matched route's id (one of the build's, a fixed set); a
 * path no route knows (nothing matched, or the catch-all page route answered 404) is "unmatched".
 */
function routeLabel(route: RouteOfPath, status: number): string {
  if (!route.id || (route.catchAll && status === 404)) return "unmatched";
  return route.id;
}

const WITH_POST = ["GET", "HEAD", "POST"];
const WITHOUT_POST = ["GET", "HEAD"];
/**
 * The answer per path, kept: matching compiles every route's pattern each time (a quarter of a
 * refused post's cost under a flood of them). Bounded, so hostile variety costs only misses.
 */
const routesByPath = new WeakMap<ServerBuild, LRUCache<string, RouteOfPath>>();

type BuildRoute = NonNullable<ServerBuild["routes"][string]>;
const trees = new WeakMap<ServerBuild, RouteObject[]>();

/** The build's flat route list as a tree `matchRoutes` understands, each route knowing whether it has an action. */
function routeTree(build: ServerBuild): RouteObject[] {
  const cached = trees.get(build);
  if (cached) return cached;
  const children = new Map<string | undefined, BuildRoute[]>();
  for (const route of Object.values(build.routes)) {
    if (route) children.set(route.parentId, [...(children.get(route.parentId) ?? []), route]);
  }
  const toRoute = (route: BuildRoute): RouteObject => {
    const common = {
      id: route.id,
      path: route.path,
      caseSensitive: route.caseSensitive,
      handle: { hasAction: Boolean(route.module.action) },
    };
    if (route.index) return { ...common, index: true };
    return { ...common, children: (children.get(route.id) ?? []).map(toRoute) };
  };
  const tree = (children.get(undefined) ?? []).map(toRoute);
  trees.set(build, tree);
  return tree;
}
