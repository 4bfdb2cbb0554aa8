import { data, redirect } from "react-router";
import type { Route } from "./+types/content-preview";
import { NotFound } from "~/ui/not-found";
import { missingPageMeta } from "~/features/site/seo";
import { getDb } from "~/db/index.server";
import { getEnv } from "~/env.server";
import { contentPreviewPath, previewGrantOf } from "~/features/content/preview-links.server";
import { routeLocale } from "~/features/i18n/request-locale.server";
import { frameLocaleOf } from "~/features/i18n/site-locales";
import { documentPreviewNotice } from "~/features/content/preview-notice.server";
import { PreviewNotice } from "~/features/content/components/preview-notice";
import { pagePreviewOf } from "~/features/pages/page-preview-links.server";
import { positionPreviewOf } from "~/features/careers/position-preview.server";
import { PositionArticle } from "~/features/careers/components/position-page";
import { POSITION_TEXT_KEYS } from "~/features/careers/careers-texts";
import { routeTexts } from "~/features/i18n/shell.server";

// A private preview link to the saved draft of a page or a position (made on its editor), drawn as
// its public page would be, under a "Preview — not published" banner, in the document's language.
// As the posts' links: the link is the only credential, so every answer is kept out of caches,
// search engines and Referer headers, and an unusable token is answered exactly like an unknown page.

const PREVIEW_HEADERS = { "Cache-Control": "no-store", "X-Robots-Tag": "noindex", "Referrer-Policy": "no-referrer" };

async function previewOf(token: string) {
  const db = getDb();
  const grant = await previewGrantOf(db, getEnv(), token);
  if (grant?.type === "page") {
    const page = await pagePreviewOf(db, grant);
    return page && { kind: "page" as const, ...page, notice: documentPreviewNotice(page.locale, { kind: "page", ...page }) };
  }
  if (grant?.type === "position") {
    const position = await positionPreviewOf(db, grant);
    return (
      position && {
        kind: "position" as const,
        ...position,
        notice: documentPreviewNotice(position.locale, { kind: "position", ...position }),
        texts: routeTexts({ tag: position.locale }, POSITION_TEXT_KEYS),
      }
    );
  }
  return undefined;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const at = routeLocale(request);
  const preview = await previewOf(params.token);
  // A draft is previewed under its own language's prefix, in that language's frame.
  const locales = getEnv().SITE_LOCALES;
  if (preview && frameLocaleOf(preview.locale, locales).tag !== at.tag)
    throw redirect(contentPreviewPath(locales, preview.locale, params.token), { status: 302, headers: PREVIEW_HEADERS });
  return data({ preview: preview ?? null }, { status: preview ? 200 : 404, headers: PREVIEW_HEADERS });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [
  ...(loaderData?.preview
    ? [{ title: loaderData.preview.notice.title }]
    : missingPageMeta(matches).filter((tag) => !("name" in tag && tag.name === "robots"))),
  { name: "robots", content: "noindex" },
  { name: "referrer", content: "no-referrer" },
];

export default function ContentPreviewLink({ loaderData }: Route.ComponentProps) {
  const { preview } = loaderData;
  if (!preview) return <NotFound />;
  return (
    <>
      <div className="mx-auto max-w-6xl px-4 pt-6 sm:px-6">
        <PreviewNotice notice={preview.notice} />
      </div>
      {preview.kind === "position" ? (
        <PositionArticle
          position={preview.position}
          descriptionHtml={preview.descriptionHtml}
          texts={preview.texts}
          application={null}
          preview
        />
      ) : (
        // Trusted: drawn on the server by the blocks' own views from checked blocks.
        <div dangerouslySetInnerHTML={{ __html: preview.html }} />
      )}
    </>
  );
}
