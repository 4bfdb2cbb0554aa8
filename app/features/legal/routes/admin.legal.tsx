import { data, Link, redirect } from "react-router";
import type { Route } from "./+types/admin.legal";
import {
  legalCompareAdminPath,
  legalVersionAdminPath,
  NewDraftForm,
  TranslateForm,
  VersionStateBadge,
} from "~/features/legal/admin/legal-forms";
import { Notice, PageHeading, Panel } from "~/ui/admin/page-heading";
import { site } from "~/config/site";
import { formatLongDate } from "~/platform/dates";
import { requireAdminForm, requireRole } from "~/features/auth/auth.server";
import { canEditLocale, localeOfContent, requireLocale } from "~/features/auth/locales.server";
import { CATALOGS, SOURCE_LOCALE } from "~/features/i18n/messages.server";
import { formatDateTime } from "~/ui/admin/format";
import { getDb } from "~/db/index.server";
import { legalDocumentTypes } from "~/features/legal/db/legal.server";
import {
  editorOf,
  isLegalDocumentType,
  listTranslationEntries,
  listVersionEntries,
  refusalData,
} from "~/features/legal/admin.server";
import { legalDocuments } from "~/features/legal/documents";
import { createLegalDraft, createLegalTranslation } from "~/features/legal/editing.server";

// Legal documents (legal, owners): every version of each document, the one in force, earlier ones
// and drafts, with what changed in each; starting a new draft. Each published English version
// lists its translations per language (missing, draft, published); a missing one can be started
// here, by whoever may edit its language (a translator limited to it included: the English
// version is only read).

/** Messages another page sends people here with (fixed texts: the query only picks one). */
const DONE = { discarded: "The draft was discarded." } as const;

export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireRole(request, "legal");
  const documents = await Promise.all(
    legalDocumentTypes.map(async (type) => {
      const versions = await listVersionEntries(type);
      const published = versions.filter((version) => version.state !== "draft");
      const translations = await listTranslationEntries(published.map((version) => version.id));
      return {
        type,
        name: legalDocuments[type].name,
        versions: versions.map((version) => {
          // What each version changed: a draft against the version in force, a published one against the one before it.
          const before =
            version.state === "draft" ? published[0] : published[published.findIndex((entry) => entry.id === version.id) + 1];
          return {
            ...version,
            compareFrom: before && before.id !== version.id ? before.id : null,
            translations: (translations.get(version.id) ?? []).map((translation) => ({
              ...translation,
              startable: translation.state === "missing" && canEditLocale(user, translation.locale),
            })),
          };
        }),
      };
    }),
  );
  const done = new URL(request.url).searchParams.get("done");
  return {
    documents,
    // A translator who may not edit English sees its versions named, not linked to an editor that answers 403.
    editsSource: canEditLocale(user, SOURCE_LOCALE),
    done: done && Object.hasOwn(DONE, done) ? DONE[done as keyof typeof DONE] : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const signedIn = await requireAdminForm(request, "legal");
  const { form } = signedIn;
  if (form.get("intent") === "translate") {
    const from = form.get("from");
    const locale = form.get("locale");
    if (typeof from !== "string" || typeof locale !== "string") {
      return data({ problem: "This form is incomplete. Reload the page and try again." }, { status: 400 });
    }
    // The translation is written in its language: the person must be allowed to edit that one.
    // A language without a catalog is refused below, in words.
    if (CATALOGS.has(locale)) requireLocale(signedIn.user, locale);
    const created = await createLegalTranslation(getDb(), editorOf(signedIn, context), { sourceId: from, locale });
    if (!created.ok) return refusalData(created);
    throw redirect(legalVersionAdminPath(created.value.id), 303);
  }
  if (form.get("intent") !== "new-draft") return data({ problem: "Unknown action." }, { status: 400 });
  const type = form.get("type");
  if (!isLegalDocumentType(type)) return data({ problem: "Choose the privacy policy or the terms of use." }, { status: 400 });
  const from = form.get("from");
  // A new draft is in the language of the version it starts from, else the one its form names, else English.
  const named = String(form.get("locale") ?? "");
  const fromLocale = typeof from === "string" && from ? await localeOfContent(getDb(), "legal", from) : undefined;
  requireLocale(signedIn.user, fromLocale ?? (CATALOGS.has(named) ? named : SOURCE_LOCALE));
  const created = await createLegalDraft(getDb(), editorOf(signedIn, context), {
    type,
    fromId: typeof from === "string" && from ? from : undefined,
  });
  if (!created.ok) return refusalData(created);
  throw redirect(legalVersionAdminPath(created.value.id), 303);
}

export const meta: Route.MetaFunction = () => [{ title: `Legal documents | ${site.company} back office` }];

const cell = "border-b border-slate-100 px-3 py-2 text-left align-top";

export default function LegalDocuments({ loaderData, actionData }: Route.ComponentProps) {
  const { documents, done, editsSource } = loaderData;
  const problem = (actionData as { problem?: string } | undefined)?.problem;
  return (
    <>
      <PageHeading title="Legal documents">
        Each document's versions, newest first. A draft goes live when it is published; a published version never changes again
        and stays readable in the public history.
      </PageHeading>
      {problem ? <Notice tone="error">{problem}</Notice> : null}
      {done ? <Notice tone="success">{done}</Notice> : null}
      {documents.map((document) => (
        <Panel key={document.type} title={document.name} id={document.type}>
          <div className="mb-4">
            <NewDraftForm type={document.type}>{`Start a new draft of the ${document.name}`}</NewDraftForm>
          </div>
          {document.versions.length === 0 ? (
            <p className="text-sm text-muted">No versions yet.</p>
          ) : (
            <div className="overflow-x-auto">
              <table className="w-full text-sm">
                <caption className="sr-only">Versions of the {document.name}</caption>
                <thead>
                  <tr className="text-muted">
                    <th scope="col" className={cell}>
                      Version
                    </th>
                    <th scope="col" className={cell}>
                      Effective
                    </th>
                    <th scope="col" className={cell}>
                      State
                    </th>
                    <th scope="col" className={cell}>
                      What changed
                    </th>
                    <th scope="col" className={cell}>
                      By
                    </th>
                    <th scope="col" className={cell}>
                      Translations
                    </th>
                    <th scope="col" className={cell}>
                      <span className="sr-only">Links</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {document.versions.map((version) => (
                    <tr key={version.id}>
                      <td className={cell}>
                        {editsSource ? (
                          <Link to={legalVersionAdminPath(version.id)} className="font-medium text-brand-700 underline">
                            Version {version.version}
                            <span className="sr-only"> of the {document.name}</span>
                          </Link>
                        ) : (
                          <span className="font-medium">
                            Version {version.version}
                            <span className="sr-only"> of the {document.name}</span>
                          </span>
                        )}
                      </td>
                      <td className={cell}>{formatLongDate(version.effectiveDate)}</td>
                      <td className={cell}>
                        <VersionStateBadge state={version.state} />
                      </td>
                      <td className={cell}>{version.changeSummary || <span className="text-muted">—</span>}</td>
                      <td className={cell}>
                        {version.state === "draft" ? (
                          <>
                            {version.authorEmail || "—"}
                            {version.editedAt ? (
                              <span className="block text-muted">saved {formatDateTime(version.editedAt)}</span>
                            ) : null}
                          </>
                        ) : version.publishedAt ? (
                          <>
                            {version.publishedByEmail || "—"}
                            <span className="block text-muted">published {formatDateTime(version.publishedAt)}</span>
                          </>
                        ) : (
                          <span className="text-muted">imported</span>
                        )}
                      </td>
                      <td className={cell}>
                        {version.state === "draft" ? (
                          <span className="text-muted">Once published</span>
                        ) : (
                          <ul className="space-y-1">
                            {version.translations.map((translation) => (
                              <li key={translation.locale} lang={translation.locale}>
                                {translation.id ? (
                                  <Link to={legalVersionAdminPath(translation.id)} className="text-brand-700 underline">
                                    {translation.language}
                                    <span lang="en">: {translation.state === "draft" ? "Draft" : "Published"}</span>
                                  </Link>
                                ) : (
                                  <>
                                    {translation.language}
                                    <span lang="en">
                                      : Missing{" "}
                                      {translation.startable ? (
                                        <TranslateForm fromId={version.id} locale={translation.locale}>
                                          {`Translate into ${translation.language}`}
                                        </TranslateForm>
                                      ) : null}
                                    </span>
                                  </>
                                )}
                              </li>
                            ))}
                          </ul>
                        )}
                      </td>
                      <td className={`${cell} space-x-3 whitespace-nowrap`}>
                        {version.compareFrom ? (
                          <Link to={legalCompareAdminPath(version.compareFrom, version.id)} className="text-brand-700 underline">
                            Changes<span className="sr-only"> in version {version.version}</span>
                          </Link>
                        ) : null}
                        {version.publicPath ? (
                          <a href={version.publicPath} className="text-brand-700 underline">
                            On the site<span className="sr-only"> (version {version.version})</span>
                          </a>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </Panel>
      ))}
    </>
  );
}
