import type { MouseEvent, ReactNode } from "react";
import { useNavigate } from "react-router";
import { LatestInsights } from "~/features/blog/components/latest-insights";
import { PageHero } from "~/ui/section";
import type { LatestInsights as LatestInsightsData, LatestInsightsTexts } from "~/features/blog/posts";
import { documentHtmlElementId, useDocumentHtml } from "~/platform/document-html";
import type { StreamedLoad } from "~/platform/load-result";

// The public renderer of a page of blocks. Its static blocks arrive as HTML drawn on the server
// (~/features/pages/blocks/render.server), carried by the document like the product pictures: a
// page's JavaScript holds none of their views or words. Only what needs the browser is drawn
// here: the Latest Insights block (it streams) and the job application in the careers hero.

/** A run of a page's blocks, as the route's loader hands it over. */
export type PageSegment =
  /** Static blocks' markup (undefined on a document request: the document carries it). */
  | { kind: "html"; id: string; html: string | undefined }
  /** The Latest Insights block, with its words in the page's language. */
  | { kind: "latest-insights"; texts?: LatestInsightsTexts }
  /** A hero holding the job application: its text and links are markup, the form is the route's. */
  | { kind: "hero"; id: string; eyebrow?: string; title: string; html: string | undefined };

/** Markup drawn on the server. A click on one of its links to the site navigates in the app, as a <Link> would. */
function PageHtml({ id, html, className }: { id: string; html: string | undefined; className?: string }) {
  const markup = useDocumentHtml(id, html);
  const navigate = useNavigate();
  const follow = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    const link = (event.target as Element).closest("a");
    const href = link?.getAttribute("href");
    if (!link || !href || !/^\/(?![/\\])/.test(href) || link.target || link.hasAttribute("download")) return;
    event.preventDefault();
    navigate(href);
  };
  // Trusted: rendered on the server from our own views and checked content.
  return (
    <div id={documentHtmlElementId(id)} className={className} onClick={follow} dangerouslySetInnerHTML={{ __html: markup }} />
  );
}

export function PageView({
  segments,
  insights,
  application,
}: {
  segments: readonly PageSegment[];
  insights?: StreamedLoad<LatestInsightsData>;
  application?: ReactNode;
}) {
  return segments.map((segment, index) => {
    if (segment.kind === "latest-insights")
      return insights ? <LatestInsights key={index} insights={insights} texts={segment.texts} /> : null;
    if (segment.kind === "hero")
      return (
        <PageHero key={segment.id} eyebrow={segment.eyebrow} title={segment.title}>
          <PageHtml id={segment.id} html={segment.html} className="contents" />
          {application}
        </PageHero>
      );
    return <PageHtml key={segment.id} id={segment.id} html={segment.html} />;
  });
}
