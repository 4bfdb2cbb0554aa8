import { z } from "zod";
import { site } from "~/config/site";
import type { Translate } from "~/features/leads/forms/form-texts";

// Our CSP forbids eval: without this, Zod probes `new Function` in the browser and the probe is
// reported as a CSP violation (caught, but noisy for monitoring and Lighthouse).
z.config({ jitless: true });

// One Zod schema per form, used by the browser (Conform's native constraints and
// live validation) and by the server's action, with its messages in the page's language (a
// Translate: ./form-texts). Conform turns an empty input into `undefined`, so optional fields
// default to "" and are stored as entered. Safe for the browser: no message catalog in it.

/** Field caps: names, company, job title and position 100; phone 40; email 254; URLs 2,048; free text 5,000. */
export const LIMITS = { name: 100, phone: 40, email: 254, url: 2048, text: 5000 } as const;

export const COMPANY_SIZES = ["1-10", "11-50", "51-200", "201-500", "500+"] as const;
export const WORK_STYLES = ["collaborative", "independent", "hybrid", "leadership"] as const;
export const PRODUCT_INTERESTS = ["General", site.product.name] as const;

// Values reach people as email headers and lines of text: a one-line field that carried a line
// break could forge a line of the sales email ("Company: x\nBudget: approved"). Control characters
// (CR, LF, tab, the C1 range, the Unicode line and paragraph separators) become a space in one-line
// fields; multi-line fields keep their line breaks (as \n) and lose the rest. Links lose theirs
// in Zod's URL check.
// eslint-disable-next-line no-control-regex
const CONTROL_RUNS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;
// eslint-disable-next-line no-control-regex
const CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g;

/** One line: every run of control characters becomes one space. */
export function oneLine(value: string): string {
  return value.replace(CONTROL_RUNS, " ");
}

/** Line breaks (CRLF, CR, LF, U+2028, U+2029) become \n; other control characters are dropped (a tab becomes a space). */
export function multiLine(value: string): string {
  return value
    .replace(/\r\n?|[\u2028\u2029]/g, "\n")
    .replace(/\t/g, " ")
    .replace(CONTROL_BUT_NEWLINE, "");
}

type Lines = "one" | "many";

/** The three forms' schemas, their messages from `t`. */
export function leadFormSchemas(t: Translate) {
  const tooLong = (max: number) => t("form.error.tooLong", { max });

  function optionalText(max: number, lines: Lines = "one") {
    return z
      .string()
      .overwrite(lines === "one" ? oneLine : multiLine)
      .trim()
      .max(max, tooLong(max))
      .optional()
      .transform((value) => value ?? "");
  }

  function requiredText(max: number, missing: string, lines: Lines = "one") {
    return z
      .string({ error: missing })
      .overwrite(lines === "one" ? oneLine : multiLine)
      .trim()
      .min(1, missing)
      .max(max, tooLong(max));
  }

  const emailMessage = t("form.error.email");
  const email = z.email({ error: emailMessage }).max(LIMITS.email, tooLong(LIMITS.email));

  /** An absolute public http(s) link: a real domain name, not localhost or a bare address (Zod drops its line breaks and tabs). */
  function optionalPublicUrl(message: string) {
    return z
      .url({ protocol: /^https?$/, hostname: z.regexes.domain, error: message })
      .max(LIMITS.url, tooLong(LIMITS.url))
      .optional()
      .transform((value) => value ?? "");
  }

  function optionalChoice<const T extends readonly [string, ...string[]]>(options: T, message: string) {
    return z
      .enum(options, { error: message })
      .optional()
      .transform((value): T[number] | "" => value ?? "");
  }

  function productInterest(fallback: (typeof PRODUCT_INTERESTS)[number]) {
    return z
      .enum(PRODUCT_INTERESTS, { error: t("form.error.productChoice") })
      .optional()
      .transform((value) => value ?? fallback);
  }

  const firstName = t("form.error.firstNameMissing");
  const lastName = t("form.error.lastNameMissing");
  const emailMissing = (missing: string) => (issue: { input?: unknown }) => (issue.input === undefined ? missing : emailMessage);
  const wholeYears = t("form.error.yearsWhole");

  return {
    /** Contact sales: nothing required; only a malformed email is refused. */
    "contact-sales": z.object({
      first_name: optionalText(LIMITS.name),
      last_name: optionalText(LIMITS.name),
      email: email.optional().transform((value) => value ?? ""),
      company: optionalText(LIMITS.name),
      phone: optionalText(LIMITS.phone),
      product_name: productInterest("General"),
      message: optionalText(LIMITS.text, "many"),
    }),
    "request-demo": z.object({
      first_name: requiredText(LIMITS.name, firstName),
      last_name: requiredText(LIMITS.name, lastName),
      email: z.email({ error: emailMissing(t("form.error.businessEmailMissing")) }).max(LIMITS.email, tooLong(LIMITS.email)),
      company: requiredText(LIMITS.name, t("form.error.companyMissing")),
      job_title: optionalText(LIMITS.name),
      phone: optionalText(LIMITS.phone),
      company_size: optionalChoice(COMPANY_SIZES, t("form.error.companySizeChoice")),
      product_name: productInterest(site.product.name),
      message: optionalText(LIMITS.text, "many"),
    }),
    "career-application": z.object({
      first_name: requiredText(LIMITS.name, firstName),
      last_name: requiredText(LIMITS.name, lastName),
      email: z.email({ error: emailMissing(t("form.error.emailMissing")) }).max(LIMITS.email, tooLong(LIMITS.email)),
      phone: optionalText(LIMITS.phone),
      linkedin_profile: optionalPublicUrl(t("form.error.linkedinLink")),
      years_experience: z
        .number({ error: wholeYears })
        .int(wholeYears)
        .min(0, t("form.error.yearsNegative"))
        .max(80, t("form.error.yearsMax", { max: 80 }))
        .optional()
        .transform((value) => value ?? null),
      current_position: optionalText(LIMITS.name),
      why_quorvant: requiredText(LIMITS.text, t("form.error.whyMissing"), "many"),
      biggest_achievement: optionalText(LIMITS.text, "many"),
      work_style: optionalChoice(WORK_STYLES, t("form.error.workStyleChoice")),
      resume_url: optionalPublicUrl(t("form.error.resumeLink")),
    }),
  };
}

export type LeadFormSchemas = ReturnType<typeof leadFormSchemas>;

export type ContactSalesValues = z.output<LeadFormSchemas["contact-sales"]>;
export type DemoRequestValues = z.output<LeadFormSchemas["request-demo"]>;
export type CareerApplicationValues = z.output<LeadFormSchemas["career-application"]>;

/** The hidden field of an application opened from a position's page: the position's id. */
export const POSITION_FIELD = "position";

/**
 * The position an application asks for, as one short line, or undefined when it names none. Never
 * refused: whatever it holds, the application is kept (as an open application when it names no open position).
 */
export function requestedPositionOf(value: FormDataEntryValue | null): string | undefined {
  if (typeof value !== "string") return undefined;
  const id = oneLine(value).trim().slice(0, LIMITS.name);
  return id === "" ? undefined : id;
}
