import { parseWithZod } from "@conform-to/zod/v4";
import { data, type AppLoadContext } from "react-router";
import { getDb } from "~/lib/db/index.server";
import { insertLead } from "~/lib/db/leads.server";
import { destinationsFor, getDeliveryConfig } from "~/lib/delivery/config.server";
import type { LeadFormId } from "~/lib/leads/registry";
import { leadFormServer, type LeadInput, type Tracking } from "~/lib/leads/registry.server";
import { nudgeDeliveries } from "~/lib/delivery/worker.server";
import { attributionOfPage, normalisePath, parseAttribution, VISIT_FIELD } from "~/lib/leads/attribution";
import { logger } from "~/lib/logger.server";
import { discardFormBody, hasMoreFieldsThan, MAX_FORM_FIELDS, readFormBody } from "~/lib/forms/body.server";
import { commonOutcomes, type FormActionData } from "~/lib/forms/outcomes";
import { consumeFormSubmission } from "~/lib/forms/rate-limit.server";

/** The honeypot input's name. People never see it; naive bots fill it. */
export const HONEYPOT_FIELD = "website";

/**
 * Where a lead came from: the form page's path, and the visit's first page, referring site and
 * campaign as the visitor's tab kept them (the hidden visit field); without it (no JavaScript,
 * storage refused, a forged value), the form page's own address.
 */
export function trackingFrom(url: URL, visitField: FormDataEntryValue | null): Tracking {
  const visit = typeof visitField === "string" ? parseAttribution(visitField) : undefined;
  return { source_page: normalisePath(url.pathname) || "/", ...(visit ?? attributionOfPage(url, null)) };
}

/**
 * The one submission pipeline of every lead form, called by each form route's action: rate limit,
 * size and type check, field count, honeypot, validation (the form's schema in the registry),
 * insert (into its table, with a pending delivery per configured destination, in one
 * transaction). The limit comes first, so a client over its budget costs no body parsing; every
 * post that reaches here counts against it, whatever its fate. Nothing is written on any
 * rejection; a database failure keeps the visitor's values and is logged as one JSON line, never
 * with a value the visitor typed. Every answer is `no-store`.
 */
export async function submitForm(form: LeadFormId, { request, context }: { request: Request; context: AppLoadContext }) {
  const { schema, messages } = leadFormServer(form);
  // Counted before the router (server/form-posts.ts), so an over-budget post costs no parsing;
  // counted here only when the action runs without that step.
  const limit = context.formLimit ?? (await consumeFormSubmission(context.clientIp, context.requestId));
  if (!limit.allowed) {
    // The body is dropped unparsed, so there are no values to give back.
    const drained = await discardFormBody(request);
    return answer(
      429,
      { outcome: commonOutcomes.rateLimited },
      { "Retry-After": String(limit.retryAfterSeconds), ...(drained ? {} : { Connection: "close" }) },
    );
  }

  const body = await readFormBody(request);
  if (!body.ok) {
    if (body.status === 413) return answer(413, { outcome: commonOutcomes.tooLarge }, { Connection: "close" });
    return answer(400, { outcome: commonOutcomes.notAForm });
  }
  // No form has anywhere near this many fields: refused before the schema walks them.
  if (hasMoreFieldsThan(body.payload, MAX_FORM_FIELDS)) return answer(400, { outcome: commonOutcomes.notAForm });

  const submission = parseWithZod(body.payload, { schema });

  // A filled honeypot is a bot: it is told "thank you" so it learns nothing, and nothing is stored.
  const honeypot = body.payload.get(HONEYPOT_FIELD);
  if (honeypot !== null && honeypot !== "") {
    logger.info({ requestId: context.requestId, form }, "honeypot filled; submission discarded");
    return answer(200, { result: submission.reply({ resetForm: true }), outcome: messages.success });
  }

  if (submission.status !== "success") {
    return answer(400, { result: submission.reply(), outcome: commonOutcomes.invalid });
  }

  try {
    const destinations = destinationsFor(getDeliveryConfig(), form);
    const lead = { ...submission.value, ...trackingFrom(new URL(request.url), body.payload.get(VISIT_FIELD)) } as LeadInput<
      typeof form
    >;
    await insertLead(getDb(), form, lead, destinations);
  } catch (error) {
    logger.error({ requestId: context.requestId, form, err: error }, "form submission could not be stored");
    return answer(500, { result: submission.reply(), outcome: messages.failure });
  }
  // Delivery happens beside this answer, never before it.
  nudgeDeliveries();
  return answer(200, { result: submission.reply({ resetForm: true }), outcome: messages.success });
}

function answer(status: number, payload: FormActionData, headers: Record<string, string> = {}) {
  return data(payload, { status, headers: { "Cache-Control": "no-store", ...headers } });
}
