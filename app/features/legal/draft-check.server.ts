import { z } from "zod";
import { isCalendarDate } from "~/platform/dates";
import {
  LEGAL_LIMITS,
  LEGAL_SECTION_HEADING,
  VERSION_PATTERN,
  type DraftErrors,
  type DraftFields,
} from "~/features/legal/drafts";

// The one check of a legal draft's fields: when it is saved, and again before it is published
// (a draft written by another tool never went through the editor). Server-side only: the editor is
// a plain form whose answer carries the messages, so no schema needs to reach the browser.

/** Control characters other than tab and line breaks: never part of a legal text. */
const CONTROL = /(?![\t\n\r])\p{Cc}/u;

const singleLine = (what: string, max: number) =>
  z
    .string()
    .trim()
    .min(1, `Enter ${what}.`)
    .max(max, `At most ${max.toLocaleString("en-US")} characters.`)
    .refine((value) => !/[\r\n]/.test(value) && !CONTROL.test(value), "Use one line of plain text.");

const sectionText = z
  .string()
  .transform((value) => value.replace(/\r\n?/g, "\n").trim())
  .pipe(
    z
      .string()
      .min(1, "Enter the section's text.")
      .max(LEGAL_LIMITS.sectionText, `At most ${LEGAL_LIMITS.sectionText.toLocaleString("en-US")} characters.`)
      .refine((value) => !CONTROL.test(value), "The text contains control characters; paste it as plain text.")
      .refine(
        (value) => !value.split("\n").some((line) => LEGAL_SECTION_HEADING.test(line)),
        'No line may start with "## " (content files read that as a new section): add a section instead.',
      ),
  );

/** Everything a version needs before it may be saved or published. */
export const legalDraftSchema = z.object({
  title: singleLine("the document's title", LEGAL_LIMITS.title),
  version: z.string().trim().regex(VERSION_PATTERN, "Enter a version number such as 2.2: digits separated by dots."),
  effectiveDate: z.string().trim().refine(isCalendarDate, "Enter the date this version takes effect, such as 2025-06-01."),
  changeSummary: z
    .string()
    .trim()
    .min(1, "Say what changed in this version; the history and the audit log show it.")
    .max(LEGAL_LIMITS.changeSummary, `At most ${LEGAL_LIMITS.changeSummary} characters.`)
    .refine((value) => !CONTROL.test(value), "Use plain text."),
  sections: z
    .array(z.object({ title: singleLine("the section's title", LEGAL_LIMITS.sectionTitle), content: sectionText }))
    .min(1, "A document needs at least one section.")
    .max(LEGAL_LIMITS.sections, `A document has at most ${LEGAL_LIMITS.sections} sections.`),
});

export type CheckedDraft = z.output<typeof legalDraftSchema>;

export function checkDraft(fields: DraftFields): { ok: true; draft: CheckedDraft } | { ok: false; errors: DraftErrors } {
  const result = legalDraftSchema.safeParse(fields);
  if (result.success) return { ok: true, draft: result.data };
  const errors: DraftErrors = {};
  for (const issue of result.error.issues) {
    const [field, index, part] = issue.path;
    if (field === "sections" && typeof index === "number" && (part === "title" || part === "content")) {
      errors.section ??= {};
      errors.section[index] ??= {};
      errors.section[index][part] ??= issue.message;
    } else if (field === "sections") errors.sections ??= issue.message;
    else if (field === "title" || field === "version" || field === "effectiveDate" || field === "changeSummary") {
      errors[field] ??= issue.message;
    }
  }
  return { ok: false, errors };
}
