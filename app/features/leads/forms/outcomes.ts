import type { SubmissionResult } from "@conform-to/react";

// What a visitor is told after a submission, the same words as a toast (with JavaScript) and in
// the page returned by the post (without); its words come from the message catalogs
// (./outcome-messages.server.ts).

export type Outcome = { kind: "success" | "failure"; title: string; description: string };

/** An answer before it is put into words: its kind, its catalog key and the arguments its messages name. */
export type OutcomeMessage = { kind: Outcome["kind"]; key: string; values?: Record<string, number> };

/** A form's own answers (each form's are in the lead registry); an application's also for a position no longer open. */
export type FormMessages = { success: OutcomeMessage; failure: OutcomeMessage; positionClosed?: OutcomeMessage };

export const success = (key: string): OutcomeMessage => ({ kind: "success", key });
export const failure = (key: string, values?: Record<string, number>): OutcomeMessage => ({ kind: "failure", key, values });

/** What every form action returns: Conform's reply (field errors, values to keep) and the message. */
export type FormActionData = { result?: SubmissionResult<string[]>; outcome: Outcome };
