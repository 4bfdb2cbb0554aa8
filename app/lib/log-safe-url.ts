// URLs as they may appear in logs. Some paths carry a credential (a preview link's token lets its
// holder read a draft; an invitation link's token lets its holder into the back office), so the
// token is replaced by "[token]" wherever a URL is logged.

const PATHS_WITH_CREDENTIALS = [/^(\/resources\/blog\/preview\/)[^/]+/i, /^(\/admin\/invitations\/)[^/]+/i];

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
  const pattern = PATHS_WITH_CREDENTIALS.find((candidate) => candidate.test(routed));
  if (pattern) return routed.replace(pattern, "$1[token]") + url.slice(path.length);
  if (routed === path) return url;
  const segments = path.split(/(?=[/\\])/).map((segment) => (TOKEN_SHAPED.test(segment) ? segment[0] + "[token]" : segment));
  return segments.join("") + url.slice(path.length);
}
