import type { ComponentType } from "react";
import { BlogListPending, LatestInsightsPending } from "~/features/blog/components/blog-states";
import { LegalSkeleton } from "~/features/legal/components/legal-skeleton";
import type { ShellLinks } from "~/ui/shell-text";

/**
 * While a client-side navigation waits for its data, the destination's loading state
 * replaces the page body at once. One entry per destination; the layout picks the first match.
 * The home page's and the blog's are those of the frame's own language (`links`): their words are
 * the frame's, so a navigation into another language waits on the page it leaves instead.
 */
export const pendingStates: { matches: (pathname: string, links: ShellLinks) => boolean; Component: ComponentType }[] = [
  { matches: (pathname, links) => pathname === links.home, Component: LatestInsightsPending },
  { matches: (pathname, links) => pathname === links.blog || pathname === `${links.blog}/`, Component: BlogListPending },
  // A legal document and its earlier versions' pages.
  {
    matches: (pathname) => /^\/terms\/(privacy-policy|terms-of-use)(\/versions\/[^/]+)?$/.test(pathname),
    Component: LegalSkeleton,
  },
];

export function pendingStateFor(pathname: string, links: ShellLinks): ComponentType | undefined {
  return pendingStates.find((entry) => entry.matches(pathname, links))?.Component;
}
