/**
 * The one URL of a path: a single leading slash, no trailing slash, and lower case for pages
 * (slugs and ids included). Files keep their case (fingerprinted assets are mixed case). The
 * result always starts with a single slash, so `//evil.example/` cannot become an off-site
 * redirect.
 */
export function canonicalPath(pathname: string): string {
  const isFile = pathname.startsWith("/assets/") || pathname.slice(pathname.lastIndexOf("/") + 1).includes(".");
  const canonical = `/${pathname.replace(/^[/\\]+/, "").replace(/\/+$/, "")}`;
  return isFile ? canonical : canonical.toLowerCase();
}
