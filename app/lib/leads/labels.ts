// How the lead pages name statuses and columns. Safe for the browser.

/** "qualified" → "Qualified". */
export function statusLabel(status: string): string {
  return status ? status[0]!.toUpperCase() + status.slice(1) : "";
}

const columnLabels: Record<string, string> = {
  email: "Email",
  linkedin_profile: "LinkedIn profile",
  resume_url: "Résumé link",
  why_quorvant: "Why Quorvant",
  product_name: "Product",
  source_page: "Form page",
  landing_page: "First page of the visit",
  referrer_host: "Referred by (site)",
  utm_source: "utm_source",
  utm_medium: "utm_medium",
  utm_campaign: "utm_campaign",
  utm_term: "utm_term",
  utm_content: "utm_content",
};

/** A column's name for people: "first_name" → "First name", with a few spelled out. */
export function columnLabel(column: string): string {
  const known = columnLabels[column];
  if (known) return known;
  const words = column.replaceAll("_", " ");
  return words[0] ? words[0].toUpperCase() + words.slice(1) : column;
}
