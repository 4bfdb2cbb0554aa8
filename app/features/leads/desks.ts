import type { Role } from "~/config/roles";
import { leadFormList, type LeadFormFacts, type LeadFormId } from "~/features/leads/registry";

// The back office's two lead desks: /admin/leads (contact and demo requests, role sales) and
// /admin/applications (job applications, role recruiter). A desk holds every form its role works;
// each form of a desk has its own inbox. Safe for the browser: paths and names only.

export type LeadDeskId = "leads" | "applications";

export type LeadDesk = {
  id: LeadDeskId;
  /** The desk's inbox; its forms' leads live below it. */
  path: string;
  title: string;
  role: Role;
  forms: readonly LeadFormFacts[];
};

function desk(id: LeadDeskId, title: string, role: Role): LeadDesk {
  return { id, path: `/admin/${id}`, title, role, forms: leadFormList.filter((form) => form.role === role) };
}

export const leadDesks: Record<LeadDeskId, LeadDesk> = {
  leads: desk("leads", "Leads", "sales"),
  applications: desk("applications", "Applications", "recruiter"),
};

/** The desk a back-office path belongs to (/admin/leads…, /admin/applications…). */
export function deskOfPath(pathname: string): LeadDesk {
  return pathname.startsWith("/admin/applications") ? leadDesks.applications : leadDesks.leads;
}

/** The desk whose inboxes hold a form's leads. */
export function deskOfForm(form: LeadFormFacts): LeadDesk {
  return form.role === leadDesks.applications.role ? leadDesks.applications : leadDesks.leads;
}

/**
 * A lead's page: /admin/leads/<form>/<id> on a desk of several forms, /admin/applications/<id> on
 * the desk of one.
 */
export function leadPagePath(form: LeadFormFacts, leadId: string): string {
  const home = deskOfForm(form);
  return home.forms.length > 1 ? `${home.path}/${form.id}/${leadId}` : `${home.path}/${leadId}`;
}

/** A form's inbox: the desk's page, naming the form when the desk has several. */
export function inboxPath(form: LeadFormFacts, query = ""): string {
  const home = deskOfForm(form);
  const params = new URLSearchParams(home.forms.length > 1 ? [["form", form.id]] : []);
  for (const [name, value] of new URLSearchParams(query)) if (name !== "form") params.append(name, value);
  const search = params.toString();
  return search ? `${home.path}?${search}` : home.path;
}

/** A form id of this desk, or undefined. */
export function deskForm(home: LeadDesk, id: string | null | undefined): LeadFormFacts | undefined {
  return home.forms.find((form) => form.id === (id as LeadFormId));
}
