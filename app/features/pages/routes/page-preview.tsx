import { data } from "react-router";
import type { Route } from "./+types/page-preview";
import { NotFound } from "~/ui/not-found";
import { notFoundMeta } from "~/features/site/seo";
import { getDb } from "~/db/index.server";
import { getEnv } from "~/env.server";
import { pagePreviewOf } from "~/features/pages/page-preview-links.server";
import { formatLongDate } from "~/platform/dates";

// A private preview link to a page's draft (made on the page's editor): the page's blocks as
// visitors will see them, under a "Preview — not published" banner. As the posts' links: the link
// is the only credential, so every answer is kept out of caches, search engines and Referer
// headers, and an unusable token is answered exactly like an unknown page.

const PREVIEW_HEADERS = { "Cache-Control": "no-store", "X-Robots-Tag": "noindex", "Referrer-Policy": "no-referrer" };

export async function loader({ params }: Route.LoaderArgs) {
  const preview = await pagePreviewOf(getDb(), getEnv(), params.token);
  return data({ preview: preview ?? null }, { status: preview ? 200 : 404, headers: PREVIEW_HEADERS });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  ...(loaderData?.preview
    ? [{ title: `Preview: ${loaderData.preview.title}` }]
    : notFoundMeta.filter((tag) => !("name" in tag && tag.name === "robots"))),
  { name: "robots", content: "noindex" },
  { name: "referrer", content: "no-referrer" },
];

export default function PagePreviewLink({ loaderData }: Route.ComponentProps) {
  const { preview } = loaderData;
  if (!preview) return <NotFound />;
  return (
    <>
      <div className="mx-auto max-w-6xl px-4 pt-6 sm:px-6">
        <div role="status" className="rounded-xl border border-amber-300 bg-amber-50 px-5 py-4 text-amber-950">
          <p className="font-semibold">Preview — not published</p>
          <p className="mt-1 text-sm">
            The saved draft of the page at {preview.path}. Only people with this link can see it; the link works until{" "}
            {formatLongDate(preview.expiresAt)}.
          </p>
        </div>
      </div>
      {/* Trusted: drawn on the server by the blocks' own views from checked blocks. */}
      <div dangerouslySetInnerHTML={{ __html: preview.html }} />
    </>
  );
}
