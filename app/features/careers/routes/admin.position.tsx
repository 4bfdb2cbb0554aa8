import { data, Link, redirect, useFetcher } from "react-router";
import type { Route } from "./+types/admin.position";
import { FieldError, fieldClasses } from "~/ui/admin/labelled-control";
import { Notice, PageHeading, Panel } from "~/ui/admin/page-heading";
import { formatDateTime } from "~/ui/admin/format";
import { isTimeZone, timeZoneNames, timeZoneOf, utcToLocalInput } from "~/ui/admin/time-zone";
import { buttonClasses } from "~/ui/button";
import { site } from "~/config/site";
import { requireAdminForm, requireRole } from "~/features/auth/auth.server";
import { requireContentLocale, requireLocale } from "~/features/auth/locales.server";
import { getDb } from "~/db/index.server";
import { getEnv } from "~/env.server";
import { broughtUpToDateWith, editorTranslationData } from "~/features/content/translation-editor.server";
import { documentStateOf, liveVersionOf } from "~/features/content/documents.server";
import { translatePosition, translationLocales } from "~/features/content/translations.server";
import { TranslatePanel, TranslationNotice } from "~/features/content/admin/translations";
import { routePathIn } from "~/features/i18n/route-paths.server";
import type { PublishOutcome, SaveOutcome } from "~/features/content/core.server";
import { PREVIEW_DEFAULT_DAYS, PREVIEW_MAX_DAYS } from "~/features/content/preview-token.server";
import { PreviewLinkPanel } from "~/features/content/admin/preview-link-panel";
import { loadPositionApplications } from "~/features/leads/pages.server";
import { PositionEditor } from "~/features/careers/admin/position-editor";
import {
  findPositionForEditor,
  positionStateLabel,
  publishPosition,
  savePosition,
  unpublishPosition,
} from "~/features/careers/position-documents.server";
import { POSITION_ROLE, positionSourceColumn, positionTeams, samePosition } from "~/features/careers/position-editor.server";
import {
  positionFormValues,
  positionFromForm,
  readPositionFormValues,
  type PositionFormValues,
} from "~/features/careers/position-form";
import {
  baseRevisionOf,
  INCOMPLETE_FORM,
  previewLinkAnswer,
  refusedAnswer,
  scheduledMoment,
} from "~/features/content/editor-action.server";
import { isOpenAt } from "~/features/careers/positions";

// A position's editor (recruiters): its fields saved as a draft revision; publishing now,
// scheduling, closing now and reopening, each publishing what the form holds; taking it off the
// site; a preview and a private preview link; and the position's applications and pipeline. An
// English position makes its translations ("Translate into Deutsch"); a translation's editor shows
// its English source beside the fields and what changed in it since.

async function requirePosition(positionId: string) {
  const position = await findPositionForEditor(getDb(), positionId);
  if (!position) throw data({ message: "There is no such position." }, { status: 404 });
  return position;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const { user } = await requireRole(request, POSITION_ROLE);
  await requireContentLocale(user, "document", params.positionId);
  const position = await requirePosition(params.positionId);
  const zone = timeZoneOf(request);
  const now = Date.now();
  const live = liveVersionOf(position, now);
  const state = documentStateOf(position, now);
  const [teams, applications] = await Promise.all([positionTeams(getDb()), loadPositionApplications(position.id)]);
  return {
    id: position.id,
    revision: position.revision,
    values: positionFormValues(position.draft, zone),
    teams,
    state: positionStateLabel({ state, open: live ? isOpenAt(live.data, now) : null }),
    open: live ? isOpenAt(live.data, now) : null,
    livePath: live?.path ?? null,
    publishAt: state === "scheduled" && position.publishAt ? formatDateTime(position.publishAt, zone) : null,
    changesNotLive: Boolean(live) && !samePosition(live!.data, position.draft),
    updated: `${formatDateTime(position.updatedAt, zone)} by ${position.updatedByEmail || "the content import"}`,
    created: new URL(request.url).searchParams.has("created"),
    timeZones: timeZoneNames(),
    scheduleAt: position.publishAt && state === "scheduled" ? utcToLocalInput(position.publishAt, zone) : "",
    previewDays: { default: PREVIEW_DEFAULT_DAYS, max: PREVIEW_MAX_DAYS },
    careersPath: routePathIn("careers", position.locale),
    ...(await editorTranslationData("position", position, user, positionSourceColumn)),
    translated: new URL(request.url).searchParams.has("translated"),
    applications: {
      ...applications,
      applications: applications.applications.map((application) => ({
        ...application,
        createdAt: formatDateTime(application.createdAt, zone),
      })),
    },
  };
}

type Answer = {
  values?: PositionFormValues;
  errors?: Record<string, string>;
  problem?: string;
  done?: string;
  formKey?: string;
  conflict?: { number: number; authorEmail: string };
  /** The revision saved before publishing was refused: an answer of 400 reloads no data. */
  revision?: number;
  scheduleAt?: string;
  previewLink?: string;
  previewExpires?: string;
  previewError?: string;
};

const refused = (answer: Answer, status = 400) => refusedAnswer(answer, status);

function refusal(outcome: Exclude<SaveOutcome | PublishOutcome, { ok: true }>, values: PositionFormValues, revision?: number) {
  if ("conflict" in outcome)
    return refused({ values, conflict: { number: outcome.conflict.number, authorEmail: outcome.conflict.authorEmail } }, 409);
  if ("errors" in outcome) return refused({ values, revision, errors: outcome.errors });
  if ("checks" in outcome) return refused({ values, revision, problem: outcome.checks.map((check) => check.message).join(" ") });
  return refused({ problem: "There is no such position." }, 404);
}

const PUBLISHING = ["publish", "schedule", "close", "reopen"];

export async function action({ request, context, params }: Route.ActionArgs) {
  const { user, form } = await requireAdminForm(request, POSITION_ROLE);
  await requireContentLocale(user, "document", params.positionId);
  const position = await requirePosition(params.positionId);
  const editor = { actor: { id: user.id, email: user.email }, ip: context.clientIp };
  const db = getDb();
  const translateInto = form.get("translateInto");
  if (typeof translateInto === "string" && translateInto) {
    // The translation is in the other language: the person must be allowed to edit that one too.
    requireLocale(user, translateInto);
    const made = await translatePosition(db, editor, {
      sourceId: position.id,
      locale: translateInto,
      locales: translationLocales(getEnv().SITE_LOCALES),
    });
    if (!made.ok) return refused({ problem: "problem" in made ? made.problem : Object.values(made.errors).join(" ") });
    throw redirect(`/admin/positions/${made.id}?translated=1`);
  }
  const intent = String(form.get("intent") ?? "save");
  if (intent === "preview-link") return previewLinkAnswer(request, { type: "position", id: position.id, form, editor });

  const baseRevision = baseRevisionOf(form);
  if (baseRevision === undefined) return refused({ problem: INCOMPLETE_FORM });

  if (intent === "unpublish") {
    const outcome = await unpublishPosition(db, editor, position.id);
    if (!outcome.ok) return refused({ problem: "There is no such position." }, 404);
    return { done: "Taken off the site: visitors no longer see this position, and its address answers 404." } satisfies Answer;
  }
  if (intent !== "save" && !PUBLISHING.includes(intent)) return refused({ problem: "Unknown action." });

  const values = readPositionFormValues(form);
  if (!isTimeZone(values.timeZone)) values.timeZone = timeZoneOf(request);
  // Closing and reopening publish what the form holds, with the closing date set to now, or none.
  if (intent === "close") values.closesAt = utcToLocalInput(new Date().toISOString(), values.timeZone);
  if (intent === "reopen") values.closesAt = "";
  const read = positionFromForm(values);
  if (!read.ok) return refused({ values, errors: read.errors });
  const fields = read.position;
  if (intent === "close") fields.closesAt = new Date().toISOString();

  let at: string | undefined;
  if (intent === "schedule") {
    const moment = scheduledMoment(form, values.timeZone);
    if ("error" in moment) return refused({ values, scheduleAt: moment.scheduleAt, errors: { publishAt: moment.error } });
    at = moment.at;
  }

  // Every change is saved as a revision; publishing publishes what the form holds, saved first.
  let revision = baseRevision;
  const unchanged = samePosition(fields, position.draft) && baseRevision === position.revision;
  const translation = await broughtUpToDateWith("position", position, form);
  if (intent === "save" || !unchanged || translation) {
    const saved = await savePosition(db, editor, {
      id: position.id,
      baseRevision,
      position: fields,
      ...(translation ? { translation } : {}),
    });
    if (!saved.ok) return refusal(saved, values);
    revision = saved.revision;
  }
  if (intent === "save") return { done: `Saved as revision ${revision}.` } satisfies Answer;
  const outcome = await publishPosition(db, editor, { id: position.id, baseRevision: revision, at });
  if (!outcome.ok) return refusal(outcome, values, revision);
  if (outcome.scheduled)
    return {
      done: `Scheduled: visitors see this version at ${outcome.path} from ${formatDateTime(outcome.at, values.timeZone)}.`,
    } satisfies Answer;
  if (intent === "close")
    return {
      done: `Closed: ${outcome.path} now says the position is no longer open, and takes no applications.`,
    } satisfies Answer;
  return { done: `Published: visitors see this version at ${outcome.path} now.` } satisfies Answer;
}

export const meta: Route.MetaFunction = ({ data: loaded }) => [
  { title: `${loaded?.values.title ?? "Position"} | ${site.company} back office` },
];

const cell = "border-b border-slate-100 px-3 py-2 text-left align-top";

export default function EditPosition({ loaderData, actionData }: Route.ComponentProps) {
  const answer = actionData as Answer | undefined;
  const values = answer?.values ?? loaderData.values;
  const share = useFetcher<Answer>();
  const { applications } = loaderData;

  const notice = (
    <>
      {loaderData.translation ? <TranslationNotice {...loaderData.translation} noun="position" /> : null}
      {loaderData.created ? <Notice tone="success">The position was created as a draft.</Notice> : null}
      {loaderData.translated ? (
        <Notice tone="success">The translation was created as a draft: a copy of the English position, to translate.</Notice>
      ) : null}
      {answer?.done ? <Notice tone="success">{answer.done}</Notice> : null}
      {answer?.problem ? <Notice tone="error">{answer.problem}</Notice> : null}
      {answer?.errors && Object.keys(answer.errors).length ? (
        <Notice tone="error">Not saved: fix the fields marked below.</Notice>
      ) : null}
      {answer?.conflict ? (
        <Notice tone="error">
          Not saved: {answer.conflict.authorEmail} saved this position (revision {answer.conflict.number}) after you opened it.
          Your changes are still in the form; open the <Link to={`/admin/positions/${loaderData.id}/revisions`}>revisions</Link>{" "}
          to see theirs, then reload and make your changes again.
        </Notice>
      ) : null}
    </>
  );

  const publishing = (
    <fieldset className="space-y-4 rounded-xl border border-slate-200 bg-white p-5">
      <legend className="px-1 text-lg font-semibold">Publish</legend>
      <p className="text-sm">
        {loaderData.livePath
          ? `Visitors see this position at ${loaderData.livePath}${loaderData.open ? "" : " as no longer open"}${
              loaderData.changesNotLive ? "; the saved changes are not published yet" : ""
            }.`
          : "Visitors do not see this position yet."}
      </p>
      <div className="flex flex-wrap gap-3">
        <button type="submit" name="intent" value="publish" className={buttonClasses()}>
          Publish now
        </button>
        {loaderData.open ? (
          <button type="submit" name="intent" value="close" className={buttonClasses("secondary")}>
            Close now
          </button>
        ) : null}
        {loaderData.open === false ? (
          <button type="submit" name="intent" value="reopen" className={buttonClasses("secondary")}>
            Reopen
          </button>
        ) : null}
        {loaderData.livePath || loaderData.publishAt ? (
          <button type="submit" name="intent" value="unpublish" className={buttonClasses("ghost")}>
            Take off the site
          </button>
        ) : null}
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="position-publishAt" className="text-sm font-medium">
            Publish at
          </label>
          <input
            id="position-publishAt"
            type="datetime-local"
            name="publishAt"
            defaultValue={answer?.scheduleAt ?? loaderData.scheduleAt}
            aria-invalid={answer?.errors?.publishAt ? true : undefined}
            aria-describedby={answer?.errors?.publishAt ? "position-publishAt-error" : undefined}
            className={`${fieldClasses} w-auto`}
          />
        </div>
        <button type="submit" name="intent" value="schedule" className={buttonClasses("secondary")}>
          Schedule
        </button>
      </div>
      <FieldError id="position-publishAt-error" message={answer?.errors?.publishAt} />
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
            <a href={`/admin/positions/${loaderData.id}/preview`} className={buttonClasses("secondary")}>
              Preview
            </a>
            <Link to={`/admin/positions/${loaderData.id}/revisions`} className={buttonClasses("secondary")}>
              Revisions
            </Link>
            <Link to="/admin/positions" className={buttonClasses("ghost")}>
              All positions
            </Link>
          </>
        }
      >
        {loaderData.state}
        {loaderData.publishAt ? ` · scheduled for ${loaderData.publishAt}` : ""} · last saved {loaderData.updated}
      </PageHeading>
      <TranslatePanel translations={loaderData.translations} noun="position" />
      <div className="grid gap-6 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <PositionEditor
          key={answer?.formKey ?? `revision-${loaderData.revision}`}
          values={values}
          errors={answer?.errors ?? {}}
          revision={answer?.revision ?? loaderData.revision}
          teams={loaderData.teams}
          timeZones={loaderData.timeZones}
          careersPath={loaderData.careersPath}
          {...(loaderData.source ? { source: loaderData.source } : {})}
          notice={notice}
          publishing={publishing}
        />
        <div>
          <Panel title="Applications" id="applications">
            <p className="text-sm">
              {applications.total === 1 ? "1 application" : `${applications.total} applications`} for this position.{" "}
              <Link to={applications.deskHref} className="text-brand-700 underline">
                Open them in the applications desk
              </Link>
            </p>
            <table className="mt-4 w-full text-sm">
              <caption className="sr-only">Pipeline: applications in each status</caption>
              <thead>
                <tr className="text-muted">
                  {applications.statuses.map((status) => (
                    <th key={status} scope="col" className={`${cell} capitalize`}>
                      {status}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                <tr>
                  {applications.counts.map((count, index) => (
                    <td key={applications.statuses[index]} className={`${cell} tabular-nums`}>
                      {count}
                    </td>
                  ))}
                </tr>
              </tbody>
            </table>
            {applications.applications.length ? (
              <table className="mt-4 w-full text-sm">
                <caption className="sr-only">The newest applications</caption>
                <thead>
                  <tr className="text-muted">
                    <th scope="col" className={cell}>
                      Applicant
                    </th>
                    <th scope="col" className={cell}>
                      Status
                    </th>
                    <th scope="col" className={cell}>
                      Received
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {applications.applications.map((application) => (
                    <tr key={application.id}>
                      <td className={cell}>
                        <Link to={application.href} className="font-medium text-brand-700 underline">
                          {application.name || application.email}
                        </Link>
                      </td>
                      <td className={`${cell} capitalize`}>{application.status}</td>
                      <td className={cell}>{application.createdAt}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
            {applications.more ? <p className="mt-2 text-sm text-muted">The newest are shown; the desk has them all.</p> : null}
          </Panel>
        </div>
      </div>
      <PreviewLinkPanel noun="position" days={loaderData.previewDays} form={share.Form} answer={share.data} />
    </>
  );
}
