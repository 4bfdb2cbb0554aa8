import { renderToStaticMarkup } from "react-dom/server";
import { StaticRouter, type AppLoadContext } from "react-router";
import { visualMarkup } from "~/features/pages/components/visuals.server";
import { blockRegistry, type Block } from "~/features/pages/blocks/registry.server";
import { BlockView, HeroBody, type MarkupStyle, type ViewEnv } from "~/features/pages/blocks/views.server";
import type { PageDocument } from "~/features/pages/page-document.server";
import type { PageSegment } from "~/features/pages/page-view";
import { renderMarkup } from "~/features/blog/markup.server";
import { carriedByDocument } from "~/platform/document-html.server";
import { keptQuery } from "~/features/site/query-params";
import { localeOfDocumentPath } from "~/features/content/document-locale";
import { CATALOGS } from "~/features/i18n/messages.server";
import { latestInsightsTexts } from "~/features/blog/latest-insights-texts.server";

// A page's blocks drawn on the server. Runs of static blocks become one piece of markup each,
// carried by the document (~/platform/document-html.server); the blocks that need the browser stay
// data for ~/features/pages/page-view. Pieces are kept per page and query, so a page's blocks are
// drawn once per server, not once per visitor.

type Rendered =
  | { kind: "html"; id: string; html: string }
  | Extract<PageSegment, { kind: "latest-insights" }>
  | (Extract<PageSegment, { kind: "hero" }> & { html: string });

const classAttribute = (classes: string | undefined) => (classes ? ` class="${classes}"` : "");

/**
 * Markup's HTML without the line breaks the renderer puts between blocks (a page's text is then
 * exactly what its elements hold, as when the views wrote the same words themselves), its links,
 * inline code, lists and following paragraphs given the view's classes. The renderer escapes
 * every text and writes these tags itself, so they are found by their exact spelling.
 */
function markup(text: string, style: MarkupStyle = {}): string {
  let html = renderMarkup(text).replace(/>\n+</g, "><").trim();
  if (style.a) html = html.replaceAll("<a href=", `<a${classAttribute(style.a)} href=`);
  if (style.code) html = html.replace(/(?<!<pre>)<code>/g, `<code${classAttribute(style.code)}>`);
  if (style.nextP) html = html.replaceAll("</p><p>", `</p><p${classAttribute(style.nextP)}>`);
  if (style.ul) html = html.replaceAll("<ul>", `<ul${classAttribute(style.ul)}>`);
  if (style.ol) html = html.replace(/<ol(?= start=|>)/g, `<ol${classAttribute(style.ol)}`);
  return html;
}

/** The HTML of one paragraph of markup without its <p>; more than one paragraph keeps them. */
function inlineMarkup(text: string, style?: MarkupStyle): string {
  const html = markup(text, style);
  const single = /^<p>([\s\S]*)<\/p>$/.exec(html);
  return single && !/<p[ >]/.test(single[1]!) ? single[1]! : html;
}

/** The language of the page at `path`: its prefix's, among the languages that have a catalog. */
export const pageLocale = (path: string) => localeOfDocumentPath(path, CATALOGS.keys());

export function viewEnv(path: string, search: string, extra: Partial<ViewEnv> = {}): ViewEnv {
  const locale = extra.locale ?? pageLocale(path);
  return { path, search, locale, markup, inlineMarkup, visual: (name) => visualMarkup(name, locale), ...extra };
}

/** A block through its view, as static markup (links drawn as the router would draw them). */
export function renderBlockHtml(block: Block, env: ViewEnv): string {
  return renderToStaticMarkup(
    <StaticRouter location={`${env.path}${env.search}`}>
      <BlockView block={block} env={env} />
    </StaticRouter>,
  );
}

function renderHeroBody(block: Extract<Block, { type: "hero" }>, env: ViewEnv): string {
  return renderToStaticMarkup(
    <StaticRouter location={`${env.path}${env.search}`}>
      <HeroBody block={block} env={env} />
    </StaticRouter>,
  );
}

/** A page's blocks as runs of markup and live blocks. */
export function renderSegments(page: PageDocument, search: string): Rendered[] {
  const env = viewEnv(page.path, search);
  const segments: Rendered[] = [];
  let run: string[] = [];
  const flush = () => {
    if (run.length) segments.push({ kind: "html", id: `page-${segments.length}`, html: run.join("") });
    run = [];
  };
  for (const block of page.blocks) {
    if (block.type === "hero" && block.application) {
      flush();
      segments.push({
        kind: "hero",
        id: `page-${segments.length}`,
        eyebrow: block.eyebrow,
        title: block.title,
        html: renderHeroBody(block, env),
      });
    } else if (blockRegistry[block.type].live) {
      flush();
      segments.push({ kind: "latest-insights", texts: latestInsightsTexts(env.locale) });
    } else run.push(renderBlockHtml(block, env));
  }
  flush();
  return segments;
}

const MAX_QUERIES_PER_PAGE = 50;
const drawn = new WeakMap<PageDocument, Map<string, Rendered[]>>();

/**
 * For a loader: the page's segments, each piece of markup carried once (by the document on a
 * whole-document request, as data on a client-side navigation).
 */
export function pageSegments(context: AppLoadContext, page: PageDocument, search: string): PageSegment[] {
  // Only the query the page reads changes its markup (the careers page's campaign parameters).
  const query = keptQuery(page.path, search);
  let byQuery = drawn.get(page);
  if (!byQuery) drawn.set(page, (byQuery = new Map()));
  let segments = byQuery.get(query);
  if (!segments) {
    if (byQuery.size >= MAX_QUERIES_PER_PAGE) byQuery.clear();
    segments = renderSegments(page, query);
    byQuery.set(query, segments);
  }
  return segments.map((segment) =>
    segment.kind === "latest-insights" ? segment : { ...segment, html: carriedByDocument(context, segment.id, segment.html) },
  );
}
