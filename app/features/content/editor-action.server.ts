import { data } from "react-router";
import type { ContentTypeId } from "~/features/content/content-types";
import type { Editor } from "~/features/content/core.server";
import { previewLinkFromForm } from "~/features/content/preview-links.server";
import { getDb } from "~/db/index.server";
import { getEnv } from "~/env.server";
import { formatDateTime } from "~/ui/admin/format";
import { isTimeZone, localInputToUtc, timeZoneOf } from "~/ui/admin/time-zone";

// What every editor of the content core does with its form the same way (pages, positions): the
// revision the form was loaded at, the moment a "Schedule" asks for, "Make preview link", and a
// refusal that draws the form again with what was sent.

/** A refused action's answer: a new form key, so the form is drawn again with the values sent back. */
export const refusedAnswer = <Answer extends object>(answer: Answer, status = 400) =>
  data({ ...answer, formKey: crypto.randomUUID() }, { status });

export const INCOMPLETE_FORM = "This form is incomplete. Reload the page and try again.";

/** The revision the form was loaded at (its hidden field); undefined when it is missing or not a number. */
export function baseRevisionOf(form: FormData | URLSearchParams): number | undefined {
  const text = String(form.get("revision") ?? "");
  return /^\d{1,9}$/.test(text) ? Number(text) : undefined;
}

/**
 * "Schedule": the moment the form's `publishAt` names in `timeZone` (the editor's), as UTC, or what
 * to say beside the field: not a date and time, or not in the future.
 */
export function scheduledMoment(form: FormData | URLSearchParams, timeZone: string): { scheduleAt: string } & ({ at: string } | { error: string }) {
  const scheduleAt = String(form.get("publishAt") ?? "");
  const at = isTimeZone(timeZone) ? localInputToUtc(scheduleAt, timeZone) : undefined;
  if (!at) return { scheduleAt, error: "Choose a date and time, such as 2026-12-01 09:30." };
  if (Date.parse(at) <= Date.now()) return { scheduleAt, error: "Choose a date and time in the future." };
  return { scheduleAt, at };
}

/** "Make preview link": the link with its expiry in the editor's time zone, audited, or the refusal. */
export async function previewLinkAnswer(
  request: Request,
  input: { type: ContentTypeId; id: string; form: FormData | URLSearchParams; editor: Editor },
) {
  const link = await previewLinkFromForm(getDb(), getEnv(), input);
  if (!link.ok) return refusedAnswer({ previewError: link.problem });
  return { previewLink: link.url, previewExpires: formatDateTime(link.expiresAt, timeZoneOf(request)) };
}
