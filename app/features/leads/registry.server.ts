import type { z } from "zod";
import { failure, success, type FormMessages } from "~/features/leads/forms/outcomes";
import { careerApplicationSchema, contactSalesSchema, demoRequestSchema } from "~/features/leads/forms/schemas";
import { LEAD_FORM_IDS, leadForms, type LeadFormFacts, type LeadFormId } from "~/features/leads/registry";

// The server's half of the lead forms' registry: each form's schema, its table's columns in
// export order, what the visitor is told, how its email subject reads and which settings say
// where it is delivered. Everything that handles leads (insert, export, delivery, retention,
// privacy requests) reads these, so a new form is an entry here and in ./registry, its schema,
// a migration for its table and its route.

/**
 * Where a lead came from, stored with every form: the form page's path and the five utm_*
 * parameters of its own address (empty when it has none), then the visit's first touch: its first
 * page, the referring host and that page's five parameters (see ~/features/leads/attribution). The
 * first-touch campaign columns came last (migration 0012-lead-first-touch), so exports keep
 * their earlier order.
 */
export const TRACKING_COLUMNS = [
  "source_page",
  "landing_page",
  "referrer_host",
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "utm_term",
  "utm_content",
  "first_utm_source",
  "first_utm_medium",
  "first_utm_campaign",
  "first_utm_term",
  "first_utm_content",
] as const;
/** Beyond the specification's columns, tracking may be absent from rows written by other tools: they store the columns' defaults. */
export type Tracking = Record<"source_page" | "utm_source" | "utm_medium" | "utm_campaign", string> &
  Partial<
    Record<Exclude<(typeof TRACKING_COLUMNS)[number], "source_page" | "utm_source" | "utm_medium" | "utm_campaign">, string>
  >;

/**
 * The open position an application names (migration 0018-application-positions), all null for an
 * open application: the position's id and title at the time, or, when the position asked for was
 * closed, unknown or a draft, what was asked for. After the tracking columns, so exports keep
 * their earlier order.
 */
export const POSITION_COLUMNS = ["position_id", "position_title", "position_requested"] as const;
export type ApplicationPosition = Record<(typeof POSITION_COLUMNS)[number], string | null>;

/**
 * The language of the form the visitor sent (migration 0020-locales; "en" for rows written
 * without one). Last, so exports keep their earlier order.
 */
export const LOCALE_COLUMN = "locale";

type Snake<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}_${Snake<Tail>}` : S;

/** The setting holding a form's webhook URL: `WEBHOOK_URL_CONTACT_SALES` for contact-sales. */
export type WebhookSetting = `WEBHOOK_URL_${Uppercase<Snake<LeadFormId>>}`;

export function webhookSettingOf(id: LeadFormId): WebhookSetting {
  return `WEBHOOK_URL_${id.toUpperCase().replaceAll("-", "_")}` as WebhookSetting;
}

/** The settings listing who receives a form's leads by email. */
export type MailToSetting = "SALES_EMAIL_TO" | "CAREERS_EMAIL_TO";

/**
 * "Demo request — Ada Lovelace, Acme (51-200)": the title, the name (or `noName` when there is
 * none) and, for business forms, the company (with its size when the form asks for one).
 */
export type MailSubject = { title: string; noName?: string; company?: "company" | "company-and-size" };

export type LeadFormServer<Schema extends z.ZodObject = z.ZodObject> = LeadFormFacts & {
  schema: Schema;
  /** The form's fields in export order (every field of the schema, checked by the compiler). */
  fields: readonly string[];
  /** Every column the site writes, in export order: id, created_at, the fields, tracking, the form's own extras, then the locale. */
  columns: readonly string[];
  /** Columns holding whole numbers (the rest are text). */
  numberColumns: readonly string[];
  messages: FormMessages;
  mailSubject: MailSubject;
  mailTo: MailToSetting;
  webhookSetting: WebhookSetting;
};

/** Every key of the schema's output, once: a missing field is a compile error naming it. */
type AllFields<Schema extends z.ZodObject, Fields extends readonly string[]> = Fields &
  ([Exclude<keyof z.output<Schema>, Fields[number]>] extends [never]
    ? unknown
    : { missing: Exclude<keyof z.output<Schema>, Fields[number]> });

function defineLeadForm<Schema extends z.ZodObject, const Fields extends readonly (keyof z.output<Schema> & string)[]>(
  id: LeadFormId,
  server: {
    schema: Schema;
    fields: AllFields<Schema, Fields>;
    numberFields?: readonly Fields[number][];
    messages: FormMessages;
    mailSubject: MailSubject;
    mailTo: MailToSetting;
    /** Columns the site fills from something other than the form's fields (an application's position). */
    extraColumns?: readonly string[];
  },
): LeadFormServer<Schema> & { fields: Fields } {
  return {
    ...leadForms[id],
    ...server,
    columns: ["id", "created_at", ...server.fields, ...TRACKING_COLUMNS, ...(server.extraColumns ?? []), LOCALE_COLUMN],
    numberColumns: server.numberFields ?? [],
    webhookSetting: webhookSettingOf(id),
  };
}

export const leadFormServers = {
  "contact-sales": defineLeadForm("contact-sales", {
    schema: contactSalesSchema,
    fields: ["first_name", "last_name", "email", "company", "phone", "message", "product_name"],
    messages: { success: success("outcome.contactSales.success"), failure: failure("outcome.contactSales.failure") },
    mailSubject: { title: "Contact request", noName: "(no name)", company: "company" },
    mailTo: "SALES_EMAIL_TO",
  }),
  "request-demo": defineLeadForm("request-demo", {
    schema: demoRequestSchema,
    fields: ["first_name", "last_name", "email", "company", "job_title", "phone", "company_size", "message", "product_name"],
    messages: { success: success("outcome.requestDemo.success"), failure: failure("outcome.requestDemo.failure") },
    mailSubject: { title: "Demo request", company: "company-and-size" },
    mailTo: "SALES_EMAIL_TO",
  }),
  "career-application": defineLeadForm("career-application", {
    schema: careerApplicationSchema,
    fields: [
      "first_name",
      "last_name",
      "email",
      "phone",
      "linkedin_profile",
      "years_experience",
      "current_position",
      "why_quorvant",
      "biggest_achievement",
      "work_style",
      "resume_url",
    ],
    numberFields: ["years_experience"],
    messages: {
      success: success("outcome.careerApplication.success"),
      failure: failure("outcome.careerApplication.failure"),
      positionClosed: success("outcome.careerApplication.positionClosed"),
    },
    mailSubject: { title: "Job application" },
    mailTo: "CAREERS_EMAIL_TO",
    extraColumns: POSITION_COLUMNS,
  }),
} satisfies Record<LeadFormId, LeadFormServer>;

type LeadFormServers = typeof leadFormServers;

export const leadFormServerList: readonly LeadFormServer[] = LEAD_FORM_IDS.map((id) => leadFormServers[id]);

export function leadFormServer(id: LeadFormId): LeadFormServer {
  return leadFormServers[id];
}

/** The form whose leads a table holds. */
export function leadFormServerOfTable(table: string): LeadFormServer | undefined {
  return leadFormServerList.find((form) => form.table === table);
}

/** A text column accepts any string, though a form's choice lists (product, company size, work style) narrow it. */
type Column<Value> = Value extends string ? string : Value;

/** A form's validated values (its schema's output). */
export type LeadValues<F extends LeadFormId> = z.output<LeadFormServers[F]["schema"]>;

/** A lead row as inserted: the fields of the form's schema plus the tracking columns. */
export type LeadInput<F extends LeadFormId> = { [Field in keyof LeadValues<F>]: Column<LeadValues<F>[Field]> } & Tracking &
  Partial<Record<typeof LOCALE_COLUMN, string>> &
  (F extends "career-application" ? Partial<ApplicationPosition> : unknown);
