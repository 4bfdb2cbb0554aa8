import { data, Link, redirect } from "react-router";
import type { Route } from "./+types/terms.legal-document-version";
import { NotFound } from "~/ui/not-found";
import { LegalArticle, LegalDocumentError } from "~/features/legal/components/legal-document";
import { loadSupersededLegalDocument } from "~/features/legal/documents.server";
import { legalPageOf, legalPathIn, legalVersionPathIn } from "~/features/legal/paths.server";
import { legalDate, legalDocumentText, legalMessage, versionLineText } from "~/features/legal/page-text.server";
import { statusOf } from "~/platform/load-result";
import { missingPageMeta, pageMeta } from "~/features/site/seo";
import { dependsOn } from "~/features/cdn/shared-cache.server";
import { legalKey } from "~/features/cdn/surrogate-keys";

// An earlier published version of a legal document, kept readable for those who need to know what
// was agreed when. routes.ts mounts this module under each document's path in every language; a
// language's history is its own versions.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { type, locale } = legalPageOf(new URL(request.url).pathname);
  const tag = locale.tag;
  dependsOn(context, legalKey(type));
  const result = await loadSupersededLegalDocument(type, params.version, context.requestId, tag);
  // The current version has one address, the document's own page: its version URL redirects there for good.
  if (result.state === "current") throw redirect(legalPathIn(type, tag), 308);
  const text = legalDocumentText(tag, type);
  const loadedVersion = result.state === "loaded" ? result.value : null;
  // An unknown or unpublished version answers 404 with the site's ordinary not-found page.
  return data(
    {
      type,
      version: params.version,
      text,
      title: legalMessage(tag, "superseded.title", { name: text.name, version: params.version }),
      description: legalMessage(tag, "superseded.description", { name: text.name, version: params.version }),
      path: legalVersionPathIn(type, tag, params.version),
      currentPath: legalPathIn(type, tag),
      result,
      line: loadedVersion ? versionLineText(tag, loadedVersion.document) : null,
      notice: loadedVersion
        ? {
            superseded: legalMessage(tag, "superseded.notice", {
              version: loadedVersion.document.version,
              date: legalDate(loadedVersion.document.lastUpdated, tag),
            }),
            current: legalMessage(tag, "superseded.current", {
              version: loadedVersion.current.version,
              date: legalDate(loadedVersion.current.lastUpdated, tag),
            }),
            link: legalMessage(tag, "superseded.link"),
          }
        : null,
    },
    { status: statusOf(result) },
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  if (!loaderData || loaderData.result.state === "not-found") return missingPageMeta(matches);
  return [
    ...pageMeta(matches, { title: loaderData.title, description: loaderData.description, path: loaderData.path }),
    // A superseded text is kept for reference; search engines should send readers to the current one.
    { name: "robots", content: "noindex" },
  ];
};

export default function LegalDocumentVersionPage({ loaderData }: Route.ComponentProps) {
  const { result, text, line, notice } = loaderData;
  if (result.state === "not-found") return <NotFound />;
  if (result.state !== "loaded") return <LegalDocumentError name={text.name} text={text.error} document={result} />;

  return (
    <LegalArticle
      document={result.value.document}
      line={line ?? undefined}
      notice={
        notice ? (
          <div role="note" className="mt-6 rounded-xl border border-amber-300 bg-amber-50 p-4 text-slate-800">
            <p className="font-semibold">{notice.superseded}</p>
            <p className="mt-1">
              {notice.current}{" "}
              <Link
                to={loaderData.currentPath}
                className="font-medium text-brand-700 underline hover:no-underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
              >
                {notice.link}
              </Link>
            </p>
          </div>
        ) : undefined
      }
    />
  );
}
