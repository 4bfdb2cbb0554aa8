import type { SubmissionResult } from "@conform-to/react";

// What a visitor is told after a submission (fixed texts), the same words as a toast (with
// JavaScript) and in the page returned by the post (without).

export type Outcome = { kind: "success" | "failure"; title: string; description: string };

export type FormMessages = { success: Outcome; failure: Outcome };

const failure = (description: string): Outcome => ({ kind: "failure", title: "Error", description });

export const contactSalesMessages: FormMessages = {
  success: { kind: "success", title: "Message Sent", description: "Thank you for contacting us. We'll get back to you soon." },
  failure: failure("Failed to send message. Please try again."),
};

export const demoRequestMessages: FormMessages = {
  success: { kind: "success", title: "Demo Request Submitted", description: "We'll contact you soon to schedule your demo." },
  failure: failure("Failed to submit demo request. Please try again."),
};

export const careerApplicationMessages: FormMessages = {
  success: {
    kind: "success",
    title: "Application Submitted",
    description: "Thank you for your interest! We'll review your application and get back to you.",
  },
  failure: failure("Failed to submit application. Please try again."),
};

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
