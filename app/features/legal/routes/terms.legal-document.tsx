import { data } from "react-router";
import type { Route } from "./+types/terms.legal-document";
import { EarlierLegalVersions, LegalArticle, LegalDocumentError } from "~/features/legal/components/legal-document";
import { legalDocumentPath, legalDocumentTypeOf, legalDocuments } from "~/features/legal/documents";
import { loadLegalDocument, loadLegalVersions } from "~/features/legal/documents.server";
import { statusOf } from "~/platform/load-result";
import { pageMeta } from "~/features/site/seo";

// One module serves both legal documents; routes.ts mounts it at each path with its own id.

export async function loader({ request, context }: Route.LoaderArgs) {
  const type = legalDocumentTypeOf(new URL(request.url).pathname);
  const [document, versions] = await Promise.all([
    loadLegalDocument(type, context.requestId),
    loadLegalVersions(type, context.requestId),
  ]);
  // Earlier versions: every other published version (a failed history read lists none, the document still shows).
  const earlier =
    document.state === "loaded" && versions ? versions.filter((entry) => entry.version !== document.value.version) : [];
  // The loader awaits the document so the status is truthful (404 none published, 500 bad content, 503 database).
  return data({ type, document, earlier }, { status: statusOf(document) });
}

export const meta: Route.MetaFunction = ({ matches, location }) => {
  const type = legalDocumentTypeOf(location.pathname);
  const { name, description } = legalDocuments[type];
  return pageMeta(matches, { title: name, description, path: legalDocumentPath(type) });
};

export default function LegalDocumentPage({ loaderData }: Route.ComponentProps) {
  const { name } = legalDocuments[loaderData.type];
  const { document, earlier } = loaderData;
  if (document.state !== "loaded") return <LegalDocumentError name={name} document={document} />;

  return (
    <LegalArticle document={document.value}>
      {earlier.length ? <EarlierLegalVersions type={loaderData.type} versions={earlier} /> : null}
    </LegalArticle>
  );
}
