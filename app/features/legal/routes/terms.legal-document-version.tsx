import { data, Link, redirect } from "react-router";
import type { Route } from "./+types/terms.legal-document-version";
import { NotFound } from "~/ui/not-found";
import { LegalArticle, LegalDocumentError } from "~/features/legal/components/legal-document";
import { formatLongDate } from "~/platform/dates";
import { legalDocumentPath, legalDocumentTypeOf, legalDocuments, legalVersionPath } from "~/features/legal/documents";
import { loadSupersededLegalDocument } from "~/features/legal/documents.server";
import { statusOf } from "~/platform/load-result";
import { notFoundMeta, pageMeta } from "~/features/site/seo";

// An earlier published version of a legal document, kept readable for those who need to know what
// was agreed when. routes.ts mounts this module under each document's path.

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const type = legalDocumentTypeOf(new URL(request.url).pathname);
  const result = await loadSupersededLegalDocument(type, params.version, context.requestId);
  // The current version has one address, the document's own page: its version URL redirects there for good.
  if (result.state === "current") throw redirect(legalDocumentPath(type), 308);
  // An unknown or unpublished version answers 404 with the site's ordinary not-found page.
  return data({ type, version: params.version, result }, { status: statusOf(result) });
}

export const meta: Route.MetaFunction = ({ matches, loaderData, params }) => {
  if (!loaderData || loaderData.result.state === "not-found") return notFoundMeta;
  const { name } = legalDocuments[loaderData.type];
  const version = params.version ?? loaderData.version;
  return [
    ...pageMeta(matches, {
      title: `${name}, version ${version}`,
      description: `Version ${version} of the Quorvant ${name}, superseded by a later version.`,
      path: legalVersionPath(loaderData.type, version),
    }),
    // A superseded text is kept for reference; search engines should send readers to the current one.
    { name: "robots", content: "noindex" },
  ];
};

export default function LegalDocumentVersionPage({ loaderData }: Route.ComponentProps) {
  const { name } = legalDocuments[loaderData.type];
  const { result } = loaderData;
  if (result.state === "not-found") return <NotFound />;
  if (result.state !== "loaded") return <LegalDocumentError name={name} document={result} />;

  const { document, current } = result.value;
  return (
    <LegalArticle
      document={document}
      notice={
        <div role="note" className="mt-6 rounded-xl border border-amber-300 bg-amber-50 p-4 text-slate-800">
          <p className="font-semibold">
            This version ({document.version}, updated {formatLongDate(document.lastUpdated)}) has been superseded.
          </p>
          <p className="mt-1">
            The current version is {current.version}, updated {formatLongDate(current.lastUpdated)}.{" "}
            <Link
              to={legalDocumentPath(loaderData.type)}
              className="font-medium text-brand-700 underline hover:no-underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
            >
              Read the current version
            </Link>
          </p>
        </div>
      }
    />
  );
}
