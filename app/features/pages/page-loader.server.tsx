import { decodeHTML } from "entities";
import { renderToStaticMarkup } from "react-dom/server";
import { data, type AppLoadContext } from "react-router";
import { pageSegments } from "~/features/pages/blocks/render.server";
import type { PageDocument } from "~/features/pages/page-document.server";
import type { PageMetaData } from "~/features/pages/page-meta";
import { pageShareImage } from "~/features/pages/page-card.server";
import { loadPublishedPage } from "~/features/pages/page-source.server";
import type { PageSegment } from "~/features/pages/page-view";
import { loadLatestInsights } from "~/features/blog/posts.server";
import { renderMarkup } from "~/features/blog/markup.server";
import { carriedByDocument } from "~/platform/document-html.server";
import { statusOf } from "~/platform/load-result";
import { inlineIfQuick } from "~/platform/streaming.server";
import { redirectForMissingPage } from "~/features/redirects/redirects.server";
import { requestLocale } from "~/features/i18n/request-locale.server";
import { catalogMessage } from "~/features/i18n/messages.server";
import { dependsOn } from "~/features/cdn/shared-cache.server";
import { POST_LIST_KEY, REDIRECTS_KEY, pageKey } from "~/features/cdn/surrogate-keys";

// The loader of the page route(s): the published page at the request's path, drawn into segments,
// with the data its live blocks need and the inputs of its meta tags. Where no page is published,
// a redirect an editor set up (or a page moved) answers, or the address is gone, or not found.

const plainText = (html: string) =>
  decodeHTML(html.replace(/<[^>]*>/g, ""))
    .replace(/\s+/g, " ")
    .trim();

/** FAQPage structured data for the page's questions (all its FAQ blocks together), or none. */
export function faqJsonLd(page: PageDocument): Record<string, unknown>[] {
  const questions = page.blocks.flatMap((block) => (block.type === "faq" ? block.items : []));
  if (!questions.length) return [];
  return [
    {
      "@context": "https://schema.org",
      "@type": "FAQPage",
      mainEntity: questions.map((item) => ({
        "@type": "Question",
        name: item.question,
        acceptedAnswer: { "@type": "Answer", text: plainText(renderMarkup(item.answer)) },
      })),
    },
  ];
}

function metaOf(page: PageDocument, id: string): PageMetaData {
  return {
    title: page.title,
    description: page.description,
    path: page.canonicalPath ?? page.path,
    image: pageShareImage({ ...page, id }),
    noindex: page.noindex,
    feeds: page.blocks.some((block) => block.type === "latest-insights"),
    jsonLd: faqJsonLd(page),
  };
}

/** The error state of a page whose content cannot be shown (as the legal pages show theirs), in the page's language. */
function PageLoadError({ reason, locale }: { reason?: string; locale: string }) {
  return (
    <div role="alert" className="mx-auto max-w-3xl px-4 py-20 text-center sm:px-6">
      <h1 className="text-3xl font-bold">{catalogMessage(locale, "shell.pageError.title")}</h1>
      <p className="mt-4 text-muted">{catalogMessage(locale, "shell.pageError.text")}</p>
      {reason ? <p className="mt-2 text-sm text-muted">{reason}</p> : null}
    </div>
  );
}

export async function loadPage({ request, context }: { request: Request; context: AppLoadContext }) {
  const url = new URL(request.url);
  // The router matches a page's route however its path is cased or ended (a raw request can reach
  // it as /company/brand/); the page is the one it matched.
  const pagePath = url.pathname.toLowerCase().replace(/(?<=.)\/+$/, "");
  // A page of a language the site has messages for but does not publish (not in SITE_LOCALES) is not served.
  const { locale, foreign } = requestLocale(request);
  if (foreign?.catalogued)
    return data({ state: "not-found" as const, segments: [], insights: undefined, meta: null }, { status: 404 });
  const result = await loadPublishedPage(pagePath, context.requestId);
  if (result.state === "not-found") {
    // No page here: an old address an editor redirected (or marked gone) answers that instead.
    const redirected = await redirectForMissingPage(request, context.requestId);
    if (redirected instanceof Response) {
      dependsOn(context, REDIRECTS_KEY);
      throw redirected;
    }
    if (redirected) return data({ state: "gone" as const, segments: [], insights: undefined, meta: null }, { status: 410 });
  }
  if (result.state !== "loaded") {
    const segments: PageSegment[] =
      result.state === "failed"
        ? [
            {
              kind: "html",
              id: "page-error",
              html: carriedByDocument(
                context,
                "page-error",
                renderToStaticMarkup(<PageLoadError reason={result.reason} locale={locale.tag} />),
              ),
            },
          ]
        : [];
    return data({ state: result.state, segments, insights: undefined, meta: null }, { status: statusOf(result) });
  }
  const { id, page } = result.value;
  dependsOn(context, pageKey(id));
  const segments = pageSegments(context, page, url.search);
  // Slow posts stream: the rest of the page never waits for the Latest Insights block.
  const showsInsights = segments.some((segment) => segment.kind === "latest-insights");
  if (showsInsights) dependsOn(context, POST_LIST_KEY);
  const insights = showsInsights ? (await inlineIfQuick(loadLatestInsights(context.requestId, locale.tag))).data : undefined;
  return data({ state: result.state, segments, insights, meta: metaOf(page, id) }, { status: 200 });
}
