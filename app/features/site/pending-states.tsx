import type { ComponentType } from "react";
import { BlogListPending, LatestInsightsPending } from "~/features/blog/components/blog-states";
import { LegalSkeleton } from "~/features/legal/components/legal-skeleton";
import { BLOG_PATH } from "~/features/blog/posts";

/**
 * While a client-side navigation waits for its data, the destination's loading state
 * replaces the page body at once. One entry per destination; the layout picks the first match.
 */
export const pendingStates: { matches: (pathname: string) => boolean; Component: ComponentType }[] = [
  { matches: (pathname) => pathname === "/", Component: LatestInsightsPending },
  { matches: (pathname) => pathname === BLOG_PATH || pathname === `${BLOG_PATH}/`, Component: BlogListPending },
  // A legal document and its earlier versions' pages.
  {
    matches: (pathname) => /^\/terms\/(privacy-policy|terms-of-use)(\/versions\/[^/]+)?$/.test(pathname),
    Component: LegalSkeleton,
  },
];

export function pendingStateFor(pathname: string): ComponentType | undefined {
  return pendingStates.find((entry) => entry.matches(pathname))?.Component;
}
