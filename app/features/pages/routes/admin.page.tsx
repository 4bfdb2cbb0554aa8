import { useEffect, useRef, useState } from "react";
import { data, Link, redirect, useFetcher } from "react-router";
import type { Route } from "./+types/admin.page";
import { FieldError, fieldClasses } from "~/ui/admin/labelled-control";
import { Notice, PageHeading } from "~/ui/admin/page-heading";
import { PreviewLinkPanel } from "~/features/content/admin/preview-link-panel";
import { formatDateTime } from "~/ui/admin/format";
import { timeZoneNames, timeZoneOf, utcToLocalInput } from "~/ui/admin/time-zone";
import { buttonClasses } from "~/ui/button";
import { site } from "~/config/site";
import { requireAdminForm, requireRole } from "~/features/auth/auth.server";
import { localeProblem, requireContentLocale, requireLocale, canEditLocale } from "~/features/auth/locales.server";
import { documentLocaleOf } from "~/features/content/locales.server";
import { getDb } from "~/db/index.server";
import { documentStateOf, liveVersionOf } from "~/features/content/documents.server";
import { translatePage, translationLocales } from "~/features/content/translations.server";
import { TranslatePanel, TranslationNotice } from "~/features/content/admin/translations";
import { getEnv } from "~/env.server";
import { broughtUpToDateWith, editorTranslationData } from "~/features/content/translation-editor.server";
import type { PublishOutcome, SaveOutcome } from "~/features/content/core.server";
import { PageEditor, type PageEditorValues } from "~/features/pages/admin/page-editor";
import { findPageForEditor, unpublishPage } from "~/features/pages/page-documents.server";
import {
  applyPageEdit,
  editorBlockTypes,
  PAGE_STATE_LABELS,
  pageSourceColumn,
  publishPageDraft,
  readPageForm,
  sameAsSaved,
  savePageDraft,
  type PageDraft,
} from "~/features/pages/page-editor.server";
import { controlId, parsePageEdit } from "~/features/pages/page-form";
import {
  baseRevisionOf,
  INCOMPLETE_FORM,
  previewLinkAnswer,
  refusedAnswer,
  scheduledMoment,
} from "~/features/content/editor-action.server";
import { PREVIEW_DEFAULT_DAYS, PREVIEW_MAX_DAYS } from "~/features/content/preview-token.server";

// A page's editor (editors): its address and search fields and its blocks, saved as a draft
// revision; publishing now, scheduling (in the editor's time zone), unpublishing; and the preview
// beside the form, drawn by the public renderer in the site's frame at desktop or phone width.

const ROLE = "editor";

async function requirePage(pageId: string) {
  const page = await findPageForEditor(getDb(), pageId);
  if (!page) throw data({ message: "There is no such page." }, { status: 404 });
  return page;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const { user } = await requireRole(request, ROLE);
  await requireContentLocale(user, "document", params.pageId);
  const page = await requirePage(params.pageId);
  const zone = timeZoneOf(request);
  const url = new URL(request.url);
  const state = documentStateOf(page);
  const live = liveVersionOf(page);
  return {
    id: page.id,
    revision: page.revision,
    values: page.draft as PageEditorValues,
    blockTypes: editorBlockTypes(),
    state: PAGE_STATE_LABELS[state],
    livePath: live?.path ?? null,
    publishAt: state === "scheduled" || page.scheduled ? (page.publishAt ? formatDateTime(page.publishAt, zone) : null) : null,
    changesNotLive: Boolean(live) && !sameAsSaved(page.draft, live!.data),
    updated: `${formatDateTime(page.updatedAt, zone)} by ${page.updatedByEmail || "the content import"}`,
    created: url.searchParams.has("created"),
    view: url.searchParams.get("view") === "phone" ? ("phone" as const) : ("desktop" as const),
    timeZone: zone,
    timeZones: timeZoneNames(),
    scheduleAt: page.publishAt ? utcToLocalInput(page.publishAt, zone) : "",
    previewDays: { default: PREVIEW_DEFAULT_DAYS, max: PREVIEW_MAX_DAYS },
    ...(await editorTranslationData("page", page, user, pageSourceColumn)),
    translated: url.searchParams.has("translated"),
  };
}

type Answer = {
  values?: PageDraft;
  errors?: Record<string, string>;
  problem?: string;
  done?: string;
  focus?: string;
  formKey?: string;
  conflict?: { number: number; authorEmail: string; createdAt: string };
  checks?: { message: string; block?: number }[];
  /** The revision saved before publishing was refused: an answer of 400 reloads no data. */
  revision?: number;
  scheduleAt?: string;
  previewLink?: string;
  previewExpires?: string;
  previewError?: string;
};

const refused = (answer: Answer, status = 400) => refusedAnswer(answer, status);

function saveRefusal(outcome: Exclude<SaveOutcome, { ok: true }>, values: PageDraft) {
  if ("conflict" in outcome)
    return refused(
      {
        values,
        conflict: {
          number: outcome.conflict.number,
          authorEmail: outcome.conflict.authorEmail,
          createdAt: outcome.conflict.createdAt,
        },
      },
      409,
    );
  return refused({ values, errors: outcome.errors });
}

function publishRefusal(outcome: Exclude<PublishOutcome, { ok: true }>, values: PageDraft, revision: number) {
  if ("conflict" in outcome) return saveRefusal(outcome, values);
  if ("errors" in outcome) return refused({ values, revision, errors: outcome.errors });
  if ("checks" in outcome)
    return refused({
      values,
      revision,
      checks: outcome.checks.map((check) => ({
        message: check.message,
        ...("block" in check.where ? { block: check.where.block } : {}),
      })),
    });
  return refused({ problem: "There is no such page." }, 404);
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { user, form } = await requireAdminForm(request, ROLE);
  await requireContentLocale(user, "document", params.pageId);
  const page = await requirePage(params.pageId);
  const editor = { actor: { id: user.id, email: user.email }, ip: context.clientIp };
  const db = getDb();
  const translateInto = form.get("translateInto");
  if (typeof translateInto === "string" && translateInto) {
    // The translation is in the other language: the person must be allowed to edit that one too.
    requireLocale(user, translateInto);
    const made = await translatePage(db, editor, {
      sourceId: page.id,
      locale: translateInto,
      locales: translationLocales(getEnv().SITE_LOCALES),
    });
    if (!made.ok) return refused({ problem: "problem" in made ? made.problem : Object.values(made.errors).join(" ") });
    throw redirect(`/admin/pages/${made.id}?translated=1`);
  }
  const intent = String(form.get("intent") ?? "save");
  if (intent === "preview-link") return previewLinkAnswer(request, { type: "page", id: page.id, form, editor });

  const baseRevision = baseRevisionOf(form);
  if (baseRevision === undefined) return refused({ problem: INCOMPLETE_FORM });

  if (intent === "unpublish") {
    const outcome = await unpublishPage(db, editor, page.id);
    if (!outcome.ok) return refused({ problem: "There is no such page." }, 404);
    return { done: "Unpublished: visitors no longer see this page." } satisfies Answer;
  }

  let values = readPageForm(form);
  let focus: string | undefined;
  const edit = parsePageEdit(intent, form);
  if (edit) {
    const edited = applyPageEdit(values, edit);
    if (!edited.ok) return refused({ values, problem: edited.problem });
    values = edited.draft;
    focus = edited.focus;
  } else if (!["save", "publish", "schedule"].includes(intent)) {
    return refused({ values, problem: "Unknown action." });
  }

  // Its address may not take it into a language the person may not edit.
  const addressLocale = documentLocaleOf(values.path);
  if (!canEditLocale(user, addressLocale)) return refused({ values, errors: { path: localeProblem(user, addressLocale) } }, 403);

  let at: string | undefined;
  if (intent === "schedule") {
    const moment = scheduledMoment(form, String(form.get("timeZone") ?? ""));
    if ("error" in moment) return refused({ values, scheduleAt: moment.scheduleAt, errors: { publishAt: moment.error } });
    at = moment.at;
  }

  // Every change is saved as a revision; publishing publishes what the form holds, saved first.
  let revision = baseRevision;
  const translation = await broughtUpToDateWith("page", page, form);
  if (edit || intent === "save" || translation || !sameAsSaved(values, page.draft) || baseRevision !== page.revision) {
    const saved = await savePageDraft(db, editor, {
      id: page.id,
      baseRevision,
      draft: values,
      previousPath: page.path,
      ...(translation ? { translation } : {}),
    });
    if (!saved.ok) return saveRefusal(saved, values);
    revision = saved.revision;
  }
  if (intent === "publish" || intent === "schedule") {
    const outcome = await publishPageDraft(db, editor, { id: page.id, baseRevision: revision, at });
    if (!outcome.ok) return publishRefusal(outcome, values, revision);
    return {
      done: outcome.scheduled
        ? `Scheduled: visitors see this version at ${outcome.path} from ${formatDateTime(outcome.at, String(form.get("timeZone")))}.`
        : `Published: visitors see this version at ${outcome.path} now.`,
    } satisfies Answer;
  }
  return { done: `Saved as revision ${revision}.`, focus } satisfies Answer;
}

export const meta: Route.MetaFunction = ({ data: loaded }) => [
  { title: `${loaded?.values.title ?? "Page"} | ${site.company} back office` },
];

export default function EditPage({ loaderData, actionData }: Route.ComponentProps) {
  const answer = actionData as Answer | undefined;
  const values = (answer?.values ?? loaderData.values) as PageEditorValues;
  const [view, setView] = useState(loaderData.view);
  // A form of its own, answered beside it: the page's form keeps what is typed in it.
  const share = useFetcher<Answer>();
  const previewSrc = `/admin/pages/${loaderData.id}/preview`;
  const frame = useRef<HTMLIFrameElement>(null);
  useEffect(() => {
    // The preview follows the form: after each change (and a short pause), the form's page is drawn
    // again by the server and put in place in the preview's frame.
    // Listened for on the document: the form is drawn anew after each answer of the server.
    let timer: ReturnType<typeof setTimeout> | undefined;
    let controller: AbortController | undefined;
    const refresh = (event: Event) => {
      const form = (event.target as HTMLInputElement | null)?.form;
      if (!form || form.dataset.pageEditor !== loaderData.id) return;
      clearTimeout(timer);
      timer = setTimeout(async () => {
        controller?.abort();
        controller = new AbortController();
        const body = new FormData(form);
        body.delete("intent");
        try {
          const response = await fetch("/admin/pages/live-preview", { method: "POST", body, signal: controller.signal });
          if (!response.ok) return;
          const { html } = (await response.json()) as { html: string };
          const target = frame.current?.contentDocument?.getElementById("page-preview-blocks");
          if (target) target.innerHTML = html;
        } catch {
          // A preview that could not be drawn leaves the last one in place.
        }
      }, 400);
    };
    document.addEventListener("input", refresh);
    document.addEventListener("change", refresh);
    return () => {
      document.removeEventListener("input", refresh);
      document.removeEventListener("change", refresh);
      clearTimeout(timer);
      controller?.abort();
    };
  }, [loaderData.id]);

  const notice = (
    <>
      {loaderData.translation ? <TranslationNotice {...loaderData.translation} noun="page" /> : null}
      {loaderData.created ? <Notice tone="success">The page was created as a draft.</Notice> : null}
      {loaderData.translated ? (
        <Notice tone="success">The translation was created as a draft: a copy of the English page, to translate.</Notice>
      ) : null}
      {answer?.done ? <Notice tone="success">{answer.done}</Notice> : null}
      {answer?.problem ? <Notice tone="error">{answer.problem}</Notice> : null}
      {answer?.conflict ? (
        <Notice tone="error">
          Not saved: {answer.conflict.authorEmail} saved this page (revision {answer.conflict.number}) after you opened it. Your
          changes are still in the form; open the <Link to={`/admin/pages/${loaderData.id}/revisions`}>revisions</Link> to see
          theirs, then reload and make your changes again.
        </Notice>
      ) : null}
      {answer?.checks?.length ? (
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900">
          <p className="font-semibold">Not published: fix these first.</p>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            {answer.checks.map((check, index) => (
              <li key={index}>{check.message}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </>
  );

  const publishing = (
    <fieldset className="space-y-4 rounded-xl border border-slate-200 bg-white p-5">
      <legend className="px-1 text-lg font-semibold">Publish</legend>
      <p className="text-sm">
        {loaderData.livePath
          ? `Visitors see this page at ${loaderData.livePath}${loaderData.changesNotLive ? "; the saved changes are not published yet" : ""}.`
          : "Visitors do not see this page yet."}
      </p>
      <div className="flex flex-wrap gap-3">
        <button type="submit" name="intent" value="publish" className={buttonClasses()}>
          Publish now
        </button>
        {loaderData.livePath || loaderData.publishAt ? (
          <button type="submit" name="intent" value="unpublish" className={buttonClasses("ghost")}>
            Unpublish
          </button>
        ) : null}
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor={controlId("publishAt")} className="text-sm font-medium">
            Publish at
          </label>
          <input
            id={controlId("publishAt")}
            type="datetime-local"
            name="publishAt"
            defaultValue={answer?.scheduleAt ?? loaderData.scheduleAt}
            aria-invalid={answer?.errors?.publishAt ? true : undefined}
            aria-describedby={answer?.errors?.publishAt ? `${controlId("publishAt")}-error` : undefined}
            className={`${fieldClasses} w-auto`}
          />
        </div>
        <div>
          <label htmlFor={controlId("timeZone")} className="text-sm font-medium">
            Time zone
          </label>
          <select
            id={controlId("timeZone")}
            name="timeZone"
            defaultValue={loaderData.timeZone}
            className={`${fieldClasses} w-auto`}
          >
            {loaderData.timeZones.map((zone) => (
              <option key={zone}>{zone}</option>
            ))}
          </select>
        </div>
        <button type="submit" name="intent" value="schedule" className={buttonClasses("secondary")}>
          Schedule
        </button>
      </div>
      <FieldError id={`${controlId("publishAt")}-error`} message={answer?.errors?.publishAt} />
    </fieldset>
  );

  return (
    <>
      <PageHeading
        title={loaderData.values.title}
        actions={
          <>
            {loaderData.livePath ? (
              <a href={loaderData.livePath} className={buttonClasses("secondary")}>
                View on the site
              </a>
            ) : null}
            <Link to={`/admin/pages/${loaderData.id}/revisions`} className={buttonClasses("secondary")}>
              Revisions
            </Link>
            <Link to="/admin/pages" className={buttonClasses("ghost")}>
              All pages
            </Link>
          </>
        }
      >
        {loaderData.state}
        {loaderData.publishAt ? ` for ${loaderData.publishAt}` : ""} · last saved {loaderData.updated}
      </PageHeading>
      <TranslatePanel translations={loaderData.translations} noun="page" />
      <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <PageEditor
          key={answer?.formKey ?? `revision-${loaderData.revision}`}
          id={loaderData.id}
          revision={answer?.revision ?? loaderData.revision}
          values={values}
          blockTypes={loaderData.blockTypes}
          errors={answer?.errors ?? {}}
          blockNotes={
            answer?.checks?.filter((check) => check.block !== undefined) as { message: string; block: number }[] | undefined
          }
          focus={answer?.focus}
          notice={notice}
          publishing={publishing}
          {...(loaderData.source ? { source: loaderData.source } : {})}
        />
        <section aria-labelledby="page-preview-heading" className="xl:sticky xl:top-4 xl:self-start">
          <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
            <h2 id="page-preview-heading" className="text-lg font-semibold">
              Preview
            </h2>
            <div role="group" aria-label="Preview width" className="flex gap-2">
              {(["desktop", "phone"] as const).map((width) => (
                <a
                  key={width}
                  href={`?view=${width}`}
                  aria-pressed={view === width}
                  onClick={(event) => {
                    event.preventDefault();
                    setView(width);
                  }}
                  role="button"
                  className={buttonClasses(view === width ? "primary" : "secondary")}
                >
                  {width === "desktop" ? "Desktop" : "Phone"}
                </a>
              ))}
            </div>
          </div>
          <p className="mb-2 text-sm text-muted">
            The saved draft as visitors will see it, in the site’s frame; it follows your typing as you edit.
          </p>
          <div className="overflow-auto rounded-xl border border-slate-300 bg-slate-100">
            <iframe
              ref={frame}
              name="page-preview"
              title={`Preview at ${view} width`}
              src={previewSrc}
              className="mx-auto block h-[80vh] bg-white"
              style={{ width: view === "phone" ? 390 : "100%", minWidth: view === "phone" ? 390 : 1024 }}
            />
          </div>
        </section>
      </div>
      <PreviewLinkPanel noun="page" days={loaderData.previewDays} form={share.Form} answer={share.data} />
    </>
  );
}
