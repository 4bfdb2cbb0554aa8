import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/admin.pages";
import { CsrfField } from "~/ui/admin/csrf-field";
import { LabelledControl } from "~/ui/admin/labelled-control";
import { Notice, PageHeading, Panel } from "~/ui/admin/page-heading";
import { formatDateTime } from "~/ui/admin/format";
import { timeZoneOf } from "~/ui/admin/time-zone";
import { buttonClasses } from "~/ui/button";
import { site } from "~/config/site";
import { requireAdminForm, requireRole } from "~/features/auth/auth.server";
import { canEditLocale, localeProblem } from "~/features/auth/locales.server";
import { documentLocaleOf } from "~/features/content/locales.server";
import { getDb } from "~/db/index.server";
import { listPagesForEditors } from "~/features/pages/page-documents.server";
import { newPageDraft, PAGE_STATE_LABELS, savePageDraft } from "~/features/pages/page-editor.server";
import { getEnv } from "~/env.server";
import { translationOfCell } from "~/features/content/translation-editor.server";
import { SOURCE_LOCALE } from "~/features/content/document-locale";
import { summarizeTranslations, translationLocales, translationStates } from "~/features/content/translations.server";
import { startTranslationFromList } from "~/features/content/translation-start.server";
import { START_TRANSLATION_INTENT, TranslationsCell } from "~/features/content/admin/translations";

// Pages (editors): every page of the site made of blocks, whatever its state, the latest change
// first; and a new page at a path of the editor's choosing (a campaign's landing page, a page per
// industry), which starts as an unpublished draft with a hero. A missing translation can be started
// here too, by whoever may edit its language (a translator who may not open the English page).

const ROLE = "editor";

export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireRole(request, ROLE);
  const zone = timeZoneOf(request);
  const pages = await listPagesForEditors(getDb());
  // Each English page's translations into the site's other languages (none on an English-only site).
  const locales = translationLocales(getEnv().SITE_LOCALES);
  const sources = pages.filter((page) => page.locale === SOURCE_LOCALE && !page.translationOf).map((page) => page.id);
  const states = await translationStates(getDb(), "page", sources, locales);
  return {
    translating: locales.length > 0,
    pages: pages.map((page) => ({
      translations: summarizeTranslations(states.get(page.id), (locale) => canEditLocale(user, locale)),
      translationOf: translationOfCell(user, page, (id) => `/admin/pages/${id}`),
      id: page.id,
      path: page.path,
      title: page.title,
      state: PAGE_STATE_LABELS[page.state],
      publishAt: page.publishAt ? formatDateTime(page.publishAt, zone) : null,
      updatedAt: formatDateTime(page.updatedAt, zone),
      updatedBy: page.updatedByEmail || "the content import",
    })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user, form } = await requireAdminForm(request, ROLE);
  if (form.get("intent") === START_TRANSLATION_INTENT)
    return startTranslationFromList("page", user, form, { actor: { id: user.id, email: user.email }, ip: context.clientIp });
  const values = { path: String(form.get("path") ?? "").trim(), title: String(form.get("title") ?? "").trim() };
  const locale = documentLocaleOf(values.path);
  if (!canEditLocale(user, locale)) return data({ values, errors: { path: localeProblem(user, locale) } }, { status: 403 });
  const saved = await savePageDraft(
    getDb(),
    { actor: { id: user.id, email: user.email }, ip: context.clientIp },
    { baseRevision: 0, draft: newPageDraft(values) },
  );
  if (!saved.ok) {
    const errors = "errors" in saved ? saved.errors : { path: "Someone created a page at the same moment. Try again." };
    return data({ values, errors }, { status: 400 });
  }
  throw redirect(`/admin/pages/${saved.id}?created=1`);
}

export const meta: Route.MetaFunction = () => [{ title: `Pages | ${site.company} back office` }];

const cell = "border-b border-slate-100 px-3 py-2 text-left align-top";

export default function Pages({ loaderData, actionData }: Route.ComponentProps) {
  const answer = actionData as
    { problem?: string; errors?: Record<string, string>; values?: { path: string; title: string } } | undefined;
  const errors: Record<string, string | undefined> = answer?.errors ?? {};
  const otherErrors = Object.entries(errors).filter(([field]) => field !== "path" && field !== "title");
  return (
    <>
      <PageHeading title="Pages">
        Every page of the site made of blocks: its address, what search engines show, and its sections.
      </PageHeading>
      {answer?.problem ? <Notice tone="error">{answer.problem}</Notice> : null}
      <Panel title="All pages" id="pages">
        <div className="overflow-x-auto">
          <table className="w-full text-sm">
            <caption className="sr-only">Pages, the latest change first</caption>
            <thead>
              <tr className="text-muted">
                <th scope="col" className={cell}>
                  Page
                </th>
                <th scope="col" className={cell}>
                  Address
                </th>
                <th scope="col" className={cell}>
                  State
                </th>
                <th scope="col" className={cell}>
                  Last change
                </th>
                {loaderData.translating ? (
                  <th scope="col" className={cell}>
                    Translations
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {loaderData.pages.map((page) => (
                <tr key={page.id}>
                  <td className={cell}>
                    <Link to={`/admin/pages/${page.id}`} className="font-medium text-brand-700 underline">
                      {page.title}
                    </Link>
                  </td>
                  <td className={`${cell} font-mono`}>{page.path}</td>
                  <td className={cell}>
                    {page.state}
                    {page.publishAt ? <span className="block text-xs text-muted">for {page.publishAt}</span> : null}
                  </td>
                  <td className={cell}>
                    {page.updatedAt}
                    <span className="block text-xs text-muted">by {page.updatedBy}</span>
                  </td>
                  {loaderData.translating ? <TranslationsCell row={page} noun="page" className={cell} /> : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Panel>
      <Panel title="New page" id="new-page">
        <p className="mb-4 text-sm text-muted">
          It starts as a draft with a hero; visitors see it once you publish it. The address is lowercase words joined by -, such
          as /solutions/financial-services.
        </p>
        {otherErrors.length ? <Notice tone="error">{otherErrors.map(([, message]) => message).join(" ")}</Notice> : null}
        <Form method="post" noValidate className="space-y-4">
          <CsrfField />
          <LabelledControl id="new-page-path" label="Address" error={errors.path}>
            {(control) => (
              <input
                {...control}
                name="path"
                defaultValue={answer?.values?.path ?? "/"}
                className={`${control.className} font-mono`}
              />
            )}
          </LabelledControl>
          <LabelledControl id="new-page-title" label="Title" error={errors.title}>
            {(control) => <input {...control} name="title" defaultValue={answer?.values?.title ?? ""} />}
          </LabelledControl>
          <button type="submit" className={buttonClasses()}>
            Create page
          </button>
        </Form>
      </Panel>
    </>
  );
}
