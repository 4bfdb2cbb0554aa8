import type { Role } from "~/config/roles";
import type { LeadTable } from "~/db/schema";

// The lead forms, in one place: which table each fills, who works it in the back office, the
// statuses it moves through and how long it is kept. Safe for the browser (names and lists only);
// the server's half (schemas, columns, messages, mail subject, webhook setting) extends these facts.
// Adding a form: a migration for its table, an entry here and in the server's half, its route.

export const LEAD_FORM_IDS = ["contact-sales", "request-demo", "career-application"] as const;
export type LeadFormId = (typeof LEAD_FORM_IDS)[number];

export type WorkflowId = "sales" | "recruiting";

export type Workflow = {
  /** In the order a lead usually moves through them; the first is where every lead starts. */
  statuses: readonly string[];
  /** Final statuses: reaching one sets the lead's decision date. */
  decided: readonly string[];
};

export const workflows = {
  sales: { statuses: ["new", "contacted", "qualified", "won", "lost"], decided: ["won", "lost"] },
  recruiting: {
    statuses: ["new", "screening", "interview", "offer", "hired", "rejected"],
    decided: ["hired", "rejected"],
  },
} as const satisfies Record<WorkflowId, Workflow>;

/**
 * How long a lead is kept (the privacy policy's promise): sales leads from their last interaction
 * (or submission) unless won; applications from their decision. Months come from settings.
 */
export type RetentionRule =
  | { from: "last-interaction"; keep: "won"; monthsSetting: "RETENTION_SALES_MONTHS" }
  | { from: "decision"; monthsSetting: "RETENTION_APPLICATIONS_MONTHS" };

export type LeadFormFacts = {
  id: LeadFormId;
  table: LeadTable;
  /** Plural, for headings and menus. */
  label: string;
  /** Singular, lower case, for sentences. */
  noun: string;
  /** Who works these leads (owners may too). */
  role: Role;
  workflow: WorkflowId;
  retention: RetentionRule;
};

const salesRetention: RetentionRule = { from: "last-interaction", keep: "won", monthsSetting: "RETENTION_SALES_MONTHS" };

export const leadForms: Record<LeadFormId, LeadFormFacts> = {
  "contact-sales": {
    id: "contact-sales",
    table: "sales_leads",
    label: "Contact requests",
    noun: "contact request",
    role: "sales",
    workflow: "sales",
    retention: salesRetention,
  },
  "request-demo": {
    id: "request-demo",
    table: "demo_requests",
    label: "Demo requests",
    noun: "demo request",
    role: "sales",
    workflow: "sales",
    retention: salesRetention,
  },
  "career-application": {
    id: "career-application",
    table: "career_applications",
    label: "Job applications",
    noun: "job application",
    role: "recruiter",
    workflow: "recruiting",
    retention: { from: "decision", monthsSetting: "RETENTION_APPLICATIONS_MONTHS" },
  },
};

export const leadFormList: readonly LeadFormFacts[] = LEAD_FORM_IDS.map((id) => leadForms[id]);

export function isLeadFormId(value: string): value is LeadFormId {
  return (LEAD_FORM_IDS as readonly string[]).includes(value);
}

export function leadFormOfTable(table: LeadTable): LeadFormFacts {
  const form = leadFormList.find((candidate) => candidate.table === table);
  if (!form) throw new Error(`no lead form stores into ${table}`);
  return form;
}

export function workflowOf(form: LeadFormFacts): Workflow {
  return workflows[form.workflow];
}

export function isStatusOf(form: LeadFormFacts, status: string): boolean {
  return workflowOf(form).statuses.includes(status);
}
