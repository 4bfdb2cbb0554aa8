import { getFormProps, type FormMetadata } from "@conform-to/react";
import { useEffect, useState, type ReactNode } from "react";
import { Form, useLocation, useMatches } from "react-router";
import { Honeypot, SubmitButton } from "~/features/leads/components/field";
import { OutcomeMessage } from "~/features/leads/components/toast";
import type { Outcome } from "~/features/leads/forms/outcomes";
import { VISIT_FIELD } from "~/features/leads/attribution";
import { currentVisit } from "~/features/leads/visit-memory";
import { keptQuery } from "~/features/site/query-params";
import { sourcePathOf } from "~/features/i18n/route-paths";

/**
 * The frame shared by the three lead forms: a post to the page's own URL with the query parameters
 * the page reads (so the action can record utm_*, and no other parameter is ever echoed), the no-JavaScript outcome message, the honeypot and the submit
 * button. The form works as a plain HTML form before (or without) hydration.
 */
export function LeadForm<Schema extends Record<string, unknown>>({
  form,
  labelledBy,
  inlineOutcome,
  pending,
  submitLabel,
  pendingLabel,
  children,
  actions,
}: {
  form: FormMetadata<Schema, string[]>;
  labelledBy: string;
  inlineOutcome?: Outcome;
  pending: boolean;
  submitLabel: string;
  pendingLabel: string;
  children: ReactNode;
  /** Extra buttons beside the submit button (the career form's Cancel). */
  actions?: ReactNode;
}) {
  const location = useLocation();
  // A page in another language reads the query parameters of its English address.
  const queryPath = sourcePathOf(location.pathname, useMatches().at(-1)?.id) ?? location.pathname;
  return (
    <Form
      method="post"
      action={`${location.pathname}${keptQuery(queryPath, location.search)}`}
      preventScrollReset
      {...getFormProps(form)}
      aria-labelledby={labelledBy}
      className="relative"
    >
      {inlineOutcome ? (
        <div className="mb-6">
          <OutcomeMessage outcome={inlineOutcome} />
        </div>
      ) : null}
      {form.errors?.length ? (
        <p id={form.errorId} role="alert" className="mb-4 text-sm text-red-700">
          {form.errors.join(" ")}
        </p>
      ) : null}
      <Honeypot />
      <VisitField />
      <div className="grid gap-5 sm:grid-cols-2">{children}</div>
      <div className="mt-8 flex flex-wrap justify-end gap-3">
        {actions}
        <SubmitButton pending={pending} label={submitLabel} pendingLabel={pendingLabel} />
      </div>
    </Form>
  );
}

/**
 * Where the visit came from, filled from the tab's memory once the page runs its script. Without
 * JavaScript it stays empty and the server reads the form page's own address instead.
 */
function VisitField() {
  const [visit, setVisit] = useState("");
  useEffect(() => {
    const kept = currentVisit();
    if (kept) setVisit(JSON.stringify(kept));
  }, []);
  return <input type="hidden" name={VISIT_FIELD} value={visit} readOnly />;
}
