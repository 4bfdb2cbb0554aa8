import { randomUUID } from "node:crypto";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type AppLoadContext } from "react-router";
import { isDatabaseUnreachable } from "~/db/connection.server";
import { getDb } from "~/db/index.server";
import { insertLead } from "~/features/leads/db/leads.server";
import { getEnv } from "~/env.server";
import { serverLeadSpool, type SpoolEntry } from "~/features/leads/spool.server";
import { destinationsFor, getDeliveryConfig } from "~/features/leads/delivery/config.server";
import type { LeadFormId } from "~/features/leads/registry";
import { leadFormServer, type LeadInput, type Tracking } from "~/features/leads/registry.server";
import { nudgeDeliveries } from "~/features/leads/delivery/worker.server";
import {
  attributionOfPage,
  CAMPAIGN_PARAMETERS,
  campaignFrom,
  firstTouchOf,
  normalisePath,
  parseAttribution,
  VISIT_FIELD,
} from "~/features/leads/attribution";
import { logger } from "~/platform/logger.server";
import { discardFormBody, hasMoreFieldsThan, MAX_FORM_FIELDS, readFormBody } from "~/features/leads/forms/body.server";
import type { FormActionData, OutcomeMessage } from "~/features/leads/forms/outcomes";
import { commonOutcomes, outcomeIn } from "~/features/leads/forms/outcome-messages.server";
import {
  OPEN_APPLICATION,
  requestedLabel,
  resolveApplicationPosition,
  UNCHECKED_POSITION,
} from "~/features/leads/forms/application-position.server";
import { POSITION_FIELD, requestedPositionOf } from "~/features/leads/forms/schemas";
import { formPageLocale, leadFormSchemaIn } from "~/features/leads/forms/form-texts.server";
import { consumeFormSubmission } from "~/features/leads/forms/rate-limit.server";

/** The honeypot input's name. People never see it; naive bots fill it. */
export const HONEYPOT_FIELD = "website";

/**
 * Where a lead came from. The form page's path and its own campaign (the utm_* columns, each ''
 * when its address has none): the address posted to, or, when that names no campaign, the address
 * the browser says the form was on (the Referer, when it is the same page of this site: a page
 * served to a campaign link in its plain copy posts to the plain address). And the visit's first
 * touch (first page, referring site, campaign) as the visitor's tab kept it (the hidden visit
 * field); without it (no JavaScript, storage refused, a forged value), the form page's own address.
 */
export function trackingFrom(url: URL, visitField: FormDataEntryValue | null, referer?: string | null): Tracking {
  const page = formPageAddress(url, referer);
  const visit = typeof visitField === "string" ? parseAttribution(visitField) : undefined;
  return {
    source_page: normalisePath(url.pathname) || "/",
    ...campaignFrom(page.searchParams),
    ...firstTouchOf(visit ?? attributionOfPage(page, null)),
  };
}

function formPageAddress(url: URL, referer: string | null | undefined): URL {
  if (CAMPAIGN_PARAMETERS.some((name) => url.searchParams.has(name)) || !referer) return url;
  try {
    const page = new URL(referer);
    return page.origin === url.origin && page.pathname === url.pathname ? page : url;
  } catch {
    return url;
  }
}

/**
 * The one submission pipeline of every lead form, called by each form route's action: rate limit,
 * size and type check, field count, honeypot, validation (the form's schema in the registry), an
 * application's position (./application-position.server), insert (into its table, with a pending delivery per configured destination, in one
 * transaction; while the database cannot be reached, into this server's lead spool instead, to be
 * stored when it can). The limit comes first, so a client over its budget costs no body parsing; every
 * post that reaches here counts against it, whatever its fate. Nothing is written on any
 * rejection; a database failure keeps the visitor's values and is logged as one JSON line, never
 * with a value the visitor typed. Every answer is `no-store`.
 */
export async function submitForm(form: LeadFormId, { request, context }: { request: Request; context: AppLoadContext }) {
  const { messages } = leadFormServer(form);
  const url = new URL(request.url);
  // The language of the form's page: its address says it (/de/… is German; a language the site
  // is not published in is not found). The visitor is answered in it, refusals included, and the
  // lead records it.
  const locale = formPageLocale(url).tag;
  const schema = leadFormSchemaIn(locale, form);
  const reply = (
    status: number,
    { outcome, ...rest }: Omit<FormActionData, "outcome"> & { outcome: OutcomeMessage },
    headers?: Record<string, string>,
  ) => answer(status, { ...rest, outcome: outcomeIn(locale, outcome) }, headers);
  // Counted before the router (server/form-posts.ts), so an over-budget post costs no parsing;
  // counted here only when the action runs without that step.
  const limit = context.formLimit ?? (await consumeFormSubmission(context.clientIp, context.requestId));
  if (!limit.allowed) {
    // The body is dropped unparsed, so there are no values to give back.
    const drained = await discardFormBody(request);
    return reply(
      429,
      { outcome: commonOutcomes.rateLimited },
      { "Retry-After": String(limit.retryAfterSeconds), ...(drained ? {} : { Connection: "close" }) },
    );
  }

  const body = await readFormBody(request);
  if (!body.ok) {
    if (body.status === 413) return reply(413, { outcome: commonOutcomes.tooLarge }, { Connection: "close" });
    return reply(400, { outcome: commonOutcomes.notAForm });
  }
  // No form has anywhere near this many fields: refused before the schema walks them.
  if (hasMoreFieldsThan(body.payload, MAX_FORM_FIELDS)) return reply(400, { outcome: commonOutcomes.notAForm });

  const submission = parseWithZod(body.payload, { schema });

  // A filled honeypot is a bot: it is told "thank you" so it learns nothing, and nothing is stored.
  const honeypot = body.payload.get(HONEYPOT_FIELD);
  if (honeypot !== null && honeypot !== "") {
    logger.info({ requestId: context.requestId, form }, "honeypot filled; submission discarded");
    return reply(200, { result: submission.reply({ resetForm: true }), outcome: messages.success });
  }

  if (submission.status !== "success") {
    return reply(400, { result: submission.reply(), outcome: commonOutcomes.invalid });
  }

  const position =
    form === "career-application"
      ? await positionOfApplication(requestedPositionOf(body.payload.get(POSITION_FIELD)), context.requestId)
      : undefined;
  const lead = {
    ...submission.value,
    ...trackingFrom(url, body.payload.get(VISIT_FIELD), request.headers.get("referer")),
    ...position?.columns,
    locale,
  } as LeadInput<typeof form>;
  const success = position?.notOpen && messages.positionClosed ? messages.positionClosed : messages.success;
  // Made here, so a lead kept in the spool is stored later under the same id: if this insert did
  // reach the database before the connection broke, the replay finds it and stores nothing twice.
  const identity = { id: randomUUID(), createdAt: new Date().toISOString() };
  try {
    await insertLead(getDb(), form, lead, destinationsFor(getDeliveryConfig(), form), identity);
  } catch (error) {
    if (!isDatabaseUnreachable(error) || !(await keepInSpool({ ...identity, form, lead }, context.requestId))) {
      logger.error({ requestId: context.requestId, form, err: error }, "form submission could not be stored");
      return reply(500, { result: submission.reply(), outcome: messages.failure });
    }
    return reply(200, { result: submission.reply({ resetForm: true }), outcome: success });
  }
  // Delivery happens beside this answer, never before it.
  nudgeDeliveries();
  return reply(200, { result: submission.reply({ resetForm: true }), outcome: success });
}

/**
 * The position an application names, looked up before it is stored, as its columns. Should the
 * lookup fail (the database unreachable, so the lead will go to the spool), the position is left
 * for the spool's replay to look up (UNCHECKED_POSITION) and the visitor hears the usual answer:
 * nothing is known of the position yet, so nothing is said about it. Stored without that replay,
 * the application is an open application naming what was asked for.
 */
async function positionOfApplication(
  requested: string | undefined,
  requestId: string,
): Promise<{ columns: Record<string, string | null>; notOpen: boolean }> {
  try {
    return await resolveApplicationPosition(getDb(), requested);
  } catch (error) {
    if (!isDatabaseUnreachable(error))
      logger.error({ requestId, err: error }, "the position of an application could not be looked up");
    const columns = { ...OPEN_APPLICATION, position_requested: requested ? requestedLabel(requested, "") : null };
    return { columns: requested ? { ...columns, [UNCHECKED_POSITION]: requested } : columns, notOpen: false };
  }
}

/**
 * The database cannot be reached: the lead goes to this server's spool (on disk, fsynced) for the
 * replay job to store once it can. False when the spool refuses it (full, or its disk failing):
 * then the visitor is told it failed, as without a spool.
 */
async function keepInSpool(entry: SpoolEntry, requestId: string): Promise<boolean> {
  try {
    const spool = serverLeadSpool(getEnv());
    await spool.write(entry);
    logger.warn({ requestId, form: entry.form, spool: spool.depth() }, "database unreachable: lead kept in the lead spool");
    return true;
  } catch (error) {
    // Only the error's code and kind: the spool's errors never carry a value, but be sure.
    logger.error(
      { requestId, form: entry.form, code: (error as { code?: unknown }).code, problem: (error as Error).name },
      "database unreachable and the lead spool refused the lead",
    );
    return false;
  }
}

function answer(status: number, payload: FormActionData, headers: Record<string, string> = {}) {
  return data(payload, { status, headers: { "Cache-Control": "no-store", ...headers } });
}
