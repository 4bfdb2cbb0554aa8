import { data, Link } from "react-router";
import type { Route } from "./+types/terms.legal-document";
import { EarlierLegalVersions, LegalArticle, LegalDocumentError } from "~/features/legal/components/legal-document";
import { loadLegalDocument, loadLegalVersions } from "~/features/legal/documents.server";
import { LEGAL_SOURCE_LOCALE } from "~/features/legal/db/legal.server";
import { legalPageOf, legalPathIn, legalVersionPathIn } from "~/features/legal/paths.server";
import {
  earlierVersionsText,
  legalDate,
  legalDocumentText,
  legalMessage,
  versionLineText,
} from "~/features/legal/page-text.server";
import { statusOf } from "~/platform/load-result";
import { missingPageMeta, pageMeta } from "~/features/site/seo";
import { dependsOn } from "~/features/cdn/shared-cache.server";
import { legalKey } from "~/features/cdn/surrogate-keys";

// One module serves both legal documents in every language; routes.ts mounts it at each path with
// its own id, and the path says which document and language (English at /terms/…, German at
// /de/rechtliches/…). Each language shows its own newest published version.

export async function loader({ request, context }: Route.LoaderArgs) {
  const { type, locale } = legalPageOf(new URL(request.url).pathname);
  const tag = locale.tag;
  dependsOn(context, legalKey(type));
  const [document, versions] = await Promise.all([
    loadLegalDocument(type, context.requestId, tag),
    loadLegalVersions(type, context.requestId, tag),
  ]);
  // A language that never had a translation published has no such page (English keeps its error state).
  if (tag !== LEGAL_SOURCE_LOCALE && document.state === "not-found") throw data(null, { status: 404 });
  // Earlier versions: every other published version (a failed history read lists none, the document still shows).
  const earlier =
    document.state === "loaded" && versions ? versions.filter((entry) => entry.version !== document.value.version) : [];
  const newer = document.state === "loaded" ? document.value.newerInSource : undefined;
  // The loader awaits the document so the status is truthful (404 none published, 500 bad content, 503 database).
  return data(
    {
      type,
      path: legalPathIn(type, tag),
      text: legalDocumentText(tag, type),
      document,
      line: document.state === "loaded" ? versionLineText(tag, document.value) : null,
      earlier: earlierVersionsText(tag, earlier, (version) => legalVersionPathIn(type, tag, version)),
      // A newer English version is in force than the one this translation renders: say so, with a link.
      newer: newer
        ? {
            notice: legalMessage(tag, "newerInSource.notice", {
              version: newer.version,
              date: legalDate(newer.lastUpdated, tag),
            }),
            link: legalMessage(tag, "newerInSource.link"),
            path: legalPathIn(type, LEGAL_SOURCE_LOCALE),
          }
        : null,
    },
    { status: statusOf(document) },
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  if (!loaderData) return missingPageMeta(matches);
  const { name, description } = loaderData.text;
  return pageMeta(matches, { title: name, description, path: loaderData.path });
};

export default function LegalDocumentPage({ loaderData }: Route.ComponentProps) {
  const { text, document, line, earlier, newer } = loaderData;
  if (document.state !== "loaded") return <LegalDocumentError name={text.name} text={text.error} document={document} />;

  return (
    <LegalArticle
      document={document.value}
      line={line ?? undefined}
      notice={
        newer ? (
          <div role="note" className="mt-6 rounded-xl border border-amber-300 bg-amber-50 p-4 text-slate-800">
            <p>
              {newer.notice}{" "}
              <Link
                to={newer.path}
                hrefLang="en"
                className="font-medium text-brand-700 underline hover:no-underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
              >
                {newer.link}
              </Link>
            </p>
          </div>
        ) : undefined
      }
    >
      {earlier.entries.length ? <EarlierLegalVersions heading={earlier.heading} entries={earlier.entries} /> : null}
    </LegalArticle>
  );
}
