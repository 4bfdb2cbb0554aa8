import type { MouseEvent, ReactNode } from "react";
import { Link, useSearchParams } from "react-router";
import { ARTICLE_BODY_CLASSES } from "~/ui/article-body";
import {
  applicationPath,
  POSITION_DESCRIPTION_ID,
  type PositionListEntry,
  type PositionView,
} from "~/features/careers/positions";
import type { PositionTexts } from "~/features/careers/careers-texts";
import { site } from "~/config/site";
import { buttonClasses } from "~/ui/button";
import { documentHtmlElementId, useDocumentHtml } from "~/platform/document-html";
import { textsOf } from "~/ui/route-texts";
import { useShellText } from "~/ui/shell-text";

// A position's public page: what the job is, where, for what pay, and the Apply button that opens
// the application form with the position named in it. A closed position's page says so and lists
// the positions still open. Its words come with the page's data, in its language (careers-texts.ts),
// its links lead to the careers page of that language.

type Text = ReturnType<typeof textsOf<keyof PositionTexts>>;

/**
 * Without JavaScript the careers page's application form, carrying the position; with it, the
 * form opens here as a modal (?apply=1, as the careers page's own Apply Now).
 */
function ApplyButton({ position, t }: { position: PositionView; t: Text }) {
  const [, setSearchParams] = useSearchParams();
  const { links } = useShellText();
  const open = (event: MouseEvent) => {
    if (event.button || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    setSearchParams(
      (params) => {
        const next = new URLSearchParams(params);
        next.set("apply", "1");
        return next;
      },
      { preventScrollReset: true },
    );
  };
  return (
    <a href={applicationPath(position.id, links.careers)} onClick={open} className={buttonClasses("primary")}>
      {t("shell.position.apply")}
    </a>
  );
}

function Facts({ position, t }: { position: PositionView; t: Text }) {
  const facts: [string, ReactNode][] = [
    [t("shell.careers.team"), position.team],
    [t("shell.careers.location"), position.locations.join(", ")],
    // Remote work says where applicants may live ("Remote (European Union)").
    [t("shell.careers.workplace"), position.remote ? position.where : position.workplace],
    [t("shell.position.employmentType"), position.employmentType],
  ];
  if (position.pay) facts.push([t("shell.position.pay"), position.pay]);
  return (
    <dl className="mt-8 grid gap-x-8 gap-y-4 sm:grid-cols-2">
      {facts.map(([term, value]) => (
        <div key={term}>
          <dt className="text-sm font-semibold tracking-wider text-brand-700 uppercase">{term}</dt>
          <dd className="mt-1 text-lg text-ink">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function ListSection({ title, items }: { title: string; items: readonly string[] }) {
  if (!items.length) return null;
  return (
    <section className="mt-12" aria-label={title}>
      <h2 className="text-2xl font-bold tracking-tight">{title}</h2>
      <ul className="mt-5 list-disc space-y-2 pl-6 text-lg leading-8 text-slate-800">
        {items.map((item, index) => (
          <li key={index}>{item}</li>
        ))}
      </ul>
    </section>
  );
}

export function PositionArticle({
  position,
  descriptionHtml,
  application,
  texts,
  preview = false,
}: {
  position: PositionView;
  descriptionHtml: string | undefined;
  application: ReactNode;
  texts: PositionTexts;
  /** A draft shown to its recruiter or a reviewer: no Apply button (nobody applies to a draft). */
  preview?: boolean;
}) {
  const html = useDocumentHtml(POSITION_DESCRIPTION_ID, descriptionHtml);
  const { links } = useShellText();
  const t = textsOf(texts);
  return (
    <article className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
      <Link to={links.careers} className="text-base font-semibold text-brand-700 hover:underline">
        {t("shell.position.allPositions")}
      </Link>
      <header className="mt-6">
        <p className="text-sm font-semibold tracking-wider text-brand-700 uppercase">{position.team}</p>
        <h1 className="mt-2 text-4xl font-extrabold tracking-tight sm:text-5xl">{position.title}</h1>
        {position.summary ? <p className="mt-4 text-xl text-muted">{position.summary}</p> : null}
        <Facts position={position} t={t} />
        {preview ? null : (
          <div className="mt-8">
            <ApplyButton position={position} t={t} />
          </div>
        )}
      </header>
      <div
        className={`mt-10 ${ARTICLE_BODY_CLASSES}`}
        id={documentHtmlElementId(POSITION_DESCRIPTION_ID)}
        // Trusted: produced on the server by renderMarkup, which escapes all text and emits only allow-listed markup.
        dangerouslySetInnerHTML={{ __html: html }}
      />
      <ListSection title={t("shell.position.responsibilities")} items={position.responsibilities} />
      <ListSection title={t("shell.position.requirements")} items={position.requirements} />
      {preview ? null : (
        <div className="mt-12 border-t border-slate-200 pt-8">
          <ApplyButton position={position} t={t} />
        </div>
      )}
      {application}
    </article>
  );
}

/** The positions still open, as links with where each is. */
function OpenPositionList({ positions, t }: { positions: readonly PositionListEntry[]; t: Text }) {
  if (!positions.length) return <p className="mt-4 text-lg text-muted">{t("shell.careers.noPositions")}</p>;
  return (
    <ul className="mt-6 divide-y divide-slate-200 border-y border-slate-200">
      {positions.map((position) => (
        <li key={position.id} className="py-4">
          <Link to={position.path} className="text-lg font-semibold text-brand-700 hover:underline">
            {position.title}
          </Link>
          <p className="mt-1 text-base text-muted">
            {position.team} · {position.where}
          </p>
        </li>
      ))}
    </ul>
  );
}

export function ClosedPosition({
  title,
  open,
  texts,
}: {
  title: string;
  open: readonly PositionListEntry[];
  texts: PositionTexts;
}) {
  const { links } = useShellText();
  const t = textsOf(texts);
  return (
    <div className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
      <h1 className="text-4xl font-extrabold tracking-tight">{title}</h1>
      <p className="mt-4 text-xl text-muted">{t("shell.position.closed")}</p>
      <h2 className="mt-12 text-2xl font-bold tracking-tight">{t("shell.position.openPositions")}</h2>
      <OpenPositionList positions={open} t={t} />
      <p className="mt-8">
        <Link to={links.careers} className="text-base font-semibold text-brand-700 hover:underline">
          {t("shell.position.careersAt", { company: site.company })}
        </Link>
      </p>
    </div>
  );
}

/** A position's page that could not be read. */
export function PositionLoadError({ texts }: { texts: PositionTexts }) {
  const t = textsOf(texts);
  return (
    <div role="alert" className="mx-auto max-w-3xl px-4 py-20 text-center sm:px-6">
      <h1 className="text-3xl font-bold">{t("shell.pageError.title")}</h1>
      <p className="mt-4 text-muted">{t("shell.pageError.text")}</p>
    </div>
  );
}
