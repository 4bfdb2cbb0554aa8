import { Form, Link } from "react-router";
import { CsrfField } from "~/ui/admin/csrf-field";
import { TextDiffView } from "~/ui/admin/text-diff";
import { buttonClasses } from "~/ui/button";
import type { TextDiff } from "~/ui/admin/line-diff";

// The translators' parts of the editors and lists of every translatable type: each language's
// status beside a source, the buttons that make a missing translation, and above a translation's
// form, its source and, when the source changed since, what changed and the box that records
// that the translation was brought up to date.

type FieldChange = { field: string; label: string; diff: TextDiff };

type Summary = {
  locale: string;
  language: string;
  status: string;
  statusLabel: string;
  state?: string;
  href?: string;
  /** Missing, and the person looking may edit its language. */
  startable?: boolean;
};

/** The `intent` of a list's "Translate into …" form (its other fields: `source`, `translateInto`). */
export const START_TRANSLATION_INTENT = "translate";

const STATUS_STYLES: Record<string, string> = {
  missing: "bg-slate-100 text-slate-700",
  outdated: "bg-amber-100 text-amber-950",
  current: "bg-green-100 text-green-900",
};

/**
 * A list's Translations cell for one row: a translation names its source, a source lists its
 * translations (TranslationStatusList) with the buttons that start a missing one.
 */
export function TranslationsCell({
  row,
  noun,
  className,
}: {
  row: {
    id: string;
    title: string;
    translationOf?: { language: string; href: string | null } | null;
    translations: readonly Summary[];
  };
  noun: string;
  className: string;
}) {
  return (
    <td className={className}>
      {row.translationOf ? (
        <span className="text-muted">
          {row.translationOf.language} translation of{" "}
          {row.translationOf.href ? (
            <Link to={row.translationOf.href} className="underline">
              its English {noun}
            </Link>
          ) : (
            `its English ${noun}`
          )}
        </span>
      ) : (
        <TranslationStatusList translations={row.translations} noun={noun} start={{ sourceId: row.id, sourceTitle: row.title }} />
      )}
    </td>
  );
}

/**
 * A list's cell: each other language's translation, Missing / Outdated / Current, with its state and
 * a link; with `start`, a missing one the person may make has its "Translate into …" button.
 */
export function TranslationStatusList({
  translations,
  noun,
  start,
}: {
  translations: readonly Summary[];
  noun: string;
  start?: { sourceId: string; sourceTitle: string };
}) {
  if (!translations.length) return null;
  return (
    <ul className="space-y-1">
      {translations.map((entry) => {
        const badge = (
          <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${STATUS_STYLES[entry.status] ?? ""}`}>{entry.statusLabel}</span>
        );
        return (
          <li key={entry.locale} aria-label={`${entry.language}: ${entry.statusLabel}${entry.state ? `, ${entry.state}` : ""}`}>
            {entry.href ? (
              <Link to={entry.href} className="text-brand-700 underline" aria-label={`${entry.language} ${noun}: ${entry.statusLabel}`}>
                {entry.language}
              </Link>
            ) : (
              <span>{entry.language}</span>
            )}{" "}
            {badge}
            {entry.state ? <span className="ml-1 text-xs text-muted">{entry.state}</span> : null}
            {start && entry.startable ? (
              <Form method="post" className="mt-1">
                <CsrfField />
                <input type="hidden" name="intent" value={START_TRANSLATION_INTENT} />
                <input type="hidden" name="source" value={start.sourceId} />
                <button
                  type="submit"
                  name="translateInto"
                  value={entry.locale}
                  className="text-sm font-semibold text-brand-700 underline hover:no-underline"
                >
                  Translate into {entry.language}
                  <span className="sr-only">: {start.sourceTitle}</span>
                </button>
              </Form>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

/** On a source's editor: "Translate into Deutsch" for each language without a translation, and links to the others. */
export function TranslatePanel({ translations, noun }: { translations: readonly Summary[]; noun: string }) {
  if (!translations.length) return null;
  const missing = translations.filter((entry) => entry.startable);
  // The made ones, and a missing one the person may not start (a language they may not edit).
  const made = translations.filter((entry) => !entry.startable);
  return (
    <section aria-labelledby="translations-heading" className="mb-6 rounded-xl border border-slate-200 bg-white p-4 text-sm">
      <h2 id="translations-heading" className="mb-2 font-semibold">
        Translations
      </h2>
      {made.length ? (
        <div className="mb-3">
          <TranslationStatusList translations={made} noun={noun} />
        </div>
      ) : null}
      {missing.length ? (
        <Form method="post" className="flex flex-wrap items-center gap-3">
          <CsrfField />
          {missing.map((entry) => (
            <button key={entry.locale} type="submit" name="translateInto" value={entry.locale} className={buttonClasses("secondary")}>
              Translate into {entry.language}
            </button>
          ))}
          <p className="text-muted">A draft copy of this {noun} to translate; visitors see it once it is published.</p>
        </Form>
      ) : null}
    </section>
  );
}

export type TranslationNoticeProps = {
  language: string;
  sourceTitle: string;
  /** Null for someone who may not open the source's editor (it is beside the fields anyway). */
  sourceHref: string | null;
  sourceRevision: number;
  from: number;
  outdated: boolean;
  changes: readonly FieldChange[];
  noun: string;
};

/**
 * Above a translation's form (inside it: the box is sent with the form): which source it
 * translates, and when that source changed since, the change and the box that records the
 * translation was brought up to date with the source's newest revision.
 */
export function TranslationNotice({ language, sourceTitle, sourceHref, sourceRevision, from, outdated, changes, noun }: TranslationNoticeProps) {
  return (
    <section
      aria-label="Translation"
      className={`rounded-lg border px-4 py-3 text-sm ${outdated ? "border-amber-300 bg-amber-50 text-amber-950" : "border-brand-100 bg-brand-50 text-brand-900"}`}
    >
      <p>
        The {language} translation of the English {noun}{" "}
        {sourceHref ? (
          <Link to={sourceHref} className="underline">
            {sourceTitle}
          </Link>
        ) : (
          <cite className="not-italic">{sourceTitle}</cite>
        )}
        {outdated ? "." : sourceRevision ? `, up to date with its revision ${sourceRevision}.` : ", up to date with it."}
      </p>
      {outdated ? (
        <>
          <p role="status" className="mt-2 font-semibold">
            The English source changed since this translation was made: revision {from} → {sourceRevision}
          </p>
          <details open className="mt-2">
            <summary className="cursor-pointer">What changed in the English source</summary>
            <div className="mt-2">
              {changes.length ? (
                changes.map((change) => <TextDiffView key={change.field} label={change.label} diff={change.diff} />)
              ) : (
                <p>Nothing that is translated (only its history changed).</p>
              )}
            </div>
          </details>
          <div className="mt-2 flex items-center gap-2">
            <input id="translation-up-to-date" type="checkbox" name="sourceRevision" value={sourceRevision} className="size-4" />
            <label htmlFor="translation-up-to-date" className="font-medium">
              Brought up to date with the English revision {sourceRevision}
            </label>
          </div>
        </>
      ) : null}
    </section>
  );
}

/**
 * The source's fields, read-only, beside the translation's: a label and its text each. Its heading
 * is an h3 under the editor's section headings, an h2 where the form has none (the position's groups are fieldsets).
 */
export function SourceFields({
  fields,
  heading = "English source",
  level = 3,
}: {
  fields: readonly { label: string; text: string }[];
  heading?: string;
  level?: 2 | 3;
}) {
  const Heading = level === 2 ? "h2" : "h3";
  return (
    <section aria-label={heading} className="space-y-2 self-start rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm">
      <Heading className="text-xs font-semibold tracking-wide text-muted uppercase">{heading}</Heading>
      <dl className="space-y-2">
        {fields.map((field) => (
          <div key={field.label}>
            <dt className="font-medium">{field.label}</dt>
            <dd className="break-words whitespace-pre-wrap text-slate-700">{field.text || "—"}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
