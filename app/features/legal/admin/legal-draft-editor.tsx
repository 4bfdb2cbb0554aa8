import { useEffect, useRef, type ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { CsrfField } from "~/ui/admin/csrf-field";
import { buttonClasses } from "~/ui/button";
import { DRAFT_FIELD_NAMES, LEGAL_LIMITS, type DraftErrors, type DraftFields, type DraftSection } from "~/features/legal/drafts";

// The draft editor: a plain form that works without JavaScript. Adding, moving and removing
// sections are submit buttons too: the server answers with the rearranged form (nothing is saved
// until "Save draft"). With JavaScript the same round trip happens in place and focus follows the
// section that moved. A translation's editor shows its English version beside it, section by section
// (the English text on the left, the translation's fields on the right); its number and date are the
// English version's and cannot be changed.

const inputClasses =
  "mt-1.5 block w-full rounded-lg border border-slate-300 px-3 py-2 aria-invalid:border-red-700 focus-visible:outline-2 focus-visible:outline-brand-600";
const smallButton =
  "rounded-md border border-slate-300 bg-white px-2.5 py-1 text-xs font-semibold hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50";

export type DraftEditorProps = {
  fields: DraftFields;
  errors: DraftErrors;
  revision: number;
  /** Which section's title gets focus after a section button (with JavaScript). */
  focusSection?: number;
  /** A translation's English version, shown beside the fields. */
  source?: { title: string; version: string; sections: readonly DraftSection[] };
  /** The language of the text typed in (a translation's). */
  locale?: string;
};

export function LegalDraftEditor({ fields, errors, revision, focusSection, source, locale }: DraftEditorProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  useEffect(() => {
    if (focusSection === undefined) return;
    formRef.current?.querySelector<HTMLInputElement>(`#section-${focusSection}-title`)?.focus();
  }, [focusSection]);
  const sectionCount = fields.sections.length;

  return (
    <Form method="post" ref={formRef} noValidate aria-label="Draft" className="space-y-5">
      <CsrfField />
      <input type="hidden" name="revision" value={revision} />
      {/* First in the form: Enter in a one-line field saves, rather than pressing a section's button. */}
      <div className="sticky top-0 z-10 -mx-5 flex flex-wrap gap-2 border-b border-slate-100 bg-white/95 px-5 py-3">
        <button type="submit" name="intent" value="save" disabled={busy} className={buttonClasses()}>
          Save draft
        </button>
        <button type="submit" name="intent" value="save-preview" disabled={busy} className={buttonClasses("secondary")}>
          Save and preview
        </button>
      </div>

      <SideBySide source={source ? <SourceText title="English title" text={source.title} /> : null}>
        <Field id="draft-title" label="Document title" error={errors.title}>
          {(control) => (
            <input
              {...control}
              name={DRAFT_FIELD_NAMES.title}
              defaultValue={fields.title}
              required
              lang={locale}
              maxLength={LEGAL_LIMITS.title}
              className={inputClasses}
            />
          )}
        </Field>
      </SideBySide>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field
          id="draft-version"
          label="Version number"
          hint={
            source
              ? `A translation keeps the number of the English version it translates (${source.version}).`
              : "Digits and dots, such as 2.2. Each version has its own."
          }
          error={errors.version}
        >
          {(control) => (
            <input
              {...control}
              name={DRAFT_FIELD_NAMES.version}
              defaultValue={fields.version}
              readOnly={Boolean(source)}
              required
              inputMode="decimal"
              maxLength={24}
              className={inputClasses}
            />
          )}
        </Field>
        <Field
          id="draft-effective-date"
          label="Effective date"
          hint={
            source
              ? "The English version's date: a translation takes effect with it."
              : "Shown as “Last updated” on the page; it cannot be in the future when you publish."
          }
          error={errors.effectiveDate}
        >
          {(control) => (
            <input
              {...control}
              type="date"
              name={DRAFT_FIELD_NAMES.effectiveDate}
              defaultValue={fields.effectiveDate}
              readOnly={Boolean(source)}
              required
              className={inputClasses}
            />
          )}
        </Field>
      </div>
      <Field
        id="draft-change-summary"
        label="What changed"
        hint="One or two sentences for the history and the audit log."
        error={errors.changeSummary}
      >
        {(control) => (
          <textarea
            {...control}
            name={DRAFT_FIELD_NAMES.changeSummary}
            defaultValue={fields.changeSummary}
            required
            rows={2}
            lang={locale}
            className={inputClasses}
          />
        )}
      </Field>

      <fieldset aria-describedby={errors.sections ? "sections-error" : undefined}>
        <legend className="text-base font-semibold">Sections</legend>
        <p className="mt-1 text-sm text-muted">
          Each section is a heading and its text; a blank line starts a new paragraph. No HTML or Markdown is interpreted.
        </p>
        {errors.sections ? (
          <p id="sections-error" className="mt-2 text-sm text-red-700">
            {errors.sections}
          </p>
        ) : null}
        <ol className="mt-4 space-y-4">
          {fields.sections.map((section, index) => {
            const number = index + 1;
            const sectionErrors = errors.section?.[index] ?? {};
            const sourceSection = source?.sections[index];
            return (
              <li key={index} className="rounded-lg border border-slate-200 p-4">
                <SideBySide
                  source={
                    source ? (
                      sourceSection ? (
                        <SourceText title={`English section ${number}: ${sourceSection.title}`} text={sourceSection.content} />
                      ) : (
                        <p className="text-sm text-muted">The English version has no section {number}.</p>
                      )
                    ) : null
                  }
                >
                  <fieldset>
                    <legend className="text-sm font-semibold">Section {number}</legend>
                    <Field id={`section-${index}-title`} label={`Section ${number} title`} error={sectionErrors.title}>
                      {(control) => (
                        <input
                          {...control}
                          name={DRAFT_FIELD_NAMES.sectionTitle}
                          defaultValue={section.title}
                          lang={locale}
                          required
                          maxLength={LEGAL_LIMITS.sectionTitle}
                          className={inputClasses}
                        />
                      )}
                    </Field>
                    <div className="mt-3">
                      <Field id={`section-${index}-text`} label={`Section ${number} text`} error={sectionErrors.content}>
                        {(control) => (
                          <textarea
                            {...control}
                            name={DRAFT_FIELD_NAMES.sectionText}
                            defaultValue={section.content}
                            lang={locale}
                            required
                            rows={Math.min(16, Math.max(4, Math.ceil(section.content.length / 90)))}
                            className={`${inputClasses} font-mono text-sm`}
                          />
                        )}
                      </Field>
                    </div>
                    <div className="mt-3 flex flex-wrap gap-2">
                      <button
                        type="submit"
                        name="intent"
                        value={`up:${index}`}
                        disabled={busy || index === 0}
                        className={smallButton}
                      >
                        Move up<span className="sr-only"> section {number}</span>
                      </button>
                      <button
                        type="submit"
                        name="intent"
                        value={`down:${index}`}
                        disabled={busy || index === sectionCount - 1}
                        className={smallButton}
                      >
                        Move down<span className="sr-only"> section {number}</span>
                      </button>
                      <button
                        type="submit"
                        name="intent"
                        value={`remove:${index}`}
                        disabled={busy}
                        className={`${smallButton} text-red-700`}
                      >
                        Remove<span className="sr-only"> section {number}</span>
                      </button>
                    </div>
                  </fieldset>
                </SideBySide>
              </li>
            );
          })}
        </ol>
        <button
          type="submit"
          name="intent"
          value="add-section"
          disabled={busy || sectionCount >= LEGAL_LIMITS.sections}
          className={`${buttonClasses("secondary")} mt-4`}
        >
          Add a section
        </button>
      </fieldset>
    </Form>
  );
}

/** The English text beside a translation's field; without a source, the field alone. */
function SideBySide({ source, children }: { source: ReactNode; children: ReactNode }) {
  if (!source) return children;
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <div lang="en" className="rounded-md bg-slate-50 p-3">
        {source}
      </div>
      <div>{children}</div>
    </div>
  );
}

function SourceText({ title, text }: { title: string; text: string }) {
  return (
    <>
      <p className="text-sm font-semibold">{title}</p>
      <p className="mt-1.5 text-sm leading-6 whitespace-pre-line text-slate-700">{text}</p>
    </>
  );
}

type ControlProps = { id: string; "aria-invalid": true | undefined; "aria-describedby": string | undefined };

/** A labelled control with its hint and error tied to it (aria-describedby), the error next to it. */
function Field({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  children: (control: ControlProps) => ReactNode;
}) {
  const described = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="mt-0.5 text-xs text-muted">
          {hint}
        </p>
      ) : null}
      {children({ id, "aria-invalid": error ? true : undefined, "aria-describedby": described })}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
