// How the server reads a request's path (server/app.ts redirects every other spelling to this
// one, and the page cache keys by it); shared with the code that must see a URL in a text as the
// server will (an image a post refers to, whatever the spelling).

/** Characters that mean the same percent-encoded or not (RFC 3986 "unreserved"). */
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * A path's segments as the router reads them: `\` is a slash (as URL parsers take it), and
 * percent-encoded unreserved characters are decoded (`%70review` is `preview`, `%2e` is `.`).
 * Other escapes, an encoded slash or backslash among them, stay as they are, inside their segment.
 */
function segmentsOf(pathname: string): string[] {
  return pathname
    .replaceAll("\\", "/")
    .split("/")
    .map((segment) =>
      segment.includes("%")
        ? segment.replace(/%[0-9a-fA-F]{2}/g, (escape) => {
            const char = String.fromCharCode(Number.parseInt(escape.slice(1), 16));
            return UNRESERVED.test(char) ? char : escape;
          })
        : segment,
    );
}

/**
 * Whether the path has a `.` or `..` segment in any spelling (`%2e`, `.%2E`). A browser resolves
 * them before it sends a request, so such a path is hand-made: it is refused rather than
 * redirected, and never reaches a route (a route reading it as another page's path would render
 * that page under a second address, a preview link's token included).
 */
export function hasDotSegments(pathname: string): boolean {
  return segmentsOf(pathname).some((segment) => segment === "." || segment === "..");
}

/**
 * The one URL of a path: a single slash between segments, none at the end, unreserved characters
 * not percent-encoded, and lower case for pages (slugs and ids included). Files keep their case
 * (fingerprinted assets are mixed case). Dot segments are resolved. The result always starts with
 * a single slash followed by a non-empty segment, so `//evil.example/` cannot become an off-site
 * redirect.
 */
export function canonicalPath(pathname: string): string {
  const segments: string[] = [];
  for (const segment of segmentsOf(pathname)) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  const canonical = `/${segments.join("/")}`;
  const isFile = segments[0] === "assets" || (segments.at(-1) ?? "").includes(".");
  return isFile ? canonical : canonical.toLowerCase();
}
