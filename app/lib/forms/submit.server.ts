import { parseWithZod } from "@conform-to/zod/v4";
import type { Kysely } from "kysely";
import { data, type AppLoadContext } from "react-router";
import type { z } from "zod";
import { getDb } from "~/lib/db/index.server";
import type { Tracking } from "~/lib/db/leads.server";
import type { Database, DeliveryDestination } from "~/lib/db/schema";
import { destinationsFor, getDeliveryConfig, type LeadForm } from "~/lib/delivery/config.server";
import { nudgeDeliveries } from "~/lib/delivery/worker.server";
import { logger } from "~/lib/logger.server";
import { discardFormBody, hasMoreFieldsThan, MAX_FORM_FIELDS, readFormBody } from "~/lib/forms/body.server";
import { commonOutcomes, type FormActionData, type FormMessages } from "~/lib/forms/outcomes";
import { consumeFormSubmission } from "~/lib/forms/rate-limit.server";

/** The honeypot input's name. People never see it; naive bots fill it. */
export const HONEYPOT_FIELD = "website";

const TRACKING_MAX = 2048;

/** The form page's path and its utm_* query parameters ('' when absent), each at most 2048 characters. */
export function trackingFrom(url: URL): Tracking {
  const param = (name: string) => (url.searchParams.get(name) ?? "").slice(0, TRACKING_MAX);
  return {
    source_page: url.pathname.slice(0, TRACKING_MAX),
    utm_source: param("utm_source"),
    utm_medium: param("utm_medium"),
    utm_campaign: param("utm_campaign"),
  };
}

type SubmitOptions<Schema extends z.ZodObject> = {
  request: Request;
  context: AppLoadContext;
  /** Which form: named in log lines, and it decides where the lead is delivered. */
  form: LeadForm;
  schema: Schema;
  messages: FormMessages;
  /**
   * Stores one lead (the validated values and where it came from) with a pending delivery per
   * destination, in one transaction: a table's insert function.
   */
  save: (
    db: Kysely<Database>,
    lead: z.output<Schema> & Tracking,
    destinations: readonly DeliveryDestination[],
  ) => Promise<unknown>;
};

/**
 * The one submission pipeline of every lead form, called by each form route's action: rate limit,
 * size and type check, field count, honeypot, validation, insert. The limit comes first, so a
 * client over its budget costs no body parsing; every post that reaches here counts against it,
 * whatever its fate. Nothing is written on any rejection; a database failure keeps the visitor's
 * values and is logged as one JSON line. Every answer is `no-store`.
 */
export async function submitForm<Schema extends z.ZodObject>({
  request,
  context,
  form,
  schema,
  messages,
  save,
}: SubmitOptions<Schema>) {
  const limit = await consumeFormSubmission(context.clientIp, context.requestId);
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
    await save(getDb(), { ...submission.value, ...trackingFrom(new URL(request.url)) }, destinations);
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
