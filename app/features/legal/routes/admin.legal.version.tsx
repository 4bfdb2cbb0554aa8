import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/admin.legal.version";
import { CsrfField } from "~/ui/admin/csrf-field";
import { LegalDraftEditor } from "~/features/legal/admin/legal-draft-editor";
import {
  LEGAL_ADMIN_PATH,
  legalCompareAdminPath,
  legalPreviewAdminPath,
  legalVersionAdminPath,
  NewDraftForm,
  PublishDraftForm,
  VersionStateBadge,
} from "~/features/legal/admin/legal-forms";
import { Notice, PageHeading, Panel } from "~/ui/admin/page-heading";
import { LegalSections } from "~/features/legal/components/legal-document";
import { buttonClasses } from "~/ui/button";
import { site } from "~/config/site";
import { requireAdminForm, requireRecentAuthentication, requireRole } from "~/features/auth/auth.server";
import { canEditLocale, requireContentLocale } from "~/features/auth/locales.server";
import { SOURCE_LOCALE } from "~/features/i18n/messages.server";
import { formatDateTime } from "~/ui/admin/format";
import { formatLongDate } from "~/platform/dates";
import { getDb } from "~/db/index.server";
import { findLegalDocument, isValidLegalContent } from "~/features/legal/db/legal.server";
import { findLegalVersionRecord } from "~/features/legal/db/legal-editing.server";
import { editorOf, listVersionEntries, publicViewOf, refusalData, requireLegalVersion } from "~/features/legal/admin.server";
import { INVALID_CONTENT_REASON, legalDocuments } from "~/features/legal/documents";
import { localeName } from "~/features/legal/paths.server";
import {
  applySectionEdit,
  parseSectionEdit,
  readDraftForm,
  salvageSections,
  type DraftErrors,
  type DraftFields,
} from "~/features/legal/drafts";
import { discardLegalDraft, draftFieldsOf, publishLegalDraft, saveLegalDraft } from "~/features/legal/editing.server";

// One version of a legal document (legal, owners). A draft opens in the editor, with its preview,
// publishing and discarding; a published version is shown as it stands, never editable, with a
// way to start a new draft from it. A translation's editor shows the English version it translates
// beside it, section by section; it keeps that version's number and date.

/** The English version a translation translates, and whether it is the one in force (only then may it be published). */
async function translatedSource(translationOf: string | null) {
  if (!translationOf) return null;
  const source = await findLegalVersionRecord(getDb(), translationOf);
  if (!source) return null;
  const inForce = await findLegalDocument(getDb(), source.documentType);
  return {
    id: source.id,
    version: source.version,
    title: source.title,
    sections: salvageSections(source.content),
    inForce: inForce?.id === source.id,
    inForceVersion: inForce ? inForce.version : null,
  };
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { user } = await requireRole(request, "legal");
  await requireContentLocale(user, "legal", params.versionId);
  const record = await requireLegalVersion(params.versionId);
  const entries = await listVersionEntries(record.documentType, record.locale);
  const source = await translatedSource(record.translationOf);
  const entry = entries.find((candidate) => candidate.id === record.id);
  const published = entries.filter((candidate) => candidate.state !== "draft");
  const inForce = published[0];
  // A draft is compared with the version in force; a published version with the one before it.
  const compareWith = record.published ? published[published.findIndex((candidate) => candidate.id === record.id) + 1] : inForce;
  const view = record.published && isValidLegalContent(record.content) ? publicViewOf(record, context.requestId) : undefined;
  return {
    version: {
      id: record.id,
      type: record.documentType,
      name: legalDocuments[record.documentType].name,
      title: record.title,
      version: record.version,
      effectiveDate: record.effectiveDate,
      changeSummary: record.changeSummary,
      authorEmail: record.authorEmail,
      editedAt: record.editedAt,
      publishedAt: record.publishedAt,
      publishedByEmail: record.publishedByEmail,
      revision: record.revision,
      state: entry?.state ?? (record.published ? "superseded" : "draft"),
      publicPath: entry?.publicPath ?? null,
      /** A translation's language, by its own name ("Deutsch"); null for an English version. */
      language: record.translationOf ? localeName(record.locale) : null,
      locale: record.locale,
    },
    source,
    // A translator who may not edit English has the English version named, not linked to an editor that answers 403.
    editsSource: canEditLocale(user, SOURCE_LOCALE),
    fields: record.published ? null : draftFieldsOf(record),
    contentValid: isValidLegalContent(record.content),
    document: view?.state === "loaded" ? view.value : null,
    inForce: inForce && inForce.id !== record.id ? { version: inForce.version, effectiveDate: inForce.effectiveDate } : null,
    compareWith: compareWith && compareWith.id !== record.id ? { id: compareWith.id, version: compareWith.version } : null,
  };
}

type ActionResult = {
  problem?: string;
  done?: string;
  errors?: DraftErrors;
  fields?: DraftFields;
  /** A new key remounts the editor with the answer's fields; focus goes to this section's title. */
  formKey?: string;
  focus?: number;
};

export async function action({ request, params, context }: Route.ActionArgs) {
  const signedIn = await requireAdminForm(request, "legal");
  const { form } = signedIn;
  await requireContentLocale(signedIn.user, "legal", params.versionId);
  const { id, published } = await requireLegalVersion(params.versionId);
  const intent = String(form.get("intent") ?? "");
  const revisionText = String(form.get("revision") ?? "");
  if (!/^\d{1,9}$/.test(revisionText)) {
    return data({ problem: "This form is incomplete. Reload the page and try again." }, { status: 400 });
  }
  const revision = Number(revisionText);
  const editor = editorOf(signedIn, context);

  // Adding, moving and removing sections rearrange the form; nothing is saved until "Save draft".
  const edit = parseSectionEdit(intent);
  if (edit && published) {
    return data({ problem: "A published version is never changed: start a new draft from it." }, { status: 409 });
  }
  if (edit) {
    const fields = readDraftForm(form);
    const { sections, focus } = applySectionEdit(fields.sections, edit);
    return { fields: { ...fields, sections }, focus, formKey: crypto.randomUUID() } satisfies ActionResult;
  }

  switch (intent) {
    case "save":
    case "save-preview": {
      const fields = readDraftForm(form);
      const saved = await saveLegalDraft(getDb(), editor, { id, revision, fields });
      // The person's text stays in the form, with a message next to each field that needs one.
      if (!saved.ok) return refusalData(saved, { fields, formKey: crypto.randomUUID() });
      if (intent === "save-preview") throw redirect(legalPreviewAdminPath(id), 303);
      return { done: saved.value.changed ? "Draft saved." : "Nothing had changed since the last save." } satisfies ActionResult;
    }
    case "publish": {
      const published = await publishLegalDraft(getDb(), editor, { id, revision });
      if (!published.ok) return refusalData(published);
      const { version, type, replaced, locale } = published.value;
      const language = locale ? ` in ${localeName(locale)}` : "";
      return {
        done: `Version ${version} is published: it is now the ${legalDocuments[type].name}${language} on the site${
          replaced ? `, and version ${replaced} is in its history` : ""
        }.`,
      } satisfies ActionResult;
    }
    case "discard": {
      // Deleting content asks for a recent proof of identity, as every destructive action does.
      requireRecentAuthentication(signedIn, legalVersionAdminPath(id));
      const discarded = await discardLegalDraft(getDb(), editor, { id, revision });
      if (!discarded.ok) return refusalData(discarded);
      throw redirect(`${LEGAL_ADMIN_PATH}?done=discarded`, 303);
    }
    default:
      return data({ problem: "Unknown action." }, { status: 400 });
  }
}

export const meta: Route.MetaFunction = ({ data: loaded }) => [
  {
    title: `${loaded ? `${loaded.version.name} ${loaded.version.version}` : "Legal document"} | ${site.company} back office`,
  },
];

export default function LegalVersion({ loaderData, actionData }: Route.ComponentProps) {
  const { version, fields, contentValid, document, compareWith, source, editsSource } = loaderData;
  const result = actionData as ActionResult | undefined;
  const isDraft = version.state === "draft" && fields;
  const translation = version.language ? ` (${version.language} translation)` : "";
  return (
    <>
      <p className="mb-2 text-sm">
        <Link to={LEGAL_ADMIN_PATH} className="text-brand-700 underline">
          Legal documents
        </Link>
        {source ? (
          <>
            {" · "}
            {editsSource ? (
              <Link to={legalVersionAdminPath(source.id)} className="text-brand-700 underline">
                English version {source.version}
              </Link>
            ) : (
              `English version ${source.version}`
            )}
          </>
        ) : null}
      </p>
      <PageHeading
        title={`${version.name}, ${isDraft ? "draft " : ""}version ${version.version}${translation}`}
        actions={<VersionStateBadge state={version.state} />}
      >
        {isDraft
          ? `Started by ${version.authorEmail || "another tool"}${version.editedAt ? `; last saved ${formatDateTime(version.editedAt)}` : ""}.`
          : `Effective ${formatLongDate(version.effectiveDate)}${
              version.publishedAt ? `; published ${formatDateTime(version.publishedAt)} by ${version.publishedByEmail}` : ""
            }.`}
      </PageHeading>
      {result?.problem ? <Notice tone="error">{result.problem}</Notice> : null}
      {result?.done ? <Notice tone="success">{result.done}</Notice> : null}
      {isDraft ? (
        <DraftPanels loaderData={loaderData} result={result} fields={fields} />
      ) : (
        <>
          {!contentValid ? (
            <Notice tone="error">
              {INVALID_CONTENT_REASON}: the public page shows an error instead of this version. Start a new draft to replace it.
            </Notice>
          ) : null}
          <Panel title="About this version" id="about">
            <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
              <dt className="font-medium">What changed</dt>
              <dd>{version.changeSummary || "—"}</dd>
              <dt className="font-medium">Effective date</dt>
              <dd>{formatLongDate(version.effectiveDate)}</dd>
              <dt className="font-medium">Written by</dt>
              <dd>{version.authorEmail || "—"}</dd>
            </dl>
            <div className="mt-4 flex flex-wrap items-center gap-4">
              {version.language ? null : (
                <NewDraftForm type={version.type} fromId={version.id} variant="secondary">
                  Start a new draft from this version
                </NewDraftForm>
              )}
              {compareWith ? (
                <Link to={legalCompareAdminPath(compareWith.id, version.id)} className="text-sm text-brand-700 underline">
                  Changes since version {compareWith.version}
                </Link>
              ) : null}
              {version.publicPath ? (
                <a href={version.publicPath} className="text-sm text-brand-700 underline">
                  See it on the site
                </a>
              ) : null}
            </div>
          </Panel>
          {document ? (
            <Panel title="Text" id="text">
              <h3 className="text-xl font-bold" lang={version.locale}>
                {document.title}
              </h3>
              <LegalSections document={document} />
            </Panel>
          ) : null}
        </>
      )}
    </>
  );
}

function DraftPanels({
  loaderData,
  result,
  fields,
}: {
  loaderData: Route.ComponentProps["loaderData"];
  result: ActionResult | undefined;
  fields: DraftFields;
}) {
  const { version, contentValid, inForce, compareWith, source } = loaderData;
  return (
    <>
      {!contentValid ? (
        <Notice tone="error">
          {INVALID_CONTENT_REASON}: the saved content of this draft is not a valid legal document, so it cannot be published. The
          form shows what could be read of it; fix the sections and save.
        </Notice>
      ) : null}
      <Panel title="Edit" id="edit">
        <LegalDraftEditor
          key={result?.formKey ?? `revision-${version.revision}`}
          fields={result?.fields ?? fields}
          errors={result?.errors ?? {}}
          revision={version.revision}
          focusSection={result?.focus}
          source={source ? { title: source.title, sections: source.sections, version: source.version } : undefined}
          locale={version.locale}
        />
      </Panel>
      <Panel title="Publish" id="publish">
        {source && !source.inForce ? (
          <Notice tone="error">
            {`This translates version ${source.version}, which is not the version in force in English${
              source.inForceVersion ? ` (version ${source.inForceVersion} is)` : ""
            }: it cannot be published. Translate the version in force instead.`}
          </Notice>
        ) : null}
        <p className="text-sm">
          Publishing makes the draft as last saved the {version.name}
          {version.language ? ` in ${version.language}` : ""} on the site
          {inForce
            ? ` in place of version ${inForce.version} (effective ${formatLongDate(inForce.effectiveDate)}), which moves to the public history`
            : ""}
          . It is checked first, as the public page checks it. A published version is never changed again.
        </p>
        <div className="mt-4 flex flex-wrap items-center gap-4">
          <PublishDraftForm id={version.id} revision={version.revision} version={version.version} />
          <Link to={legalPreviewAdminPath(version.id)} className="text-sm text-brand-700 underline">
            Preview the saved draft
          </Link>
          {compareWith ? (
            <Link to={legalCompareAdminPath(compareWith.id, version.id)} className="text-sm text-brand-700 underline">
              Changes since version {compareWith.version}
            </Link>
          ) : null}
        </div>
      </Panel>
      <Panel title="Discard" id="discard">
        <Form method="post" className="flex flex-wrap items-center gap-4">
          <CsrfField />
          <input type="hidden" name="intent" value="discard" />
          <input type="hidden" name="revision" value={version.revision} />
          <p className="text-sm text-muted">Deletes this draft. The audit log keeps a note of it.</p>
          <button type="submit" className={buttonClasses("danger")}>
            Discard this draft
          </button>
        </Form>
      </Panel>
    </>
  );
}
