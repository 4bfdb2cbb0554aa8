// Where a visit came from, in the same normal form wherever it is read: the visitor's tab (kept in
// session storage from the first page), a lead form's post, and the server's visit counter. Values
// arrive from anyone's links, so each is bounded and reduced to plain, lower-case text; the same
// campaign spelled "LinkedIn" and "linkedin" is one campaign.

export const CAMPAIGN_PARAMETERS = ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"] as const;
export type CampaignParameter = (typeof CAMPAIGN_PARAMETERS)[number];
export type Campaign = Record<CampaignParameter, string>;

/** A visit's first page on the site, the site that sent the visitor there, and its campaign. */
export type Attribution = Campaign & { landing_page: string; referrer_host: string };

/**
 * A lead's columns for its visit's first touch: the first page, the site that referred it (the
 * columns keep the names they were added under) and the first page's campaign under `first_utm_*`,
 * apart from the `utm_*` columns, which hold the form page's own campaign.
 */
export const FIRST_TOUCH_COLUMNS = [
  "landing_page",
  "referrer_host",
  "first_utm_source",
  "first_utm_medium",
  "first_utm_campaign",
  "first_utm_term",
  "first_utm_content",
] as const;
export type FirstTouch = Record<(typeof FIRST_TOUCH_COLUMNS)[number], string>;

/** A visit's attribution as a lead's first-touch columns. */
export function firstTouchOf(visit: Attribution): FirstTouch {
  return {
    landing_page: visit.landing_page,
    referrer_host: visit.referrer_host,
    first_utm_source: visit.utm_source,
    first_utm_medium: visit.utm_medium,
    first_utm_campaign: visit.utm_campaign,
    first_utm_term: visit.utm_term,
    first_utm_content: visit.utm_content,
  };
}

/** The hidden field a lead form sends the tab's attribution in (JSON). */
export const VISIT_FIELD = "visit";

export const MAX_CAMPAIGN_VALUE = 100;
export const MAX_PATH = 512;
const MAX_HOST = 253;

/** Control, format (bidi overrides included) and unassigned characters: never part of a campaign's name. */
const INVISIBLE = /[\p{C}]/gu;

export function normaliseCampaignValue(value: string | null | undefined): string {
  if (!value) return "";
  return value
    .normalize("NFKC")
    .replace(INVISIBLE, " ")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase()
    .slice(0, MAX_CAMPAIGN_VALUE)
    .trim();
}

export function campaignFrom(params: URLSearchParams): Campaign {
  const campaign = {} as Campaign;
  for (const name of CAMPAIGN_PARAMETERS) campaign[name] = normaliseCampaignValue(params.get(name));
  return campaign;
}

/** A path as the site spells it ("/" when there is none usable). */
export function normalisePath(value: string | null | undefined): string {
  if (!value || !value.startsWith("/") || value.startsWith("//")) return "";
  return value.replace(INVISIBLE, "").slice(0, MAX_PATH);
}

/** A host name (and port), lower case; '' for anything that is not one. */
export function normaliseHost(value: string | null | undefined): string {
  const host = (value ?? "").trim().toLowerCase();
  return host.length <= MAX_HOST && /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:\d{1,5})?$/.test(host) ? host : "";
}

/** The host of an http(s) address, or '' when it is none. */
export function hostOf(address: string | null | undefined): string {
  if (!address) return "";
  try {
    const url = new URL(address);
    return url.protocol === "https:" || url.protocol === "http:" ? normaliseHost(url.host) : "";
  } catch {
    return "";
  }
}

/** The host of an http(s) referrer, or '' when there is none or it is this site itself. */
export function referrerHostOf(referrer: string | null | undefined, ownHost: string): string {
  const host = hostOf(referrer);
  return host === ownHost.toLowerCase() ? "" : host;
}

/** Attribution from a page's own address (a visitor without JavaScript, or with nothing kept). */
export function attributionOfPage(url: URL, referrer: string | null | undefined): Attribution {
  return {
    landing_page: normalisePath(url.pathname) || "/",
    referrer_host: referrerHostOf(referrer, url.host),
    ...campaignFrom(url.searchParams),
  };
}

/** An attribution sent back by a tab (JSON in a hidden field): every value re-checked; undefined if unusable. */
export function parseAttribution(text: string | null | undefined): Attribution | undefined {
  if (!text || text.length > 4096) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!value || typeof value !== "object") return undefined;
  const record = value as Record<string, unknown>;
  const text_ = (key: string) => (typeof record[key] === "string" ? (record[key] as string) : "");
  const landing = normalisePath(text_("landing_page"));
  if (!landing) return undefined;
  const attribution = { landing_page: landing, referrer_host: normaliseHost(text_("referrer_host")) } as Attribution;
  for (const name of CAMPAIGN_PARAMETERS) attribution[name] = normaliseCampaignValue(text_(name));
  return attribution;
}
