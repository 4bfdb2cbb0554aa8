import type { IncomingMessage } from "node:http";
import { isbot } from "isbot";
import { campaignFrom, hostOf, normalisePath } from "~/features/leads/attribution";
import type { PageViewKey } from "~/features/visits/db/page-views.server";
import { isBackOfficePath } from "./back-office";

// Which answers are a person viewing a page, and under what they are counted. Nothing about the
// visitor is kept: not the address, not the user agent, not a cookie; only the day, the page, the
// site that linked to it and the campaign parameters of its address. A view that came from another
// page of the site is counted under the site's own host, so a visit (an arrival) is any view
// counted under another host or none.

const PREVIEW_PATH = /^\/(?:resources\/blog\/)?preview\//;

/**
 * The bot list is one large regular expression, by far the dearest part of counting a view; a
 * site sees the same few hundred user agents again and again, so each verdict is kept (the map
 * starts over when it is full, so hostile variety costs memory only up to the bound).
 */
const botVerdicts = new Map<string, boolean>();
const MAX_VERDICTS = 2_000;

function isCrawler(userAgent: string): boolean {
  let verdict = botVerdicts.get(userAgent);
  if (verdict === undefined) {
    if (botVerdicts.size >= MAX_VERDICTS) botVerdicts.clear();
    verdict = isbot(userAgent);
    botVerdicts.set(userAgent, verdict);
  }
  return verdict;
}

function header(req: IncomingMessage, name: string): string {
  const value = req.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? "";
}

/**
 * The count a finished answer makes, or undefined when it is not a person's page view: only GETs
 * answered 200 or 304 (a browser revalidating its copy is a view too) with a page (HTML) or, for a
 * client-side navigation, the router's data for one; never a crawler, a prefetch, the data a page
 * reloads after its own form was sent, the back office or a private preview (its address is a secret).
 */
export function pageViewOf(
  req: IncomingMessage,
  status: number,
  contentType: string,
  ownHost: string,
  now = new Date(),
): PageViewKey | undefined {
  if (req.method !== "GET" || (status !== 200 && status !== 304)) return undefined;
  const userAgent = header(req, "user-agent");
  if (!userAgent || isCrawler(userAgent)) return undefined;
  const url = new URL(req.url ?? "/", "http://site.invalid");
  let path = url.pathname;
  let referrerHost: string;
  if (path.endsWith(".data")) {
    // A client-side navigation: the data of the page at the path without ".data" ("/_root.data" is "/").
    if (/prefetch/i.test(header(req, "sec-purpose") || header(req, "purpose"))) return undefined;
    path = path === "/_root.data" ? "/" : path.slice(0, -".data".length);
    // A page reloading its own data (after its form was posted) asks from the page itself.
    if (sameLocation(header(req, "referer"), path, url.searchParams)) return undefined;
    referrerHost = ownHost;
  } else {
    if (status === 200 && !contentType.startsWith("text/html")) return undefined;
    if (status === 304 && header(req, "sec-fetch-dest") !== "document" && !header(req, "accept").includes("text/html")) {
      return undefined;
    }
    referrerHost = hostOf(header(req, "referer"));
  }
  if (isBackOfficePath(path) || PREVIEW_PATH.test(path)) return undefined;
  const normalisedPath = normalisePath(path);
  if (!normalisedPath) return undefined;
  return {
    day: now.toISOString().slice(0, 10),
    path: normalisedPath,
    referrer_host: referrerHost,
    ...campaignFrom(url.searchParams),
  };
}

function sameLocation(referrer: string, path: string, params: URLSearchParams): boolean {
  if (!referrer) return false;
  try {
    const from = new URL(referrer);
    const search = new URLSearchParams(params);
    search.delete("_routes");
    return from.pathname === path && new URLSearchParams(from.search).toString() === search.toString();
  } catch {
    return false;
  }
}
