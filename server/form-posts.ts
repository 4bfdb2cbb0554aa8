import type { Request, RequestHandler, Response } from "express";
import { formatBytes, MAX_UPLOAD_BYTES } from "~/features/media/media";
import { acceptsUploads, MAX_UPLOAD_FORM_BYTES } from "~/features/media/upload.server";
import { formLimitFor } from "~/features/leads/forms/body.server";
import { commonOutcomes, outcomeIn } from "~/features/leads/forms/outcome-messages.server";
import { translateIn } from "~/features/leads/forms/form-texts.server";
import { localeOfPath } from "~/features/i18n/site-locales";
import { getEnv } from "~/env.server";
import { consumeFormSubmission } from "~/features/leads/forms/rate-limit.server";
import { clientAddress } from "~/platform/request-context";
import { isBackOfficePath } from "./back-office";
import { sendRefusal, type Refusal } from "./refusal-page";

// The refusals of a post that come before any route runs, each a small page (./refusal-page):
// a declared body over the form's limit (413), then, for the site's forms, the client's budget
// (429). Their order is the one docs/decisions/005-form-rate-limit.md lists.

/**
 * An unread body of up to this size is read and thrown away before the refusal is sent: a client
 * still writing when we close would see a reset connection instead of our answer. Beyond it the
 * answer goes at once and the connection closes under the rest.
 */
const DRAIN_BYTES = 1024 * 1024;

/** Sends `refusal` once the request's body is drained (at most DRAIN_BYTES of it; past that, at once, closing). */
function refuseUnread(req: Request, res: Response, refusal: Refusal) {
  if (req.readableEnded || Number(req.get("content-length") ?? 0) > DRAIN_BYTES) {
    return sendRefusal(req, res, { ...refusal, headers: { ...refusal.headers, Connection: "close" } });
  }
  let drained = 0;
  const onData = (chunk: Buffer) => {
    drained += chunk.length;
    if (drained <= DRAIN_BYTES) return;
    req.off("data", onData).off("end", onEnd);
    sendRefusal(req, res, { ...refusal, headers: { ...refusal.headers, Connection: "close" } });
  };
  const onEnd = () => sendRefusal(req, res, refusal);
  req.on("data", onData).once("end", onEnd);
}

/** A body whose Content-Length is over what the address takes: 413, before anything reads it. */
export const limitBodySize: RequestHandler = (req, res, next) => {
  const declared = Number(req.get("content-length") ?? 0);
  // Forms carrying an image take one file; post editor forms a whole post; every other form 64 KiB.
  const upload = acceptsUploads(req.path);
  const limit = upload ? MAX_UPLOAD_FORM_BYTES : formLimitFor(req.path);
  if (!(declared > limit)) return next();
  // In the language of the form's page (the back office's pages are English).
  const t = translateIn(localeOfPath(req.path, getEnv().SITE_LOCALES).tag);
  refuseUnread(req, res, {
    status: 413,
    title: t("form.common.tooLarge.title"),
    message: upload
      ? `An image upload is limited to ${formatBytes(MAX_UPLOAD_BYTES)}.`
      : t("form.common.tooLarge.message", { limitKb: Math.round(limit / 1024) }),
    way: { href: req.path, label: t("form.common.backToForm") },
    headers: { Connection: "close" },
  });
};

/**
 * Counts a post to one of the site's forms against its client's budget (FORM_RATE_LIMIT), before
 * its body is read or a page rendered. Over the budget, a page load gets a small 429 page; a post
 * sent by the form's script goes on to the form's action, which answers with its usual message
 * (data, no render). The decision travels in the request's context (`formLimit`), so the action
 * never counts a post twice. Back-office forms have budgets of their own.
 */
export const limitFormPosts: RequestHandler = async (req, res, next) => {
  if (req.method !== "POST" || isBackOfficePath(req.path)) return next();
  try {
    const decision = await consumeFormSubmission(clientAddress(req), String(res.locals.requestId));
    res.locals.formLimit = decision;
    if (decision.allowed || req.path.endsWith(".data")) return next();
    const locale = localeOfPath(req.path, getEnv().SITE_LOCALES).tag;
    const { title, description } = outcomeIn(locale, commonOutcomes.rateLimited);
    refuseUnread(req, res, {
      status: 429,
      title,
      message: description,
      retryAfterSeconds: decision.retryAfterSeconds,
      way: { href: req.path, label: translateIn(locale)("form.common.backToForm") },
    });
  } catch (error) {
    next(error);
  }
};
