import { data } from "react-router";
import type { Route } from "./+types/terms.legal-document";
import { formatLongDate, isoDay } from "~/lib/dates";
import type { LegalDocumentType } from "~/lib/db/legal.server";
import { loadLegalDocument } from "~/lib/legal-documents.server";
import { statusOf } from "~/lib/load-result";
import { pageMeta } from "~/lib/seo";

// One module serves both legal documents; routes.ts mounts it at each path with its own id.
const documents = {
  "privacy-policy": {
    name: "Privacy Policy",
    description: "How Quorvant collects, uses, protects and retains personal data, and the rights you have over it.",
  },
  "terms-of-use": {
    name: "Terms of Use",
    description: "The terms that govern your use of the Quorvant website, Sentinel and related services.",
  },
} satisfies Record<LegalDocumentType, { name: string; description: string }>;

function documentTypeOf(pathname: string): LegalDocumentType {
  return pathname.endsWith("/terms-of-use") ? "terms-of-use" : "privacy-policy";
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const type = documentTypeOf(new URL(request.url).pathname);
  const document = await loadLegalDocument(type, context.requestId);
  // The loader awaits the document so the status is truthful (404 none published, 500 bad content, 503 database).
  return data({ type, document }, { status: statusOf(document) });
}

export const meta: Route.MetaFunction = ({ matches, location }) => {
  const type = documentTypeOf(location.pathname);
  const { name, description } = documents[type];
  return pageMeta(matches, { title: name, description, path: `/terms/${type}` });
};

export default function LegalDocumentPage({ loaderData }: Route.ComponentProps) {
  const { name } = documents[loaderData.type];
  const { document } = loaderData;
  if (document.state !== "loaded") {
    return (
      <div role="alert" className="mx-auto max-w-3xl px-4 py-20 text-center sm:px-6">
        <h1 className="text-3xl font-bold">Error Loading {name}</h1>
        <p className="mt-4 text-muted">
          We're sorry, but we couldn't load the {name.toLowerCase()} at this time. Please try again later.
        </p>
        {document.state === "failed" && document.reason ? <p className="mt-2 text-sm text-muted">{document.reason}</p> : null}
      </div>
    );
  }

  const { value } = document;
  return (
    <article className="mx-auto max-w-3xl px-4 py-14 sm:px-6">
      <header className="border-b border-slate-200 pb-6">
        <h1 className="text-4xl font-extrabold tracking-tight">{value.title}</h1>
        <p className="mt-3 text-sm text-muted">
          Version {value.version}
          <span aria-hidden="true"> · </span>
          Last updated <time dateTime={isoDay(value.lastUpdated)}>{formatLongDate(value.lastUpdated)}</time>
        </p>
      </header>
      {value.sections.map((section, index) => (
        <section key={index} className="mt-10">
          <h2 className="text-xl font-semibold">{section.title}</h2>
          {section.paragraphs.map((paragraph, paragraphIndex) => (
            <p key={paragraphIndex} className="mt-3 leading-7 whitespace-pre-line text-slate-700">
              {paragraph}
            </p>
          ))}
        </section>
      ))}
    </article>
  );
}
