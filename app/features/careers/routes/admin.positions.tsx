import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/admin.positions";
import { CsrfField } from "~/ui/admin/csrf-field";
import { LabelledControl } from "~/ui/admin/labelled-control";
import { Notice, PageHeading, Panel } from "~/ui/admin/page-heading";
import { formatDateTime } from "~/ui/admin/format";
import { timeZoneOf } from "~/ui/admin/time-zone";
import { buttonClasses } from "~/ui/button";
import { site } from "~/config/site";
import { requireAdminForm, requireRole } from "~/features/auth/auth.server";
import { canEditLocale, requireLocale } from "~/features/auth/locales.server";
import { getDb } from "~/db/index.server";
import { getEnv } from "~/env.server";
import { translationOfCell } from "~/features/content/translation-editor.server";
import { SOURCE_LOCALE } from "~/features/content/document-locale";
import { summarizeTranslations, translationLocales, translationStates } from "~/features/content/translations.server";
import { startTranslationFromList } from "~/features/content/translation-start.server";
import { START_TRANSLATION_INTENT, TranslationsCell } from "~/features/content/admin/translations";
import { listPositionPipelines } from "~/features/leads/db/lead-inbox.server";
import { listPositionsForEditors, positionStateLabel, savePosition } from "~/features/careers/position-documents.server";
import { newPosition, POSITION_ROLE } from "~/features/careers/position-editor.server";

// Open positions (recruiters): every position, whatever its state, the latest change first, with
// how many applications each has and, on a site in several languages, each English position's
// translations; a new position, which starts as a draft visitors do not see; and a missing
// translation, started here by whoever may edit its language (a recruiter who may not open the
// English position).

export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireRole(request, POSITION_ROLE);
  const zone = timeZoneOf(request);
  const [positions, pipelines] = await Promise.all([listPositionsForEditors(getDb()), listPositionPipelines(getDb())]);
  const applications = new Map(pipelines.map((pipeline) => [pipeline.positionId, pipeline.total]));
  const locales = translationLocales(getEnv().SITE_LOCALES);
  const sources = positions
    .filter((position) => position.locale === SOURCE_LOCALE && !position.translationOf)
    .map((position) => position.id);
  const states = await translationStates(getDb(), "position", sources, locales);
  return {
    translating: locales.length > 0,
    positions: positions.map((position) => ({
      translations: summarizeTranslations(states.get(position.id), (locale) => canEditLocale(user, locale)),
      translationOf: translationOfCell(user, position, (id) => `/admin/positions/${id}`),
      id: position.id,
      path: position.path,
      title: position.title,
      team: position.team,
      state: positionStateLabel(position),
      publishAt: position.state === "scheduled" && position.publishAt ? formatDateTime(position.publishAt, zone) : null,
      closesAt: position.closesAt ? formatDateTime(position.closesAt, zone) : null,
      applications: applications.get(position.id) ?? 0,
      updatedAt: formatDateTime(position.updatedAt, zone),
    })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user, form } = await requireAdminForm(request, POSITION_ROLE);
  if (form.get("intent") === START_TRANSLATION_INTENT)
    return startTranslationFromList("position", user, form, { actor: { id: user.id, email: user.email }, ip: context.clientIp });
  // A new position is English (its address has no language prefix).
  requireLocale(user, SOURCE_LOCALE);
  const values = {
    title: String(form.get("title") ?? "").trim(),
    team: String(form.get("team") ?? "").trim(),
    location: String(form.get("location") ?? "").trim(),
  };
  const saved = await savePosition(
    getDb(),
    { actor: { id: user.id, email: user.email }, ip: context.clientIp },
    { baseRevision: 0, position: newPosition(values) },
  );
  if (!saved.ok) {
    const errors = "errors" in saved ? saved.errors : { title: "Someone created a position at the same moment. Try again." };
    // The slug is made from the title here: a taken or empty one is the title's to fix.
    const { slug, locations, ...rest } = errors;
    return data(
      {
        values,
        errors: { ...rest, ...(slug ? { title: rest.title ?? slug } : {}), ...(locations ? { location: locations } : {}) },
      },
      { status: 400 },
    );
  }
  throw redirect(`/admin/positions/${saved.id}?created=1`);
}

export const meta: Route.MetaFunction = () => [{ title: `Open positions | ${site.company} back office` }];

const cell = "border-b border-slate-100 px-3 py-2 text-left align-top";

export default function Positions({ loaderData, actionData }: Route.ComponentProps) {
  const answer = actionData as
    { problem?: string; errors?: Record<string, string>; values?: { title: string; team: string; location: string } } | undefined;
  const errors: Record<string, string | undefined> = answer?.errors ?? {};
  const otherErrors = Object.entries(errors).filter(([field]) => !["title", "team", "location"].includes(field));
  return (
    <>
      <PageHeading title="Open positions">
        The positions on the careers page: each has its own page and application. Applications are in{" "}
        <Link to="/admin/applications" className="text-brand-700 underline">
          Applications
        </Link>
        .
      </PageHeading>
      {answer?.problem ? <Notice tone="error">{answer.problem}</Notice> : null}
      <Panel title="All positions" id="positions">
        {loaderData.positions.length ? (
          <div className="overflow-x-auto">
            <table className="w-full text-sm">
              <caption className="sr-only">Positions, the latest change first</caption>
              <thead>
                <tr className="text-muted">
                  <th scope="col" className={cell}>
                    Position
                  </th>
                  <th scope="col" className={cell}>
                    Team
                  </th>
                  <th scope="col" className={cell}>
                    State
                  </th>
                  <th scope="col" className={`${cell} text-right`}>
                    Applications
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
                {loaderData.positions.map((position) => (
                  <tr key={position.id}>
                    <td className={cell}>
                      <Link to={`/admin/positions/${position.id}`} className="font-medium text-brand-700 underline">
                        {position.title}
                      </Link>
                      <span className="block font-mono text-xs text-muted">{position.path}</span>
                    </td>
                    <td className={cell}>{position.team}</td>
                    <td className={cell}>
                      {position.state}
                      {position.publishAt ? <span className="block text-xs text-muted">for {position.publishAt}</span> : null}
                      {position.closesAt ? <span className="block text-xs text-muted">closes {position.closesAt}</span> : null}
                    </td>
                    <td className={`${cell} text-right tabular-nums`}>{position.applications}</td>
                    <td className={cell}>{position.updatedAt}</td>
                    {loaderData.translating ? <TranslationsCell row={position} noun="position" className={cell} /> : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="text-sm text-muted">No positions yet.</p>
        )}
      </Panel>
      <Panel title="New position" id="new-position">
        <p className="mb-4 text-sm text-muted">
          It starts as a draft; visitors see it once you publish it. Its address is made from its title, and you can change it
          before publishing.
        </p>
        {otherErrors.length ? <Notice tone="error">{otherErrors.map(([, message]) => message).join(" ")}</Notice> : null}
        <Form method="post" noValidate className="space-y-4">
          <CsrfField />
          <LabelledControl id="new-position-title" label="Title" error={errors.title}>
            {(control) => <input {...control} name="title" defaultValue={answer?.values?.title ?? ""} />}
          </LabelledControl>
          <LabelledControl id="new-position-team" label="Team" error={errors.team}>
            {(control) => <input {...control} name="team" defaultValue={answer?.values?.team ?? ""} />}
          </LabelledControl>
          <LabelledControl id="new-position-location" label="Location" error={errors.location}>
            {(control) => <input {...control} name="location" defaultValue={answer?.values?.location ?? ""} />}
          </LabelledControl>
          <button type="submit" className={buttonClasses()}>
            Create position
          </button>
        </Form>
      </Panel>
    </>
  );
}
