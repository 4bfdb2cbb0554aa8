import type { ReactNode } from "react";
import { Link } from "react-router";
import { formatLongDate, isoDay } from "~/platform/dates";
import type { LegalDocumentView, LegalVersionView } from "~/features/legal/documents";
import type { LoadResult } from "~/platform/load-result";

/** A version line's words in the page's language (page-text.server.ts makes them). */
type VersionLineText = { version: string; lastUpdated: string; date: string; dateTime: string };

/** The error state: its status was already chosen by the loader (404, 500 with the reason, 503). */
export function LegalDocumentError({
  name,
  document,
  text,
}: {
  name: string;
  document: LoadResult<unknown>;
  /** The heading and sentence in the page's language; English when left out. */
  text?: { title: string; text: string };
}) {
  return (
    <div role="alert" className="mx-auto max-w-3xl px-4 py-20 text-center sm:px-6">
      <h1 className="text-3xl font-bold">{text ? text.title : `Error Loading ${name}`}</h1>
      <p className="mt-4 text-muted">
        {text ? text.text : `We're sorry, but we couldn't load the ${name.toLowerCase()} at this time. Please try again later.`}
      </p>
      {document.state === "failed" && document.reason ? <p className="mt-2 text-sm text-muted">{document.reason}</p> : null}
    </div>
  );
}

/** A legal document's page body: title, version line, an optional notice under them, the sections, then `children`. */
export function LegalArticle({
  document,
  line,
  notice,
  children,
}: {
  document: LegalDocumentView;
  /** The version line in the page's language; English when left out. */
  line?: VersionLineText;
  notice?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-14 sm:px-6">
      <header className="border-b border-slate-200 pb-6">
        <h1 className="text-4xl font-extrabold tracking-tight">{document.title}</h1>
        <LegalVersionLine text={line ?? englishLine(document)} />
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

const englishLine = ({ version, lastUpdated }: LegalVersionView): VersionLineText => ({
  version: `Version ${version}`,
  lastUpdated: "Last updated",
  date: formatLongDate(lastUpdated),
  dateTime: isoDay(lastUpdated),
});

/** "Version 2.1 · Last updated June 1, 2025". */
export function LegalVersionLine({ text }: { text: VersionLineText }) {
  return (
    <p className="mt-3 text-sm text-muted">
      {text.version}
      <span aria-hidden="true"> · </span>
      {text.lastUpdated} <time dateTime={text.dateTime}>{text.date}</time>
    </p>
  );
}

/** The earlier published versions, newest first, each linking to its own page (words and addresses from the loader). */
export function EarlierLegalVersions({
  heading,
  entries,
}: {
  heading: string;
  entries: readonly { key: string; path: string; label: string; updated: string; date: string; dateTime: string }[];
}) {
  return (
    <section aria-labelledby="earlier-versions" className="mt-14 border-t border-slate-200 pt-8">
      <h2 id="earlier-versions" className="text-xl font-semibold">
        {heading}
      </h2>
      <ul className="mt-4 space-y-2">
        {entries.map((entry) => (
          <li key={entry.key}>
            <Link
              to={entry.path}
              className="font-medium text-brand-700 underline hover:no-underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
            >
              {entry.label}
            </Link>
            <span className="text-muted">
              {" "}
              {entry.updated} <time dateTime={entry.dateTime}>{entry.date}</time>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
