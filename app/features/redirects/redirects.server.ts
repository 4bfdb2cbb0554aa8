import type { Kysely, Transaction } from "kysely";
import { lockContentWrites } from "~/db/content-lock.server";
import { getDb } from "~/db/index.server";
import type { Database } from "~/db/schema";
import { recordAudit } from "~/features/audit/audit.server";
import { BLOG_PATH } from "~/features/blog/posts";
import {
  deleteRedirectRow,
  findRedirectById,
  findRedirectByPath,
  findRedirectsTo,
  insertRedirect,
  listPostRenames,
  listRedirectRows,
  updateRedirect,
  type RedirectRow,
} from "~/features/redirects/db/redirects.server";
import { redirectHits } from "~/features/redirects/redirect-hits.server";
import {
  locationFor,
  normaliseOldPath,
  parseTarget,
  REDIRECT_KINDS,
  redirectFormSchema,
  storedTarget,
  type RedirectFieldErrors,
  type RedirectFormValues,
  type RedirectKind,
  type RedirectSource,
  type Target,
} from "~/features/redirects/redirect-rules";
import { blogSlugOf, claimOf } from "~/features/site/site-paths.server";
import { canonicalPath } from "~/platform/canonical-path";
import { logger } from "~/platform/logger.server";
import { enqueueCdnPurge } from "~/features/cdn/purges.server";
import { REDIRECTS_KEY } from "~/features/cdn/surrogate-keys";

// Redirects: the rules that need the database (an old address is no page of the site, a target is
// one, nothing loops or chains), every write audited in its own transaction, the list editors see
// (the blog's old slugs included) and the answer a visitor gets.

type Db = Kysely<Database> | Transaction<Database>;
export type RedirectActor = { id: string; email: string; ip: string };

/** One line of the list: a redirect of the table, or a post's old slug. */
export type RedirectListItem = {
  id: string | null;
  from: string;
  target: string;
  kind: RedirectKind;
  source: RedirectSource;
  hits: number;
  lastUsedAt: string | null;
  updatedAt: string;
  updatedBy: string;
  /** A post rename: the post it follows, edited on the post's own page. */
  post?: { id: string; title: string; live: boolean };
};

export async function listRedirects(db: Db): Promise<RedirectListItem[]> {
  const [rows, renames] = await Promise.all([listRedirectRows(db), listPostRenames(db)]);
  const items: RedirectListItem[] = rows.map((row) => ({
    id: row.id,
    from: row.fromPath,
    target: row.target,
    kind: row.kind,
    source: row.source,
    hits: row.hits,
    lastUsedAt: row.lastUsedAt,
    updatedAt: row.updatedAt,
    updatedBy: row.updatedBy,
  }));
  for (const rename of renames) {
    items.push({
      id: null,
      from: postAddress(rename.slug),
      target: postAddress(rename.currentSlug ?? rename.postId),
      kind: "permanent",
      source: "post-rename",
      hits: rename.hits,
      lastUsedAt: rename.lastUsedAt,
      updatedAt: rename.createdAt,
      updatedBy: "",
      post: { id: rename.postId, title: rename.title, live: rename.live },
    });
  }
  return items.sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
}

const postAddress = (slug: string) => canonicalPath(`${BLOG_PATH}/${encodeURIComponent(slug)}`);

/** The target's path on this site, or undefined for an https address. */
const targetPath = (target: Target | undefined) => (target?.type === "path" ? target.path : undefined);

/** How an address is redirected now, if it is: by the table or as a post's old slug. */
async function redirectedAt(db: Db, path: string): Promise<{ to: string; row?: RedirectRow; postTitle?: string } | undefined> {
  const row = await findRedirectByPath(db, path);
  if (row) return { to: row.kind === "gone" ? "" : row.target, row };
  const slug = blogSlugOf(path);
  if (slug === undefined) return undefined;
  const [rename] = await listPostRenames(db, slug);
  return rename ? { to: postAddress(rename.currentSlug ?? rename.postId), postTitle: rename.title } : undefined;
}

export type SaveResult =
  | { ok: true; id: string }
  | { ok: false; fieldErrors: RedirectFieldErrors; values: RedirectFormValues }
  | { ok: false; notFound: true };

export type SaveOptions = { id?: string; siteUrl?: string };

/**
 * Adds a redirect (or changes redirect `id`) from the form's fields, by an editor. Refused, with
 * the reason next to its field and nothing saved: a malformed address, one the site answers
 * itself, a target that is not a live page of the site or an https address, and anything that
 * would loop (A → A, A → B → A) or chain (A → B where B is redirected, or C → A exists already).
 */
export async function saveRedirect(
  db: Kysely<Database>,
  input: unknown,
  actor: RedirectActor,
  options: SaveOptions = {},
): Promise<SaveResult> {
  const raw = input as Partial<Record<string, unknown>>;
  const values: RedirectFormValues = {
    from: typeof raw?.from === "string" ? raw.from.slice(0, 2048) : "",
    kind: typeof raw?.kind === "string" ? raw.kind.slice(0, 20) : "",
    target: typeof raw?.target === "string" ? raw.target.slice(0, 4096) : "",
  };
  const refuse = (fieldErrors: RedirectFieldErrors) => ({ ok: false as const, fieldErrors, values });
  const checked = checkRedirectFields(input, options.siteUrl);
  if (!checked.ok) return refuse(checked.fieldErrors);
  const { fromPath, kind, target } = checked;

  return db.transaction().execute(async (trx) => {
    await lockContentWrites(trx);
    const existing = options.id ? await findRedirectById(trx, options.id) : undefined;
    if (options.id && !existing) return { ok: false as const, notFound: true as const };

    const errors = await refusalsFor(trx, fromPath, target, existing?.id);
    if (errors.from || errors.target) return refuse(errors);

    const stored = { fromPath, target: target?.value ?? "", kind };
    // The redirects a CDN kept (their answers name this key) are dropped.
    await enqueueCdnPurge(trx, [REDIRECTS_KEY]);
    if (existing) {
      await updateRedirect(trx, existing.id, { ...stored, source: existing.source }, actor.email);
      await recordAudit(trx, {
        actor,
        action: "redirect.updated",
        target: { type: "redirect", id: existing.id },
        details: {
          from: fromPath,
          target: stored.target,
          kind,
          before: { from: existing.fromPath, target: existing.target, kind: existing.kind },
        },
        ip: actor.ip,
      });
      return { ok: true as const, id: existing.id };
    }
    const id = await insertRedirect(trx, { ...stored, source: "editor" }, actor.email);
    await recordAudit(trx, {
      actor,
      action: "redirect.created",
      target: { type: "redirect", id },
      details: { from: fromPath, target: stored.target, kind, source: "editor" },
      ip: actor.ip,
    });
    return { ok: true as const, id };
  });
}

export type CheckedRedirectFields =
  | { ok: true; fromPath: string; kind: RedirectKind; target: Target | undefined }
  | { ok: false; fieldErrors: RedirectFieldErrors };

/**
 * The rules of a redirect's fields that need no database (the form's and the content files'):
 * the old address in the server's form of paths, and for a redirect that is not gone a target
 * that is a path of this site or an https address, never this site's own URL.
 */
export function checkRedirectFields(input: unknown, siteUrl?: string): CheckedRedirectFields {
  const parsed = redirectFormSchema.safeParse(input);
  if (!parsed.success) {
    const fieldErrors: RedirectFieldErrors = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if ((field === "from" || field === "kind" || field === "target") && !fieldErrors[field]) fieldErrors[field] = issue.message;
    }
    return { ok: false, fieldErrors };
  }
  const { kind } = parsed.data;
  const fieldErrors: RedirectFieldErrors = {};
  const from = normaliseOldPath(parsed.data.from);
  if (!from.ok) fieldErrors.from = from.error;
  let target: Target | undefined;
  if (kind !== "gone") {
    const checked = parseTarget(parsed.data.target);
    if (!checked.ok) fieldErrors.target = checked.error;
    else if (checked.target.type === "url" && siteUrl && new URL(checked.target.url).host === new URL(siteUrl).host)
      fieldErrors.target = `That address is this site: enter its path, ${new URL(checked.target.url).pathname}.`;
    else target = checked.target;
  }
  if (!from.ok || fieldErrors.target) return { ok: false, fieldErrors };
  return { ok: true, fromPath: from.path, kind, target };
}

/**
 * Why a redirect from `fromPath` to `target` (undefined: gone) cannot be, per field; {} when it
 * can. `selfId` is the redirect's own row, when it has one (a change, or the content import's
 * check of what it wrote).
 */
export async function refusalsFor(
  db: Db,
  fromPath: string,
  target: Target | undefined,
  selfId: string | undefined,
): Promise<RedirectFieldErrors> {
  const errors: RedirectFieldErrors = {};
  const claim = await claimOf(db, fromPath);
  if (claim) errors.from = `${claim.reason} A redirect from it would never be used.`;

  const already = errors.from ? undefined : await redirectedAt(db, fromPath);
  if (already?.postTitle !== undefined)
    errors.from = `This is an old address of the post “${already.postTitle}”: it already leads to ${already.to}.`;
  else if (already?.row && already.row.id !== selfId)
    errors.from = `A redirect from ${fromPath} exists already: change that one instead.`;

  if (!errors.from) {
    const pointing = (await findRedirectsTo(db, fromPath)).filter((row) => row.id !== selfId);
    if (pointing.length)
      errors.from = `${pointing[0]!.fromPath} already redirects to ${fromPath}: a redirect from here would make a chain (${pointing[0]!.fromPath} → ${fromPath} → …). Point ${pointing[0]!.fromPath} elsewhere first.`;
  }

  const to = targetPath(target);
  if (to !== undefined) {
    if (to === fromPath) errors.target = "A redirect to its own address would loop.";
    else {
      const onward = await redirectedAt(db, to);
      const onwardTarget = onward?.row && onward.row.id === selfId ? undefined : onward;
      if (onwardTarget) {
        const next = onwardTarget.to ? storedTarget(onwardTarget.to) : undefined;
        if (targetPath(next) === fromPath)
          errors.target = `${to} redirects to ${fromPath}: this would loop (${fromPath} → ${to} → ${fromPath}).`;
        else if (onwardTarget.row?.kind === "gone") errors.target = `${to} is marked gone (410): choose a page that exists.`;
        else
          errors.target = `${to} is itself redirected to ${onwardTarget.to}: point this redirect at ${onwardTarget.to} instead, so visitors take one step, not two.`;
      } else {
        const live = await claimOf(db, to);
        if (!live?.live) errors.target = `There is no page of the site at ${to}.`;
      }
    }
  }
  return errors;
}

export type DeleteResult = { ok: true } | { ok: false; notFound: true };

export async function deleteRedirect(db: Kysely<Database>, id: string, actor: RedirectActor): Promise<DeleteResult> {
  return db.transaction().execute(async (trx) => {
    const existing = await findRedirectById(trx, id);
    if (!existing) return { ok: false as const, notFound: true as const };
    await deleteRedirectRow(trx, id);
    await enqueueCdnPurge(trx, [REDIRECTS_KEY]);
    await recordAudit(trx, {
      actor,
      action: "redirect.deleted",
      target: { type: "redirect", id },
      details: { from: existing.fromPath, target: existing.target, kind: existing.kind, source: existing.source },
      ip: actor.ip,
    });
    return { ok: true as const };
  });
}

/**
 * A page moved from `from` to `to` (its new path is live in the same transaction): its old address
 * now leads to the new one, permanently. So that nothing chains, redirects that led to `from` now
 * lead to `to`, and a redirect from `to` (the page now lives there) is removed. Each change is
 * audited. Pass the page save's transaction, so both are stored or neither.
 */
export async function recordPathMove(db: Db, from: string, to: string, actor: RedirectActor): Promise<void> {
  if (!db.isTransaction) return (db as Kysely<Database>).transaction().execute((trx) => recordPathMove(trx, from, to, actor));
  const oldPath = canonicalPath(from);
  const newPath = canonicalPath(to);
  if (oldPath === newPath) return;
  await lockContentWrites(db as Kysely<Database>);
  await enqueueCdnPurge(db as Kysely<Database>, [REDIRECTS_KEY]);
  const audit = (
    action: "redirect.created" | "redirect.updated" | "redirect.deleted",
    id: string,
    details: Record<string, unknown>,
  ) =>
    recordAudit(db, {
      actor,
      action,
      target: { type: "redirect", id },
      details: { ...details, source: "page-move" },
      ip: actor.ip,
    });

  const atNew = await findRedirectByPath(db, newPath);
  if (atNew) {
    await deleteRedirectRow(db, atNew.id);
    await audit("redirect.deleted", atNew.id, {
      from: atNew.fromPath,
      target: atNew.target,
      kind: atNew.kind,
      reason: "a page moved here",
    });
  }
  for (const row of await findRedirectsTo(db, oldPath)) {
    if (row.fromPath === newPath) continue;
    const target = newPath + row.target.slice(oldPath.length);
    await updateRedirect(db, row.id, { target }, actor.email);
    await audit("redirect.updated", row.id, { from: row.fromPath, target, kind: row.kind, before: { target: row.target } });
  }
  const atOld = await findRedirectByPath(db, oldPath);
  if (atOld) {
    await updateRedirect(db, atOld.id, { target: newPath, kind: "permanent", source: "page-move" }, actor.email);
    await audit("redirect.updated", atOld.id, {
      from: oldPath,
      target: newPath,
      kind: "permanent",
      before: { target: atOld.target, kind: atOld.kind },
    });
  } else {
    const id = await insertRedirect(
      db,
      { fromPath: oldPath, target: newPath, kind: "permanent", source: "page-move" },
      actor.email,
    );
    await audit("redirect.created", id, { from: oldPath, target: newPath, kind: "permanent" });
  }
}

export type RedirectAnswer = { status: 301 | 302; location: string } | { status: 410 };

/**
 * The answer for a path the site has no page at, if a redirect covers it (its use counted).
 * Only the not-found answers ask, so a redirect never shadows a page.
 */
export async function redirectAnswer(db: Db, url: URL): Promise<RedirectAnswer | undefined> {
  const path = canonicalPath(url.pathname);
  const row = await findRedirectByPath(db, path);
  if (!row) return undefined;
  if (row.kind === "gone") {
    redirectHits.redirect(path);
    return { status: 410 };
  }
  const target = storedTarget(row.target);
  if (!target) return undefined;
  redirectHits.redirect(path);
  return { status: REDIRECT_KINDS[row.kind].status as 301 | 302, location: locationFor(target, url.search) };
}

/**
 * The redirect answer for a request the site has no page for, as a response to throw, or
 * undefined (answer 404 then). A failed lookup is logged and counts as no redirect: the visitor
 * gets the 404 the site would have sent anyway.
 */
export async function redirectForMissingPage(
  request: Request,
  requestId?: string,
): Promise<Response | { gone: true } | undefined> {
  let answer: RedirectAnswer | undefined;
  try {
    answer = await redirectAnswer(getDb(), new URL(request.url));
  } catch (error) {
    logger.warn({ err: error, requestId }, "redirect lookup failed; answering not found");
    return undefined;
  }
  if (!answer) return undefined;
  if (answer.status === 410) return { gone: true };
  // A permanent redirect is kept by browsers for an hour, not for ever: an editor's mistake heals.
  const cacheControl = answer.status === 301 ? "public, max-age=3600" : "no-store";
  return new Response(null, { status: answer.status, headers: { Location: answer.location, "Cache-Control": cacheControl } });
}
