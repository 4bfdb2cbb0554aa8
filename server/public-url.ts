import type { Request } from "express";

/**
 * Where a request says it is addressed: its scheme (X-Forwarded-Proto only from a trusted
 * proxy) and its Host header.
 */
export function ownOrigin(req: Request): string | undefined {
  const host = req.get("host");
  if (!host) return undefined;
  try {
    return new URL(`${req.protocol}://${host}`).origin;
  } catch {
    return undefined;
  }
}

/**
 * The origin visitors used to reach this request. A proxy that terminates TLS forwards plain
 * http, so a request whose Host is SITE_URL's host, or a form posted from SITE_URL's origin, is
 * taken as addressed to SITE_URL: the router then sees the URL the visitor's browser saw, and
 * its own same-origin check on form posts agrees with ours.
 */
export function publicOrigin(req: Request, siteUrl: URL): string {
  const host = req.get("host");
  if (host && hostOf(siteUrl.protocol, host) === siteUrl.host) return siteUrl.origin;
  if (req.get("origin") === siteUrl.origin) return siteUrl.origin;
  return ownOrigin(req) ?? siteUrl.origin;
}

/** `host` normalised as a URL of `protocol` would hold it (default ports dropped, lower case). */
function hostOf(protocol: string, host: string): string | undefined {
  try {
    return new URL(`${protocol}//${host}`).host;
  } catch {
    return undefined;
  }
}
