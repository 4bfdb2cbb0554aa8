import { z } from "zod";
import { canonicalPath, hasDotSegments } from "~/platform/canonical-path";
import { TRACKING_PARAMS } from "~/features/site/query-params";

// The shape of a redirect and the rules that need no database: what an old address and a target
// may look like, and how an answer's Location is made. Shared by the form and the server.

export const REDIRECT_KINDS = {
  permanent: { label: "Permanent (301)", status: 301 },
  temporary: { label: "Temporary (302)", status: 302 },
  gone: { label: "Gone (410)", status: 410 },
} as const;
export type RedirectKind = keyof typeof REDIRECT_KINDS;

export const REDIRECT_SOURCES = {
  editor: "Added by an editor",
  "page-move": "Page moved",
  "post-rename": "Post renamed",
} as const;
export type RedirectSource = keyof typeof REDIRECT_SOURCES;

export const MAX_PATH_LENGTH = 512;
export const MAX_TARGET_LENGTH = 2048;

// Control characters (C0, DEL, C1) and the line and paragraph separators.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

export type PathCheck = { ok: true; path: string } | { ok: false; error: string };

/**
 * An old address as an editor types it, in the one form the server reads paths (so `/Old/`,
 * `/old` and `/%6Fld` are one address): starts with one `/`, no `//`, no query or fragment, no
 * control characters, no `.` or `..` segment, at most MAX_PATH_LENGTH characters. Characters
 * outside ASCII are percent-encoded as a browser sends them.
 */
export function normaliseOldPath(input: string): PathCheck {
  const raw = input.trim();
  if (raw === "") return { ok: false, error: "Enter the old address, starting with /." };
  if (raw.length > MAX_PATH_LENGTH) return { ok: false, error: `At most ${MAX_PATH_LENGTH} characters.` };
  if (CONTROL.test(raw)) return { ok: false, error: "The address holds a control character." };
  if (!raw.startsWith("/")) return { ok: false, error: "An address of this site starts with /, such as /old-page." };
  if (raw.includes("//") || raw.includes("\\")) return { ok: false, error: "The address may not hold // or \\." };
  if (raw.includes("?") || raw.includes("#"))
    return { ok: false, error: "Only the path: no query string (?…) or fragment (#…). A redirect answers every query string." };
  if (/\s/.test(raw)) return { ok: false, error: "The address may not hold spaces." };
  if (hasDotSegments(raw)) return { ok: false, error: "The address may not hold . or .. segments." };
  if (/%(?![0-9a-fA-F]{2})/.test(raw)) return { ok: false, error: "A % must start an escape such as %20." };
  const path = canonicalPath(encodeOutsideAscii(raw));
  if (path === "/") return { ok: false, error: "The home page cannot be redirected." };
  if (path.length > MAX_PATH_LENGTH) return { ok: false, error: `At most ${MAX_PATH_LENGTH} characters.` };
  return { ok: true, path };
}

/** Percent-encodes what a browser would in a path (non-ASCII as UTF-8, and " < > ` { }), nothing else. */
function encodeOutsideAscii(path: string): string {
  // eslint-disable-next-line no-control-regex
  return path.replace(/[^\u0000-\u007f]+|["<>`{}]/gu, (run) => encodeURIComponent(run));
}

export type Target = { type: "path"; path: string; query: string; value: string } | { type: "url"; url: string; value: string };
export type TargetCheck = { ok: true; target: Target } | { ok: false; error: string };

/**
 * Where a redirect leads: a path of this site (its query kept, its fragment too) or an absolute
 * https URL with a host and no credentials. Nothing else, so no redirect can send visitors to a
 * `javascript:` or `http:` address, or to another site through `//host`.
 */
export function parseTarget(input: string): TargetCheck {
  const raw = input.trim();
  if (raw === "") return { ok: false, error: "Enter where it leads: a path of this site (/…) or an https:// address." };
  if (raw.length > MAX_TARGET_LENGTH) return { ok: false, error: `At most ${MAX_TARGET_LENGTH} characters.` };
  if (CONTROL.test(raw) || /\s/.test(raw)) return { ok: false, error: "The address may not hold spaces or control characters." };
  if (raw.startsWith("/")) {
    const cut = raw.search(/[?#]/);
    const pathPart = cut === -1 ? raw : raw.slice(0, cut);
    const rest = cut === -1 ? "" : raw.slice(cut);
    const checked = pathPart === "/" ? ({ ok: true, path: "/" } as const) : normaliseOldPath(pathPart);
    if (!checked.ok) return checked;
    return { ok: true, target: { type: "path", path: checked.path, query: rest, value: checked.path + rest } };
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, error: "Not an address: use a path of this site (/…) or an https:// address." };
  }
  if (url.protocol !== "https:") return { ok: false, error: "Only https:// addresses (or a path of this site, /…)." };
  if (!url.hostname || !url.hostname.includes("."))
    return { ok: false, error: "The address needs a full host name, such as example.com." };
  if (url.username || url.password) return { ok: false, error: "The address may not hold a user name or password." };
  return { ok: true, target: { type: "url", url: url.href, value: url.href } };
}

/** The stored target text as a Target (it was checked when saved). */
export function storedTarget(value: string): Target | undefined {
  const parsed = value ? parseTarget(value) : undefined;
  return parsed?.ok ? parsed.target : undefined;
}

/**
 * The Location of an answer: the target, plus the campaign parameters (utm_*) of the visitor's
 * request that the target does not set itself. Other parameters of the old address are dropped:
 * they meant something to the old page, not to the new one, and would carry one visitor's URL on.
 */
export function locationFor(target: Target, requestSearch: string): string {
  const base = target.type === "path" ? new URL(target.value, "https://site.invalid") : new URL(target.url);
  const incoming = new URLSearchParams(requestSearch);
  for (const name of TRACKING_PARAMS) {
    const value = incoming.get(name);
    if (value !== null && !base.searchParams.has(name)) base.searchParams.set(name, value);
  }
  return target.type === "path" ? base.pathname + base.search + base.hash : base.href;
}

export const redirectFormSchema = z.object({
  from: z.string().max(MAX_PATH_LENGTH * 4, "Too long."),
  kind: z.enum(["permanent", "temporary", "gone"], "Choose permanent, temporary or gone."),
  target: z
    .string()
    .max(MAX_TARGET_LENGTH * 2, "Too long.")
    .default(""),
});
export type RedirectFormValues = { from: string; kind: string; target: string };
export type RedirectFieldErrors = Partial<Record<"from" | "kind" | "target", string>>;
