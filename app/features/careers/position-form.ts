import { localInputToUtc, utcToLocalInput } from "~/ui/admin/time-zone";
import type { Position } from "~/features/careers/positions";

// The position editor's form: every field as the form holds it (text; a list one entry per line),
// and the two ways between that and a position. The position is checked by the content type's
// schema on save; here only what the form alone can tell (a number or date that is not one).

export type PositionFormValues = {
  title: string;
  slug: string;
  team: string;
  summary: string;
  locations: string;
  workplace: string;
  remoteRegions: string;
  employmentType: string;
  payMin: string;
  payMax: string;
  payCurrency: string;
  payPeriod: string;
  description: string;
  responsibilities: string;
  requirements: string;
  hiringContacts: string;
  /** A datetime-local value in `timeZone` ("" for no closing date). */
  closesAt: string;
  timeZone: string;
};

/** The form's field names, in the order it shows them. */
export const POSITION_FORM_FIELDS = [
  "title",
  "slug",
  "team",
  "summary",
  "locations",
  "workplace",
  "remoteRegions",
  "employmentType",
  "payMin",
  "payMax",
  "payCurrency",
  "payPeriod",
  "description",
  "responsibilities",
  "requirements",
  "hiringContacts",
  "closesAt",
  "timeZone",
] as const satisfies readonly (keyof PositionFormValues)[];

/** Where the schema's error keys ("pay.min", "locations") are shown: the form's control. */
export const ERROR_CONTROL: Record<string, keyof PositionFormValues> = {
  pay: "payMin",
  "pay.min": "payMin",
  "pay.max": "payMax",
  "pay.currency": "payCurrency",
  "pay.period": "payPeriod",
};

/** The id of the control of a field (or of a schema error's key). */
export function positionControlId(field: string): string {
  return `position-${ERROR_CONTROL[field] ?? field}`;
}

const lines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);

/** A position's fields as its form shows them, dates in `timeZone`. */
export function positionFormValues(position: Position, timeZone: string): PositionFormValues {
  return {
    title: position.title,
    slug: position.slug,
    team: position.team,
    summary: position.summary,
    locations: position.locations.join("\n"),
    workplace: position.workplace,
    remoteRegions: position.remoteRegions.join("\n"),
    employmentType: position.employmentType,
    payMin: position.pay ? String(position.pay.min) : "",
    payMax: position.pay ? String(position.pay.max) : "",
    payCurrency: position.pay?.currency ?? "",
    payPeriod: position.pay?.period ?? "year",
    description: position.description,
    responsibilities: position.responsibilities.join("\n"),
    requirements: position.requirements.join("\n"),
    hiringContacts: position.hiringContacts.join("\n"),
    closesAt: position.closesAt ? utcToLocalInput(position.closesAt, timeZone) : "",
    timeZone,
  };
}

/** Every field of a submitted form as text (a field it lacks is empty). */
export function readPositionFormValues(form: { get(name: string): FormDataEntryValue | null }): PositionFormValues {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  return Object.fromEntries(POSITION_FORM_FIELDS.map((field) => [field, text(field)])) as PositionFormValues;
}

const amount = (text: string): number | undefined => {
  const trimmed = text.trim().replace(/[\s,]/g, "");
  return trimmed === "" ? undefined : /^\d+(?:\.\d+)?$/.test(trimmed) ? Number(trimmed) : Number.NaN;
};

/**
 * The position the form describes, for the schema to check; or the fields the form alone shows
 * wrong (an amount or a date that is not one). No pay at all when its amounts and currency are empty.
 */
export function positionFromForm(
  values: PositionFormValues,
): { ok: true; position: Record<string, unknown> } | { ok: false; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const min = amount(values.payMin);
  const max = amount(values.payMax);
  if (Number.isNaN(min)) errors["pay.min"] = "Pay (minimum) must be a whole number, such as 70000.";
  if (Number.isNaN(max)) errors["pay.max"] = "Pay (maximum) must be a whole number, such as 90000.";
  let closesAt: string | null = null;
  if (values.closesAt.trim()) {
    const at = localInputToUtc(values.closesAt, values.timeZone);
    if (at) closesAt = at;
    else errors.closesAt = "Closing date must be a date and time, such as 2026-12-01 09:30.";
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  const currency = values.payCurrency.trim().toUpperCase();
  const noPay = min === undefined && max === undefined && currency === "";
  return {
    ok: true,
    position: {
      slug: values.slug.trim(),
      title: values.title,
      team: values.team,
      locations: lines(values.locations),
      workplace: values.workplace,
      remoteRegions: lines(values.remoteRegions),
      employmentType: values.employmentType,
      pay: noPay ? null : { min, max, currency: currency || undefined, period: values.payPeriod },
      summary: values.summary,
      description: values.description,
      responsibilities: lines(values.responsibilities),
      requirements: lines(values.requirements),
      hiringContacts: lines(values.hiringContacts),
      closesAt,
    },
  };
}
