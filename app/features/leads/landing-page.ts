// The address and referrer of the page a tab's visit began on, as the page's own module script
// keeps them in session storage the moment it runs (app/features/site/script-priority.server.ts), before the
// page has hydrated: a visitor may follow a link first, and the visit still began there.

export const LANDING_PAGE_KEY = "quorvant:landing";

/** The kept landing page, or undefined when none was kept or what is kept is not one. */
export function keptLandingPage(stored: string | null): { url: URL; referrer: string } | undefined {
  if (!stored) return undefined;
  try {
    const kept: unknown = JSON.parse(stored);
    if (typeof kept !== "object" || kept === null) return undefined;
    const { url, referrer } = kept as Record<string, unknown>;
    if (typeof url !== "string" || typeof referrer !== "string") return undefined;
    return { url: new URL(url), referrer };
  } catch {
    return undefined;
  }
}
