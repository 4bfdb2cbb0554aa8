import type { ComponentType, ReactNode } from "react";
import type { FormProps } from "react-router";
import { CopyField } from "~/ui/admin/copy-field";
import { CsrfField } from "~/ui/admin/csrf-field";
import { Panel } from "~/ui/admin/page-heading";
import { buttonClasses } from "~/ui/button";

// "Share a preview" on a document's editor (a post, a page): how long the signed link works, the
// button that makes it (intent "preview-link", answered by the editor's action), and the link.

export function PreviewLinkPanel({
  noun,
  days,
  form: FormElement,
  answer,
  children,
}: {
  noun: string;
  days: { default: number; max: number };
  /** The router's Form, or a fetcher's (so the editor's own form keeps what is typed in it). */
  form: ComponentType<FormProps>;
  answer?: { previewLink?: string; previewExpires?: string; previewError?: string };
  /** More ways to preview, under the form. */
  children?: ReactNode;
}) {
  return (
    <div className="mt-8">
      <Panel title="Share a preview" id="preview">
        <p className="text-sm text-muted">
          A private link to the {noun} as it will look, for a reviewer without an account. It shows the last saved version and works
          until it expires; anyone with the link can open it.
        </p>
        <FormElement method="post" className="mt-3 flex flex-wrap items-end gap-3">
          <CsrfField />
          <div>
            <label htmlFor="preview-days" className="block text-sm font-medium">
              Valid for (days)
            </label>
            <input
              id="preview-days"
              name="days"
              type="number"
              min={1}
              max={days.max}
              defaultValue={days.default}
              className="mt-1.5 w-28 rounded-lg border border-slate-300 px-3 py-2"
            />
          </div>
          <button type="submit" name="intent" value="preview-link" className={buttonClasses("secondary")}>
            Make preview link
          </button>
        </FormElement>
        {children}
        {answer?.previewError ? <p className="mt-2 text-sm text-red-700">{answer.previewError}</p> : null}
        {answer?.previewLink ? (
          <>
            <CopyField label="Preview link" value={answer.previewLink} />
            <p className="mt-1 text-sm text-muted">Valid until {answer.previewExpires}.</p>
          </>
        ) : null}
      </Panel>
    </div>
  );
}
