import type { SubmissionResult } from "@conform-to/react";

// What a visitor is told after a submission (fixed texts), the same words as a toast (with
// JavaScript) and in the page returned by the post (without).

export type Outcome = { kind: "success" | "failure"; title: string; description: string };

/**
 * A form's own answers (each form's are in the lead registry); an application also has the one for
 * a position that is no longer open (the application is kept as an open application).
 */
export type FormMessages = { success: Outcome; failure: Outcome; positionClosed?: Outcome };

const failure = (description: string): Outcome => ({ kind: "failure", title: "Error", description });

/** Answers that are not about one form in particular. */
export const commonOutcomes = {
  invalid: failure("Please correct the highlighted fields and try again."),
  rateLimited: {
    kind: "failure",
    title: "Too many submissions",
    description: "You have sent several forms in the last minute. Please wait a minute and try again.",
  },
  tooLarge: failure("Your submission is too large. Please shorten it to under 64 KB and try again."),
  notAForm: failure("Your submission could not be read. Please try again."),
} satisfies Record<string, Outcome>;

/** What every form action returns: Conform's reply (field errors, values to keep) and the message. */
export type FormActionData = { result?: SubmissionResult<string[]>; outcome: Outcome };
