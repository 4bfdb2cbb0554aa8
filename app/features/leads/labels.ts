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
  first_utm_source: "First visit's utm_source",
  first_utm_medium: "First visit's utm_medium",
  first_utm_campaign: "First visit's utm_campaign",
  first_utm_term: "First visit's utm_term",
  first_utm_content: "First visit's utm_content",
  position_id: "Position id",
  position_title: "Position (its title then)",
  position_requested: "Asked for a position not open",
};

/**
 * A lead's attribution on its page, in two parts: the form page's own address (the columns the
 * specification defines, and its other two campaign parameters) and the visit's first touch.
 */
export const attributionGroups = [
  {
    title: "Campaign on the form page",
    columns: [
      ["source_page", "Form page"],
      ["utm_source", "utm_source"],
      ["utm_medium", "utm_medium"],
      ["utm_campaign", "utm_campaign"],
      ["utm_term", "utm_term"],
      ["utm_content", "utm_content"],
    ],
  },
  {
    title: "First visit",
    columns: [
      ["landing_page", "First page"],
      ["referrer_host", "Referred by (site)"],
      ["first_utm_source", "utm_source"],
      ["first_utm_medium", "utm_medium"],
      ["first_utm_campaign", "utm_campaign"],
      ["first_utm_term", "utm_term"],
      ["first_utm_content", "utm_content"],
    ],
  },
] as const;

/** A column's name for people: "first_name" → "First name", with a few spelled out. */
export function columnLabel(column: string): string {
  const known = columnLabels[column];
  if (known) return known;
  const words = column.replaceAll("_", " ");
  return words[0] ? words[0].toUpperCase() + words.slice(1) : column;
}
