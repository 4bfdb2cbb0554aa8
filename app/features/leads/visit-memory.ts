import { attributionOfPage, parseAttribution, type Attribution } from "~/features/leads/attribution";
import { keptLandingPage, LANDING_PAGE_KEY } from "~/features/leads/landing-page";

// The visit's first page, kept in this tab's session storage (no cookie: nothing leaves the tab
// until the visitor sends a form, and it ends with the tab). Browser only.

const KEY = "quorvant:visit";

/**
 * The attribution of this tab's visit: from the landing page the page scripts kept when there is
 * one, else the current page, remembered as the visit's start.
 */
export function currentVisit(): Attribution | undefined {
  try {
    const kept = parseAttribution(window.sessionStorage.getItem(KEY));
    if (kept) return kept;
    const landing = keptLandingPage(window.sessionStorage.getItem(LANDING_PAGE_KEY));
    const visit = landing
      ? attributionOfPage(landing.url, landing.referrer)
      : attributionOfPage(new URL(window.location.href), document.referrer);
    window.sessionStorage.setItem(KEY, JSON.stringify(visit));
    return visit;
  } catch {
    // Storage refused (a privacy mode, a full quota): the form falls back to its page's address.
    return undefined;
  }
}
