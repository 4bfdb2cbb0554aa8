import { Form } from "react-router";
import { CsrfField } from "~/ui/admin/csrf-field";
import { buttonClasses } from "~/ui/button";
import type { LegalDocumentType } from "~/features/legal/documents";

// The legal pages' small forms, posted from more than one page: starting a draft (the list, a
// published version) and publishing one (its editor, its preview).

export const LEGAL_ADMIN_PATH = "/admin/legal";

export function legalVersionAdminPath(id: string): string {
  return `${LEGAL_ADMIN_PATH}/versions/${id}`;
}

export function legalPreviewAdminPath(id: string): string {
  return `${legalVersionAdminPath(id)}/preview`;
}

export function legalCompareAdminPath(from: string, to: string): string {
  return `${LEGAL_ADMIN_PATH}/compare?${new URLSearchParams({ from, to })}`;
}

/** Starts a new draft of `type` from version `fromId` (else from the version in force). */
export function NewDraftForm({
  type,
  fromId,
  children,
  variant = "primary",
}: {
  type: LegalDocumentType;
  fromId?: string;
  children: string;
  variant?: "primary" | "secondary";
}) {
  return (
    <Form method="post" action={LEGAL_ADMIN_PATH}>
      <CsrfField />
      <input type="hidden" name="intent" value="new-draft" />
      <input type="hidden" name="type" value={type} />
      {fromId ? <input type="hidden" name="from" value={fromId} /> : null}
      <button type="submit" className={buttonClasses(variant)}>
        {children}
      </button>
    </Form>
  );
}

/** Starts the translation of English version `fromId` into `locale`, as a draft (the button's words say which). */
export function TranslateForm({ fromId, locale, children }: { fromId: string; locale: string; children: string }) {
  return (
    <Form method="post" action={LEGAL_ADMIN_PATH} className="inline">
      <CsrfField />
      <input type="hidden" name="intent" value="translate" />
      <input type="hidden" name="from" value={fromId} />
      <input type="hidden" name="locale" value={locale} />
      <button type="submit" className="text-sm font-semibold text-brand-700 underline hover:no-underline">
        {children}
      </button>
    </Form>
  );
}

/** Publishes the draft exactly as saved at `revision`: what the page showing this button shows. */
export function PublishDraftForm({ id, revision, version }: { id: string; revision: number; version: string }) {
  return (
    <Form method="post" action={legalVersionAdminPath(id)}>
      <CsrfField />
      <input type="hidden" name="intent" value="publish" />
      <input type="hidden" name="revision" value={revision} />
      <button type="submit" className={buttonClasses()}>
        Publish version {version}
      </button>
    </Form>
  );
}

const stateStyles = {
  "in force": "bg-green-50 text-green-900 border-green-200",
  superseded: "bg-slate-50 text-slate-700 border-slate-200",
  draft: "bg-amber-50 text-amber-950 border-amber-300",
} as const;

export function VersionStateBadge({ state }: { state: keyof typeof stateStyles }) {
  const label = { "in force": "In force", superseded: "Superseded", draft: "Draft" }[state];
  return (
    <span className={`inline-block rounded-full border px-2 py-0.5 text-xs font-semibold ${stateStyles[state]}`}>{label}</span>
  );
}
