import { Link } from "react-router";
import type { Route } from "./+types/admin.legal.preview";
import { legalVersionAdminPath, PublishDraftForm } from "~/features/legal/admin/legal-forms";
import { LegalArticle, LegalDocumentError } from "~/features/legal/components/legal-document";
import { site } from "~/config/site";
import { requireRole } from "~/features/auth/auth.server";
import { requireContentLocale } from "~/features/auth/locales.server";
import { formatDateTime } from "~/ui/admin/format";
import { listVersionEntries, publicViewOf, requireLegalVersion } from "~/features/legal/admin.server";
import { legalDocuments } from "~/features/legal/documents";
import { versionLineText } from "~/features/legal/page-text.server";

// A version of a legal document (a draft, usually) as visitors would see it: the public site's
// frame and the public page's own rendering and content check, under a banner saying what it is.

/** The back office's layout draws the public frame around this page instead of its own. */
export const handle = { publicFrame: true };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = await requireRole(request, "legal");
  await requireContentLocale(user, "legal", params.versionId);
  const record = await requireLegalVersion(params.versionId);
  const inForce = (await listVersionEntries(record.documentType, record.locale)).find((entry) => entry.state === "in force");
  const document = publicViewOf(record, context.requestId);
  // A translation is previewed in its own language's words, as its public page shows it.
  const line = document.state === "loaded" ? versionLineText(record.locale, document.value) : null;
  return {
    version: {
      id: record.id,
      name: legalDocuments[record.documentType].name,
      version: record.version,
      published: record.published,
      revision: record.revision,
      editedAt: record.editedAt,
    },
    inForce: inForce ? { id: inForce.id, version: inForce.version } : null,
    document,
    line,
  };
}

export const meta: Route.MetaFunction = ({ data: loaded }) => [
  { title: `Preview: ${loaded?.version.name ?? "legal document"} | ${site.company} back office` },
  { name: "robots", content: "noindex, nofollow" },
];

export default function LegalPreview({ loaderData }: Route.ComponentProps) {
  const { version, inForce, document, line } = loaderData;
  const isDraft = !version.published;
  return (
    <>
      <div className="mx-auto max-w-3xl px-4 pt-8 sm:px-6">
        <div role="note" className="rounded-xl border border-amber-300 bg-amber-50 px-5 py-4 text-amber-950">
          <p className="font-semibold">{isDraft ? "Preview — not published" : "Preview of a published version"}</p>
          <p className="mt-1 text-sm">
            {isDraft
              ? `Draft version ${version.version} of the ${version.name}${
                  version.editedAt ? `, as saved ${formatDateTime(version.editedAt)}` : ""
                }. Visitors ${inForce ? `see version ${inForce.version}` : "see no " + version.name} until it is published.`
              : `Version ${version.version} of the ${version.name}${inForce?.id === version.id ? ", in force now" : ", superseded"}.`}
          </p>
          <div className="mt-3 flex flex-wrap items-center gap-4">
            {isDraft && document.state === "loaded" ? (
              <PublishDraftForm id={version.id} revision={version.revision} version={version.version} />
            ) : null}
            <Link to={legalVersionAdminPath(version.id)} className="text-sm font-medium text-amber-950 underline">
              {isDraft ? "Back to the draft" : "Back to the version"}
            </Link>
          </div>
        </div>
      </div>
      {document.state === "loaded" ? (
        <LegalArticle document={document.value} line={line ?? undefined} />
      ) : (
        <LegalDocumentError name={version.name} document={document} />
      )}
    </>
  );
}
