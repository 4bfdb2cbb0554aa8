// URLs as they may appear in logs. Some paths carry a credential (a preview link's token lets its
// holder read a draft; an invitation link's token lets its holder into the back office), so the
// token is replaced by "[token]" wherever a URL is logged. A query string can name a person (the
// lead inbox's search, an address pasted into a campaign link): logs outlive an erasure, so such
// values are replaced by "[redacted]" (see redactedQuery).

const PATHS_WITH_CREDENTIALS = [
  // Preview links in every language: /preview/…, /resources/blog/preview/…, /de/ressourcen/blog/preview/…
  /^((?:\/[^/]+)*?\/preview\/)[^/]+/i,
  /^(\/admin\/invitations\/)[^/]+/i,
];

/**
 * Both credentials end in 64 hex digits (a signature, a random token). In a path that names
 * neither page once resolved (`/resources/blog/preview/TOKEN/..`) yet is not written as the
 * server routes it, a segment with a run of hex digits that long, percent-encoded or not, is taken for one.
 */
const TOKEN_SHAPED = /(?:[0-9a-f]|%[0-9a-f]{2}){32,}/i;

/**
 * The path as the server routes it, so that another spelling of a link (`//admin/…`, `/%61dmin/…`,
 * `/x/../admin/…`, `/admin//invitations/…`) is recognised too: single slashes, dot segments
 * resolved, each segment percent-decoded (an encoded slash stays inside its segment).
 */
function routedPath(path: string): string {
  let resolved = path.replace(/^[/\\]+/, "/");
  try {
    resolved = new URL(resolved, "http://localhost").pathname.replace(/\/{2,}/g, "/");
  } catch {
    // Not resolvable: matched as given.
  }
  return resolved
    .split("/")
    .map((segment) => {
      try {
        return decodeURIComponent(segment).replaceAll("/", "%2F");
      } catch {
        return segment;
      }
    })
    .join("/");
}

export function logSafeUrl(url: string): string {
  const end = url.search(/[?#]/);
  const path = end === -1 ? url : url.slice(0, end);
  const routed = routedPath(path);
  const rest = end === -1 ? "" : redactedQuery(routed, url.slice(end));
  const pattern = PATHS_WITH_CREDENTIALS.find((candidate) => candidate.test(routed));
  if (pattern) return routed.replace(pattern, "$1[token]") + rest;
  if (routed === path) return path + rest;
  const segments = path.split(/(?=[/\\])/).map((segment) => (TOKEN_SHAPED.test(segment) ? segment[0] + "[token]" : segment));
  return segments.join("") + rest;
}

export const REDACTED = "[redacted]";

/** Parameters whose values are free text a person types to find someone: never logged, on any path. */
const SEARCH_PARAMS = new Set(["q", "query", "search", "email", "name"]);

/**
 * The back office's parameters whose values name no one (ids, statuses, days, page positions, the
 * form page and campaign of a view, React Router's own): under /admin every other value is
 * redacted, so a filter added later is kept out of the logs until someone decides otherwise.
 */
const BACK_OFFICE_PARAMS = new Set([
  "form",
  "status",
  "owner",
  "from",
  "to",
  "after",
  "before",
  "source",
  "campaign",
  "person",
  "action",
  "page",
  "category",
  "v",
  "created",
  "done",
  "restored",
  "problem",
  "_routes",
  "_data",
  "index",
]);

const BACK_OFFICE = /^\/admin(?:[/.]|$)/i;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll("+", " "));
  } catch {
    return text;
  }
}

/**
 * `?…#…` with the value of every parameter that may name a person replaced by "[redacted]": a
 * search term, anything holding an "@" (an address, however it is spelled), and under /admin
 * every parameter not known to name no one. Names of parameters stay (what kind of view it was),
 * unless the name itself holds an "@". A public page's campaign parameters (utm_*) stay as sent.
 */
export function redactedQuery(routedPath: string, rest: string): string {
  const hash = rest.indexOf("#");
  const query = hash === -1 ? rest : rest.slice(0, hash);
  const fragment = hash === -1 ? "" : rest.slice(hash);
  const backOffice = BACK_OFFICE.test(routedPath);
  const pairs = query
    .slice(1)
    .split("&")
    .map((pair) => {
      if (pair === "") return pair;
      const equals = pair.indexOf("=");
      const rawName = equals === -1 ? pair : pair.slice(0, equals);
      const name = decoded(rawName);
      if (name.includes("@")) return REDACTED;
      if (equals === -1) return pair;
      const key = name.toLowerCase();
      const value = decoded(pair.slice(equals + 1));
      const named = SEARCH_PARAMS.has(key) || value.includes("@") || (backOffice && !BACK_OFFICE_PARAMS.has(key));
      return named && value !== "" ? `${rawName}=${REDACTED}` : pair;
    });
  const safeFragment = decoded(fragment).includes("@") ? `#${REDACTED}` : fragment;
  return (query ? `?${pairs.join("&")}` : "") + safeFragment;
}
