import type { Kysely } from "kysely";
import { data, redirect } from "react-router";
import type { Database } from "~/db/schema";
import { formatDateTime } from "~/ui/admin/format";
import { timeZoneOf } from "~/ui/admin/time-zone";
import type { ContentTypeId } from "~/features/content/content-types";
import { diffSnapshots, type SaveOutcome } from "~/features/content/core.server";
import { findRevision, listRevisions } from "~/features/content/revisions.server";

// A document's revisions page in the back office, for the types stored as documents of the core
// (pages, positions): the list, two revisions compared (?from, ?to; the newest two by default), and
// restoring one as the draft. The routes check the role first.

type Db = Kysely<Database>;

export async function loadRevisionHistory(
  db: Db,
  request: Request,
  type: ContentTypeId,
  doc: { id: string; title: string; revision: number },
) {
  const zone = timeZoneOf(request);
  const revisions = await listRevisions(db, type, doc.id);
  const url = new URL(request.url);
  const numberParam = (name: string, fallback: number | undefined) => {
    const value = Number(url.searchParams.get(name) ?? fallback);
    return revisions.some((revision) => revision.number === value) ? value : fallback;
  };
  const to = numberParam("to", revisions[0]?.number);
  const from = numberParam("from", revisions[1]?.number);
  const [before, after] = await Promise.all([
    from === undefined ? undefined : findRevision(db, type, doc.id, from),
    to === undefined ? undefined : findRevision(db, type, doc.id, to),
  ]);
  return {
    id: doc.id,
    title: doc.title,
    revisions: revisions.map((revision) => ({ ...revision, createdAt: formatDateTime(revision.createdAt, zone) })),
    latest: doc.revision,
    from,
    to,
    changes: before && after ? diffSnapshots(type, before.snapshot, after.snapshot) : undefined,
    restored: Number(url.searchParams.get("restored")) || undefined,
  };
}

/**
 * The restore form's answer: back to the revisions with a note when restored; 404 for a revision
 * that does not exist; 409 when someone saved since the page was opened; 400 for a form without its numbers.
 */
export async function restoreRevisionAnswer(
  form: FormData | URLSearchParams,
  restore: (input: { number: number; baseRevision: number }) => Promise<SaveOutcome | undefined>,
  revisionsPath: string,
) {
  const number = Number(form.get("revision"));
  const baseRevision = Number(form.get("baseRevision"));
  if (!Number.isInteger(number) || !Number.isInteger(baseRevision))
    return data({ problem: "This form is incomplete." }, { status: 400 });
  const outcome = await restore({ number, baseRevision });
  if (!outcome) throw data({ message: "There is no such revision." }, { status: 404 });
  if (outcome.ok) throw redirect(`${revisionsPath}?restored=${number}`);
  if ("conflict" in outcome) {
    return data(
      { problem: `Not restored: ${outcome.conflict.authorEmail} saved a newer revision meanwhile. Look at it, then try again.` },
      { status: 409 },
    );
  }
  return data({ problem: Object.values(outcome.errors).join(" ") }, { status: 400 });
}
