import { z } from "zod";
import { isCalendarDate } from "~/platform/dates";
import { hasPosition, type LeadCursor, type LeadInboxFilter } from "~/features/leads/db/lead-inbox.server";
import { isUuid } from "~/db/normalize";
import { deskForm, type LeadDesk } from "~/features/leads/desks";
import { isStatusOf, type LeadFormFacts } from "~/features/leads/registry";
import type { SiteLocale } from "~/features/i18n/site-locales";
import { getEnv } from "~/env.server";

// An inbox's query string, read as hostile: every parameter is checked on its own, and one that
// fails is left out of the view and named with a message beside its field, never a 500. Anyone can
// type any URL; the page still answers with what it understood.

export const INBOX_FIELDS = ["q", "status", "owner", "from", "to", "source", "campaign", "position", "locale"] as const;
export type InboxField = (typeof INBOX_FIELDS)[number];

/** The position filter's value for applications that name no position. */
export const OPEN_APPLICATIONS = "open";

export type InboxQuery = {
  form: LeadFormFacts;
  filter: LeadInboxFilter;
  after?: LeadCursor;
  before?: LeadCursor;
  /** The filters as understood, for the form's fields and the links ('' when absent or refused). */
  values: Record<InboxField, string>;
  /** A message per refused parameter ("form" and "page" included). */
  problems: Partial<Record<InboxField | "form" | "page", string>>;
};

const MAX_TEXT = 200;

const text = (label: string) =>
  z
    .string()
    .trim()
    .max(MAX_TEXT, `${label} can be at most ${MAX_TEXT} characters.`)
    // Control characters never come from a person typing.
    .refine(
      (value) => ![...value].some((char) => char.charCodeAt(0) < 0x20 || char === "\u007f"),
      `${label} cannot contain control characters.`,
    );
const day = (label: string) => z.string().refine(isCalendarDate, `${label} must be a date written YYYY-MM-DD.`);

/** A cursor as this page writes it: the creation time to the microsecond (UTC) and the lead's id. */
const CURSOR =
  /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z)_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

export function cursorParam(cursor: LeadCursor): string {
  return `${cursor.createdAt}_${cursor.id}`;
}

/** A cursor from a link, or undefined when it is not one this page could have written. */
export function readCursor(value: string): LeadCursor | undefined {
  const match = CURSOR.exec(value);
  if (!match) return undefined;
  const [, createdAt, id] = match as unknown as [string, string, string];
  // A real instant (no 30 February, no hour 24): the engines would refuse it.
  const date = new Date(createdAt);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 19) !== createdAt.slice(0, 19)) return undefined;
  return { createdAt, id };
}

/** `locales`: the site's (SITE_LOCALES); a lead's language is one of them. */
export function readInboxQuery(desk: LeadDesk, url: URL, locales: readonly SiteLocale[] = getEnv().SITE_LOCALES): InboxQuery {
  const params = url.searchParams;
  const given = (name: string) => params.get(name) ?? "";
  const problems: InboxQuery["problems"] = {};
  const values = Object.fromEntries(INBOX_FIELDS.map((field) => [field, ""])) as Record<InboxField, string>;

  const formParam = given("form");
  const chosen = deskForm(desk, formParam);
  if (!chosen && formParam) problems.form = "There is no such inbox here: showing the first one.";
  const form = chosen ?? desk.forms[0]!;

  const accept = <T>(field: InboxField, schema: z.ZodType<T>): T | undefined => {
    const raw = given(field);
    if (raw.trim() === "") return undefined;
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      problems[field] = parsed.error.issues[0]?.message ?? "This value was not understood.";
      return undefined;
    }
    values[field] = typeof parsed.data === "string" ? parsed.data : raw;
    return parsed.data;
  };

  const filter: LeadInboxFilter = {};
  filter.search = accept("q", text("A search"));
  filter.status = accept(
    "status",
    z.string().refine((status) => isStatusOf(form, status), `Choose a status of ${form.label.toLowerCase()}.`),
  );
  const owner = accept(
    "owner",
    z.string().refine((value) => value === "none" || isUuid(value), "Choose an owner from the list."),
  );
  if (owner !== undefined) filter.ownerId = owner === "none" ? null : owner.toLowerCase();
  const from = accept("from", day("The first day"));
  const to = accept("to", day("The last day"));
  if (from && to && from > to) {
    problems.to = "The last day comes before the first day.";
    values.to = "";
  } else if (to) {
    filter.until = new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000).toISOString();
  }
  if (from) filter.from = `${from}T00:00:00.000Z`;
  filter.sourcePage = accept("source", text("A page"));
  filter.campaign = accept("campaign", text("A campaign"));
  const position = accept(
    "position",
    z
      .string()
      .refine(() => hasPosition(form.table), `${form.label} are not for a position.`)
      .refine((value) => value === OPEN_APPLICATIONS || isUuid(value), "Choose a position from the list."),
  );
  if (position !== undefined) {
    filter.positionId = position === OPEN_APPLICATIONS ? null : position.toLowerCase();
    values.position = position.toLowerCase();
  }

  const locale = accept(
    "locale",
    z
      .string()
      .transform((value) => locales.find((site) => site.tag.toLowerCase() === value.toLowerCase())?.tag ?? "")
      .refine(Boolean, "Choose a language from the list."),
  );
  if (locale) filter.locale = locale;

  const after = given("after") ? readCursor(given("after")) : undefined;
  const before = !after && given("before") ? readCursor(given("before")) : undefined;
  if ((given("after") && !after) || (given("before") && !after && !before)) {
    problems.page = "That page link was not understood: showing the newest leads.";
  }
  return { form, filter, after, before, values, problems };
}

/** The query string of the view (form and filters, no page position), for links and the export. */
export function viewQuery(query: InboxQuery, desk: LeadDesk): URLSearchParams {
  const params = new URLSearchParams(desk.forms.length > 1 ? [["form", query.form.id]] : []);
  for (const field of INBOX_FIELDS) if (query.values[field]) params.set(field, query.values[field]);
  return params;
}
