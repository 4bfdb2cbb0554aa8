import { getSignedIn, type SignedIn } from "~/features/auth/auth.server";
import { CSRF_FIELD, isValidCsrfToken } from "~/features/auth/csrf.server";
import { readFormBody } from "~/features/leads/forms/body.server";

// The two posts of a passkey ceremony, as the back office's passkey endpoints receive them: first
// `step=options` (the browser asks what to sign), then `step=verify` with the ceremony's id and
// the authenticator's answer (JSON). The endpoints answer JSON, never cached.

export type CeremonyPost =
  | { step: "options"; fields: URLSearchParams | FormData }
  | { step: "verify"; stateId: string; response: unknown; fields: URLSearchParams | FormData };

const CEREMONY_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function ceremonyAnswer(body: Record<string, unknown>, init: { status?: number; cookie?: string } = {}): Response {
  const headers = new Headers({ "Cache-Control": "no-store" });
  if (init.cookie) headers.append("Set-Cookie", init.cookie);
  return Response.json(body, { status: init.status ?? 200, headers });
}

/** The post, or the 400 answer to one that is not a ceremony step. */
export async function readCeremonyPost(request: Request): Promise<CeremonyPost | Response> {
  const body = await readFormBody(request);
  const malformed = ceremonyAnswer({ error: "The request could not be read. Reload the page and try again." }, { status: 400 });
  if (!body.ok) return malformed;
  const fields = body.payload;
  const step = fields.get("step");
  if (step === "options") return { step, fields };
  const stateId = fields.get("stateId");
  const response = fields.get("response");
  if (step !== "verify" || typeof stateId !== "string" || !CEREMONY_ID.test(stateId) || typeof response !== "string") {
    return malformed;
  }
  try {
    return { step, stateId, response: JSON.parse(response) as unknown, fields };
  } catch {
    return malformed;
  }
}

/** The signed-in person making this post with their session's CSRF token, or the JSON refusal. */
export async function ceremonySignedIn(request: Request, post: CeremonyPost): Promise<SignedIn | Response> {
  const signedIn = await getSignedIn(request);
  if (!signedIn) return ceremonyAnswer({ error: "Your session has ended. Sign in again." }, { status: 401 });
  if (!isValidCsrfToken(signedIn.session.csrfSecret, post.fields.get(CSRF_FIELD))) {
    return ceremonyAnswer({ error: "This page has expired. Reload it and try again." }, { status: 403 });
  }
  return signedIn;
}
