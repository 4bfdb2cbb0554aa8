import type { RequestHandler } from "express";
import onHeaders from "on-headers";

/** The back office's URLs: /admin, everything under it, and the router's data requests for them. */
export function isBackOfficePath(pathname: string): boolean {
  return /^\/admin(?:\/|\.data$|$)/.test(pathname);
}

/**
 * Whatever a back-office route answers (a page, an error, a redirect, a CSV, a data request), no
 * cache may keep it and no search engine may index it: these answers belong to one person.
 * With single sign-on, its forms may also lead to the identity provider: a form posted before the
 * page's scripts run is answered by a redirect there, which browsers check against form-action.
 */
export function backOfficeHeaders(identityProvider: string | undefined): RequestHandler {
  const providerOrigin = identityProvider ? new URL(identityProvider).origin : undefined;
  return (req, res, next) => {
    if (!isBackOfficePath(req.path)) return next();
    onHeaders(res, () => {
      res.setHeader("Cache-Control", "no-store");
      res.setHeader("X-Robots-Tag", "noindex, nofollow");
      const policy = res.getHeader("Content-Security-Policy");
      if (providerOrigin && typeof policy === "string") {
        res.setHeader("Content-Security-Policy", policy.replace("form-action 'self'", `form-action 'self' ${providerOrigin}`));
      }
    });
    next();
  };
}
