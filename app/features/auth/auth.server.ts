import { data, redirect, type AppLoadContext } from "react-router";
import { recordAudit } from "~/features/audit/audit.server";
import { CSRF_FIELD, csrfToken, isValidCsrfToken, newCsrfSecret } from "~/features/auth/csrf.server";
import { mayAct, type Role } from "~/config/roles";
import { createSignedInSession, destroyRequestSession, readSession, type SessionValues } from "~/features/auth/session.server";
import { touchSession } from "~/features/auth/db/admin-sessions.server";
import { findUserById, recordSignIn, type AdminUser } from "~/features/auth/db/admin-users.server";
import { getDb } from "~/db/index.server";
import type { AuthMethod } from "~/db/schema";
import { readUploadForm } from "~/features/media/upload.server";
import { readFormBody, type FormBody } from "~/features/leads/forms/body.server";

// The back office's door. Every loader and action under /admin calls one of these first:
// `requireUser` (anyone signed in), `requireRole` (a role, or owner), `requireAdminForm` (a role,
// and a POST carrying its session's CSRF token). Hiding a link is never the check.

export type SignedIn = { user: AdminUser; session: SessionValues };

/** How often a session's last activity is written: often enough for the idle timeout, not on every request. */
const TOUCH_EVERY_MS = 60_000;

/** A destructive action needs the person to have proved who they are within this long. */
export const RECENT_AUTHENTICATION_MS = 10 * 60_000;

/** Loaders of one request run in parallel: they share one look-up of its session. */
const signedInByRequest = new WeakMap<Request, Promise<SignedIn | undefined>>();

/** The signed-in person of this request, or undefined (no session, an ended one, a disabled person). */
export function getSignedIn(request: Request): Promise<SignedIn | undefined> {
  let found = signedInByRequest.get(request);
  if (!found) {
    found = lookUpSignedIn(request);
    signedInByRequest.set(request, found);
  }
  return found;
}

async function lookUpSignedIn(request: Request): Promise<SignedIn | undefined> {
  const session = await readSession(request);
  const userId = session.get("userId");
  if (!userId) return undefined;
  const values = session.data as SessionValues;
  const user = await findUserById(getDb(), userId);
  if (!user || user.disabledAt) return undefined;
  const now = new Date();
  if (now.getTime() - Date.parse(values.lastSeenAt) > TOUCH_EVERY_MS) await touchSession(getDb(), values.recordId, now);
  return { user, session: values };
}

/** Where to sign in, coming back to this request's page afterwards. */
function signInRedirect(request: Request) {
  const url = new URL(request.url);
  const back = request.method === "GET" ? url.pathname + url.search : url.pathname;
  return redirect(`/admin/sign-in?redirectTo=${encodeURIComponent(back)}`);
}

export async function requireUser(request: Request): Promise<SignedIn> {
  const signedIn = await getSignedIn(request);
  if (!signedIn) throw signInRedirect(request);
  return signedIn;
}

/** The 403 a person gets for a page or action their roles do not open. */
export function forbidden(roles: Role | readonly Role[]) {
  return data({ neededRoles: typeof roles === "string" ? [roles] : [...roles] }, { status: 403 });
}

/** A signed-in person holding one of `roles` (owners hold every role); else 403. */
export async function requireRole(request: Request, roles: Role | readonly Role[]): Promise<SignedIn> {
  const signedIn = await requireUser(request);
  if (!mayAct(signedIn.user.roles, roles)) throw forbidden(roles);
  return signedIn;
}

export type AdminForm = SignedIn & { form: URLSearchParams | FormData };

/**
 * A back-office POST: signed in, allowed (`roles`, or anyone signed in when omitted), its body a
 * form of at most 64 KiB, and carrying its session's CSRF token. Anything else changes nothing.
 */
export async function requireAdminForm(request: Request, roles?: Role | readonly Role[]): Promise<AdminForm> {
  const signedIn = roles ? await requireRole(request, roles) : await requireUser(request);
  return checkedForm(signedIn, await readFormBody(request));
}

function checkedForm(signedIn: SignedIn, body: FormBody): AdminForm {
  if (!body.ok) throw data({ message: "The form could not be read." }, { status: body.status });
  if (!isValidCsrfToken(signedIn.session.csrfSecret, body.payload.get(CSRF_FIELD))) {
    throw data({ message: "This form has expired. Reload the page and try again." }, { status: 403 });
  }
  return { ...signedIn, form: body.payload };
}

/**
 * A back-office POST that may carry one image file (the paths of UPLOAD_FORM_PATHS): like
 * requireAdminForm, but a multipart body may be as large as one file at its cap. A file over the
 * cap comes back as `fileTooLarge` (the form's other fields were not read: nothing may change).
 */
export async function requireAdminUploadForm(
  request: Request,
  roles: Role | readonly Role[],
): Promise<AdminForm | (SignedIn & { fileTooLarge: true })> {
  const signedIn = await requireRole(request, roles);
  const body = await readUploadForm(request);
  if (!body.ok && "fileTooLarge" in body) return { ...signedIn, fileTooLarge: true };
  return checkedForm(signedIn, body);
}

/** The token this session's forms carry. */
export function formToken(signedIn: SignedIn): string {
  return csrfToken(signedIn.session.csrfSecret);
}

/** Whether this session's person proved who they are (signed in or confirmed) within RECENT_AUTHENTICATION_MS. */
export function isRecentlyAuthenticated(signedIn: SignedIn, now = Date.now()): boolean {
  return now - Date.parse(signedIn.session.authenticatedAt) <= RECENT_AUTHENTICATION_MS;
}

/** Where a person confirms who they are, coming back to `returnTo` afterwards. */
export function confirmationPath(returnTo: string): string {
  return `/admin/confirm?redirectTo=${encodeURIComponent(safeRedirect(returnTo))}`;
}

/**
 * Destructive actions (disabling a person, erasing data, deleting content) and every change to how
 * someone signs in (adding or removing a passkey) need a recent proof of identity: past
 * RECENT_AUTHENTICATION_MS the person is sent to confirm it, then back to `returnTo`.
 */
export function requireRecentAuthentication(signedIn: SignedIn, returnTo: string) {
  if (isRecentlyAuthenticated(signedIn)) return;
  throw redirect(confirmationPath(returnTo));
}

/** Only a back-office path is a place to return to; anything else (another site, `//host`) is /admin. */
export function safeRedirect(to: string | null | undefined): string {
  if (!to || !to.startsWith("/admin") || to.startsWith("//") || /[\\\s]/.test(to)) return "/admin";
  // Judge the path the browser will go to: `/administrator` is not under /admin, and dot segments
  // (percent-encoded ones too) climb out of it.
  return /^\/admin(?:\/|$)/.test(new URL(to, "http://localhost").pathname) ? to : "/admin";
}

/**
 * Starts a session for someone who just proved who they are: any session the browser had ends,
 * the sign-in is recorded and audited. Returns the Set-Cookie value of the new session.
 */
export async function startSession(
  request: Request,
  context: AppLoadContext,
  user: AdminUser,
  method: AuthMethod,
): Promise<string> {
  await destroyRequestSession(request);
  const cookie = await createSignedInSession({
    userId: user.id,
    authMethod: method,
    csrfSecret: newCsrfSecret(),
    ip: context.clientIp,
    userAgent: (request.headers.get("user-agent") ?? "").slice(0, 300),
  });
  await recordSignIn(getDb(), user.id);
  await recordAudit(getDb(), {
    actor: user,
    action: "sign-in",
    target: { type: "user", id: user.id },
    details: { method },
    ip: context.clientIp,
  });
  return cookie;
}

/** Ends this request's session; returns the Set-Cookie value that clears the cookie. */
export function endSession(request: Request): Promise<string> {
  return destroyRequestSession(request);
}
