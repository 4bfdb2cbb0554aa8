import type { LeadForm } from "~/features/leads/delivery/config.server";
import { leadFormServers } from "~/features/leads/registry.server";

// What a lead looks like to the people who act on it: an email subject a person can triage from,
// and every field of the row in text and HTML. Every value is the visitor's: in headers it loses
// its control characters (no header injection), in HTML it is escaped (no markup).

export type LeadRecord = Record<string, unknown>;

const formName = (form: LeadForm) => leadFormServers[form].mailSubject.title;

/** One line for a header: control characters (CR and LF included) become spaces. */
export function headerSafe(value: unknown): string {
  return (
    String(value ?? "")
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ")
      .replace(/\s+/g, " ")
      .trim()
  );
}

const text = (lead: LeadRecord, field: string) => headerSafe(lead[field]);

/**
 * An application's position for people: its title (and id), or "Open application", naming what it
 * asked for when that was not open. Undefined for the other forms.
 */
export function positionLine(form: LeadForm, lead: LeadRecord): string | undefined {
  if (form !== "career-application") return undefined;
  if (text(lead, "position_id")) return `${text(lead, "position_title") || "Untitled position"} (${text(lead, "position_id")})`;
  const requested = text(lead, "position_requested");
  return requested ? `Open application (asked for ${requested}, which is not open)` : "Open application";
}

/** "Demo request — Ada Lovelace, Acme (51-200)", "Job application — Ada Lovelace, Security Researcher"; empty parts are left out. */
export function emailSubject(form: LeadForm, lead: LeadRecord): string {
  const subject = leadFormServers[form].mailSubject;
  const name = [text(lead, "first_name"), text(lead, "last_name")].filter(Boolean).join(" ");
  const parts = [name || subject.noName || ""];
  if (subject.company && text(lead, "company")) {
    const size = subject.company === "company-and-size" && text(lead, "company_size") ? ` (${text(lead, "company_size")})` : "";
    parts.push(`${text(lead, "company")}${size}`);
  }
  if (form === "career-application" && text(lead, "position_id")) parts.push(text(lead, "position_title"));
  return `${subject.title} — ${parts.filter(Boolean).join(", ")}`.slice(0, 250);
}

/** A column's label for people: `utm_source` → "UTM source", `why_quorvant` → "Why Quorvant". */
export function fieldLabel(column: string): string {
  if (column === "id") return "Lead id";
  const words = column.split("_").map((word) => (word === "utm" ? "UTM" : word === "url" ? "URL" : word));
  const label = words.join(" ");
  return label.charAt(0).toUpperCase() + label.slice(1);
}

function displayValue(value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  return String(value);
}

export function emailText(form: LeadForm, lead: LeadRecord): string {
  const lines = Object.entries(lead).map(([column, value]) => `${fieldLabel(column)}: ${displayValue(value)}`);
  const position = positionLine(form, lead);
  return `${formName(form)} from the website.\n\n${position ? `Position: ${position}\n\n` : ""}${lines.join("\n")}\n`;
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);

export function emailHtml(form: LeadForm, lead: LeadRecord): string {
  const rows = Object.entries(lead)
    .map(
      ([column, value]) =>
        `<tr><th align="left" valign="top" style="padding:4px 12px 4px 0">${escapeHtml(fieldLabel(column))}</th>` +
        `<td style="padding:4px 0;white-space:pre-wrap">${escapeHtml(displayValue(value))}</td></tr>`,
    )
    .join("\n");
  const position = positionLine(form, lead);
  const positionHtml = position ? `<p><strong>Position:</strong> ${escapeHtml(position)}</p>\n` : "";
  return `<!DOCTYPE html><html><body style="font-family:sans-serif">\n<h1 style="font-size:18px">${escapeHtml(formName(form))} from the website</h1>\n${positionHtml}<table>\n${rows}\n</table>\n</body></html>\n`;
}

/**
 * The webhook's JSON body: what happened, which form and table, and the lead's columns (an
 * application's position_id and position_title among them, both null for an open application).
 */
export function webhookBody(form: LeadForm, table: string, lead: LeadRecord): string {
  return JSON.stringify({ type: "lead.created", form, table, lead });
}
