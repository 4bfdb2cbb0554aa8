import type { ReactNode } from "react";
import { Link } from "react-router";
import { formatLongDate, isoDay } from "~/platform/dates";
import {
  legalVersionPath,
  type LegalDocumentType,
  type LegalDocumentView,
  type LegalVersionView,
} from "~/features/legal/documents";
import type { LoadResult } from "~/platform/load-result";

/** The error state: its status was already chosen by the loader (404, 500 with the reason, 503). */
export function LegalDocumentError({ name, document }: { name: string; document: LoadResult<unknown> }) {
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

/** A legal document's page body: title, version line, an optional notice under them, the sections, then `children`. */
export function LegalArticle({
  document,
  notice,
  children,
}: {
  document: LegalDocumentView;
  notice?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-14 sm:px-6">
      <header className="border-b border-slate-200 pb-6">
        <h1 className="text-4xl font-extrabold tracking-tight">{document.title}</h1>
        <LegalVersionLine version={document.version} lastUpdated={document.lastUpdated} />
        {notice}
      </header>
      <LegalSections document={document} />
      {children}
    </article>
  );
}

/** A legal document's sections: a heading each and its plain-text paragraphs. */
export function LegalSections({ document }: { document: LegalDocumentView }) {
  return document.sections.map((section, index) => (
    <section key={index} className="mt-10">
      <h2 className="text-xl font-semibold">{section.title}</h2>
      {section.paragraphs.map((paragraph, paragraphIndex) => (
        <p key={paragraphIndex} className="mt-3 leading-7 whitespace-pre-line text-slate-700">
          {paragraph}
        </p>
      ))}
    </section>
  ));
}

/** "Version 2.1 · Last updated June 1, 2025". */
export function LegalVersionLine({ version, lastUpdated }: LegalVersionView) {
  return (
    <p className="mt-3 text-sm text-muted">
      Version {version}
      <span aria-hidden="true"> · </span>
      Last updated <time dateTime={isoDay(lastUpdated)}>{formatLongDate(lastUpdated)}</time>
    </p>
  );
}

/** The earlier published versions, newest first, each linking to its own page. */
export function EarlierLegalVersions({ type, versions }: { type: LegalDocumentType; versions: readonly LegalVersionView[] }) {
  return (
    <section aria-labelledby="earlier-versions" className="mt-14 border-t border-slate-200 pt-8">
      <h2 id="earlier-versions" className="text-xl font-semibold">
        Earlier versions
      </h2>
      <ul className="mt-4 space-y-2">
        {versions.map((entry) => (
          <li key={entry.version}>
            <Link
              to={legalVersionPath(type, entry.version)}
              className="font-medium text-brand-700 underline hover:no-underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
            >
              Version {entry.version}
            </Link>
            <span className="text-muted">
              {" "}
              — updated <time dateTime={isoDay(entry.lastUpdated)}>{formatLongDate(entry.lastUpdated)}</time>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
