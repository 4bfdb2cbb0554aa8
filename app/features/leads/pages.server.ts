import { data, redirect, type AppLoadContext } from "react-router";
import { z } from "zod";
import { requireAdminForm, requireRole, type SignedIn } from "~/features/auth/auth.server";
import { startedOnAnotherSite } from "~/features/auth/cross-site.server";
import { timeZoneOf } from "~/ui/admin/time-zone";
import { getDb } from "~/db/index.server";
import { getEnv } from "~/env.server";
import type { SiteLocale } from "~/features/i18n/site-locales";
import {
  emailsOfPeople,
  findLeadRecord,
  hasCompany,
  hasPosition,
  listLeadActivity,
  listLeadAssignees,
  listLeadDeliveries,
  listLeadInbox,
  listPositionPipelines,
  type LeadCursor,
  type PositionPipeline,
} from "~/features/leads/db/lead-inbox.server";
import { isUuid } from "~/db/normalize";
import { deskForm, deskOfPath, inboxPath, leadPagePath, type LeadDesk } from "~/features/leads/desks";
import { cursorParam, OPEN_APPLICATIONS, readInboxQuery, viewQuery } from "~/features/leads/inbox-query.server";
import { leadsToCsv } from "~/features/leads/lead-csv.server";
import { leadForms, workflowOf, type LeadFormFacts } from "~/features/leads/registry";
import {
  addNote,
  assignLead,
  changeLeadStatus,
  deliverAgain,
  mayDeliverAgain,
  NOTE_MAX,
  recordLeadExport,
  recordLeadView,
  type WorkOutcome,
  type Worker,
} from "~/features/leads/workspace.server";

// What the lead desks' routes do, shared by both desks (/admin/leads, /admin/applications): the
// inbox, its CSV export, a lead's page and its actions. Every entry point checks the desk's role
// first (a recruiter gets 403 on every /admin/leads address, whatever follows), then the form's.

export const INBOX_PAGE_SIZE = 50;
const EXPORT_BATCH = 1000;

/** The desk of this request, its role checked: 403 for anyone who does not hold it (or owner). */
async function requireDesk(request: Request): Promise<{ desk: LeadDesk; signedIn: SignedIn }> {
  const desk = deskOfPath(new URL(request.url).pathname);
  return { desk, signedIn: await requireRole(request, desk.role) };
}

function statusChoices(form: LeadFormFacts) {
  const workflow = workflowOf(form);
  return workflow.statuses.map((status) => ({ value: status, decided: workflow.decided.includes(status) }));
}

export async function loadInbox(request: Request) {
  const { desk } = await requireDesk(request);
  const url = new URL(request.url);
  const query = readInboxQuery(desk, url);
  const withPositions = hasPosition(query.form.table);
  const [page, assignees, pipelines] = await Promise.all([
    listLeadInbox(getDb(), query.form.table, query.filter, { after: query.after, before: query.before, limit: INBOX_PAGE_SIZE }),
    listLeadAssignees(getDb(), query.form.role),
    withPositions ? listPositionPipelines(getDb()) : Promise.resolve([]),
  ]);
  const view = viewQuery(query, desk);
  const link = (name: "after" | "before", cursor: LeadCursor | undefined) =>
    cursor ? `${desk.path}?${new URLSearchParams([...view, [name, cursorParam(cursor)]])}` : undefined;
  return {
    desk: { path: desk.path, title: desk.title },
    tabs: desk.forms.length > 1 ? desk.forms.map((form) => ({ id: form.id, label: form.label, href: inboxPath(form) })) : [],
    form: {
      id: query.form.id,
      label: query.form.label,
      noun: query.form.noun,
      hasCompany: hasCompany(query.form.table),
      hasPosition: withPositions,
    },
    statuses: statusChoices(query.form),
    assignees,
    values: query.values,
    problems: query.problems,
    filtered: [...view.keys()].some((key) => key !== "form"),
    paged: Boolean(query.after || query.before),
    zone: timeZoneOf(request),
    leads: page.leads.map((lead) => ({
      id: lead.id,
      href: leadPagePath(query.form, lead.id),
      name: `${lead.firstName} ${lead.lastName}`.trim(),
      email: lead.email,
      company: lead.company,
      status: lead.status,
      owner: lead.ownerEmail,
      createdAt: lead.createdAt,
      campaign: lead.firstCampaign,
      position: positionOfLead(lead),
      language: lead.locale,
    })),
    positions: withPositions ? positionChoices(query.form, pipelines) : [],
    languages: languageChoices(getEnv().SITE_LOCALES),
    olderHref: link("after", page.older),
    newerHref: link("before", page.newer),
    clearHref: inboxPath(query.form),
    newestHref: [...view].length ? `${desk.path}?${view}` : desk.path,
    exportHref: `${desk.path}/export?${view}`,
  };
}

export type InboxData = Awaited<ReturnType<typeof loadInbox>>;

/** The site's languages for the inbox's column and filter, named in English ("German"); none when the site has one. */
function languageChoices(locales: readonly SiteLocale[]): { value: string; label: string }[] {
  if (locales.length < 2) return [];
  const names = new Intl.DisplayNames(["en"], { type: "language" });
  return locales.map(({ tag }) => ({ value: tag, label: `${names.of(tag) ?? tag} (${tag})` }));
}

/** How the inbox names an application's position: its title then, or an open application (naming what it asked for). */
function positionOfLead(lead: { positionTitle: string | null; positionId: string | null; positionRequested: string | null }) {
  if (lead.positionId !== null) return { title: lead.positionTitle || lead.positionId, requested: "" };
  return { title: "", requested: lead.positionRequested ?? "" };
}

/** The position filter's choices and each position's pipeline: the open applications first, then every position that has applications. */
function positionChoices(form: LeadFormFacts, pipelines: PositionPipeline[]) {
  const statuses = workflowOf(form).statuses;
  const rows: PositionPipeline[] = pipelines.some((pipeline) => pipeline.positionId === null)
    ? pipelines
    : [{ positionId: null, title: "", counts: {}, total: 0 }, ...pipelines];
  return rows.map((pipeline) => {
    const value = pipeline.positionId ?? OPEN_APPLICATIONS;
    return {
      value,
      label: pipeline.positionId === null ? "Open applications" : pipeline.title || pipeline.positionId,
      href: inboxPath(form, new URLSearchParams({ position: value }).toString()),
      counts: statuses.map((status) => pipeline.counts[status] ?? 0),
      total: pipeline.total,
    };
  });
}

/** How many applications a position's page in the back office lists (the desk, filtered, has them all). */
const POSITION_APPLICATIONS_SHOWN = 20;

/**
 * A position's applications for its page in the back office: its pipeline (how many in each
 * status of the recruiting workflow), its newest applications, and the desk filtered to it. The
 * caller checks the recruiter's role.
 */
export async function loadPositionApplications(positionId: string) {
  const form = leadForms["career-application"];
  const statuses = workflowOf(form).statuses;
  const [[pipeline], page] = await Promise.all([
    listPositionPipelines(getDb(), { positionId }),
    listLeadInbox(getDb(), form.table, { positionId }, { limit: POSITION_APPLICATIONS_SHOWN }),
  ]);
  return {
    statuses: [...statuses],
    counts: statuses.map((status) => pipeline?.counts[status] ?? 0),
    total: pipeline?.total ?? 0,
    applications: page.leads.map((lead) => ({
      id: lead.id,
      href: leadPagePath(form, lead.id),
      name: `${lead.firstName} ${lead.lastName}`.trim(),
      email: lead.email,
      status: lead.status,
      createdAt: lead.createdAt,
    })),
    more: Boolean(page.older),
    deskHref: inboxPath(form, new URLSearchParams({ position: positionId }).toString()),
  };
}

/**
 * The inbox's current view (its filters, every page) as CSV, sent as it is read. Audited with the
 * filters. A link from another site (which the Lax session cookie follows) exports nothing and
 * writes nothing in the person's name: it shows the inbox with that view, whose own button exports.
 */
export async function exportInbox(request: Request, context: AppLoadContext): Promise<Response> {
  const { desk, signedIn } = await requireDesk(request);
  const url = new URL(request.url);
  if (startedOnAnotherSite(request)) throw redirect(`${desk.path}${url.search}`, 303);
  const query = readInboxQuery(desk, url);
  const problem = Object.values(query.problems)[0];
  // A download cannot show a message beside a field: a filter it does not understand is a 400.
  if (problem && !query.problems.page) throw data({ message: problem }, { status: 400 });
  const { form, filter } = query;
  const filters = Object.fromEntries(Object.entries(query.values).filter(([, value]) => value !== ""));
  await recordLeadExport(getDb(), worker(signedIn, context), form, filters);
  let after: LeadCursor | undefined;
  let first = true;
  const body = new ReadableStream<string>({
    async pull(controller) {
      const page = await listLeadInbox(getDb(), form.table, filter, { after, limit: EXPORT_BATCH });
      controller.enqueue(leadsToCsv(form.table, page.leads, { header: first }));
      first = false;
      after = page.older;
      if (!after) controller.close();
    },
  });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body.pipeThrough(new TextEncoderStream()), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${form.id}-${day}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}

function worker(signedIn: SignedIn, context: AppLoadContext): Worker {
  return { actor: { id: signedIn.user.id, email: signedIn.user.email }, ip: context.clientIp };
}

type LeadParams = { form?: string; leadId?: string };

/** The form and lead id of a lead's address, or a 404. */
function leadAddress(desk: LeadDesk, params: LeadParams): { form: LeadFormFacts; leadId: string } {
  const form = desk.forms.length > 1 ? deskForm(desk, params.form) : desk.forms[0];
  const leadId = params.leadId ?? "";
  if (!form || !isUuid(leadId)) throw data({ message: "There is no such lead." }, { status: 404 });
  return { form, leadId: leadId.toLowerCase() };
}

/**
 * A lead's page, its opening audited (`lead.view`) in the name of the person signed in. Followed
 * from another site (a link in webmail, or one planted to make entries in someone's name), it shows
 * nothing of the lead and records nothing: only a button that opens it from here, so every entry is
 * a look the person chose. Opened from another program (Sec-Fetch-Site `none`) it shows the lead.
 */
export async function loadLeadPage(
  request: Request,
  context: AppLoadContext,
  params: LeadParams,
): Promise<LeadPageData | LeadArrivalData> {
  const { desk, signedIn } = await requireDesk(request);
  const { form, leadId } = leadAddress(desk, params);
  await requireRole(request, form.role);
  if (startedOnAnotherSite(request)) {
    return {
      arrival: true,
      desk: { path: desk.path, title: desk.title },
      inboxHref: inboxPath(form),
      form: { id: form.id, label: form.label, noun: form.noun },
      href: leadPagePath(form, leadId),
    };
  }
  return leadPage(request, context, desk, signedIn, form, leadId);
}

export type LeadArrivalData = {
  arrival: true;
  desk: { path: string; title: string };
  inboxHref: string;
  form: { id: string; label: string; noun: string };
  href: string;
};

async function leadPage(
  request: Request,
  context: AppLoadContext,
  desk: LeadDesk,
  signedIn: SignedIn,
  form: LeadFormFacts,
  leadId: string,
) {
  const db = getDb();
  const lead = await findLeadRecord(db, form.table, leadId);
  if (!lead) throw data({ message: "There is no such lead." }, { status: 404 });
  const [activity, deliveries, assignees] = await Promise.all([
    listLeadActivity(db, form.table, leadId),
    listLeadDeliveries(db, form.table, leadId),
    listLeadAssignees(db, form.role),
  ]);
  await recordLeadView(db, worker(signedIn, context), form, leadId);
  const ownerIds = new Set<string>();
  if (lead.ownerId) ownerIds.add(lead.ownerId);
  for (const entry of activity) {
    if (entry.kind !== "owner") continue;
    if (entry.fromValue) ownerIds.add(entry.fromValue);
    if (entry.toValue) ownerIds.add(entry.toValue);
  }
  const emails = await emailsOfPeople(db, [...ownerIds].filter(isUuid));
  const personName = (id: string) => (id ? (emails.get(id) ?? "a former colleague") : "nobody");
  return {
    desk: { path: desk.path, title: desk.title },
    inboxHref: inboxPath(form),
    form: { id: form.id, label: form.label, noun: form.noun },
    me: signedIn.user.id,
    zone: timeZoneOf(request),
    lead: {
      ...lead,
      name: `${submittedValue(lead.submitted, "first_name")} ${submittedValue(lead.submitted, "last_name")}`.trim(),
      ownerEmail: lead.ownerId ? personName(lead.ownerId) : "",
    },
    statuses: statusChoices(form),
    assignees,
    deliveries: deliveries.map((delivery) => ({ ...delivery, retry: mayDeliverAgain(delivery) })),
    activity: activity.map((entry) => ({
      ...entry,
      fromValue: entry.kind === "owner" ? personName(entry.fromValue) : entry.fromValue,
      toValue: entry.kind === "owner" ? personName(entry.toValue) : entry.toValue,
    })),
  };
}

export type LeadPageData = Awaited<ReturnType<typeof leadPage>>;

function submittedValue(submitted: [string, string][], column: string): string {
  return submitted.find(([name]) => name === column)?.[1] ?? "";
}

export type LeadActionData = { done?: string; intent?: string; problem?: string; field?: string };

/** The lead page's forms, as posted: one intent each, its fields checked before anything is read. */
const leadActionInput = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("status"),
    status: z.string("Choose a status from the list.").max(40, "Choose a status from the list."),
  }),
  z.object({
    intent: z.literal("owner"),
    owner: z
      .string("Choose someone from the list.")
      .refine((value) => value === "" || isUuid(value), "Choose someone from the list."),
  }),
  z.object({
    intent: z.enum(["note", "reply"]),
    body: z
      .string("Write something first.")
      .trim()
      .min(1, "Write something first.")
      .max(NOTE_MAX, `A note can be at most ${NOTE_MAX} characters.`),
  }),
  z.object({
    intent: z.literal("deliver-again"),
    delivery: z.string("This lead has no such delivery.").refine(isUuid, "This lead has no such delivery."),
  }),
]);

/** The lead page's forms: status, owner, note, reply, deliver again. */
export async function leadPageAction(request: Request, context: AppLoadContext, params: LeadParams) {
  const desk = deskOfPath(new URL(request.url).pathname);
  const { user, form: body } = await requireAdminForm(request, desk.role);
  const { form, leadId } = leadAddress(desk, params);
  await requireRole(request, form.role);
  const who: Worker = { actor: { id: user.id, email: user.email }, ip: context.clientIp };
  const posted = Object.fromEntries([...body.entries()].filter(([, value]) => typeof value === "string"));
  const parsed = leadActionInput.safeParse(posted);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = String(issue?.path[0] ?? "");
    const field =
      path === "body" ? String(posted.intent) : path === "delivery" || path === "status" || path === "owner" ? path : undefined;
    const problem = field && issue ? issue.message : "Unknown action.";
    return data({ problem, field } satisfies LeadActionData, { status: 400 });
  }
  const input = parsed.data;
  const db = getDb();
  let outcome: WorkOutcome;
  if (input.intent === "status") outcome = await changeLeadStatus(db, who, form, leadId, input.status);
  else if (input.intent === "owner")
    outcome = await assignLead(db, who, form, leadId, input.owner ? input.owner.toLowerCase() : null);
  else if (input.intent === "deliver-again") outcome = await deliverAgain(db, who, form, leadId, input.delivery.toLowerCase());
  else outcome = await addNote(db, who, form, leadId, input.intent, input.body);
  if (outcome.ok) return { done: outcome.message, intent: input.intent } satisfies LeadActionData;
  return data({ problem: outcome.problem, field: outcome.field } satisfies LeadActionData, { status: outcome.status });
}
