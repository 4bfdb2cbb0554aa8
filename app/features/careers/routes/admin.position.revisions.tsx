import { data, redirect } from "react-router";
import type { Route } from "./+types/admin.position.revisions";
import { site } from "~/config/site";
import { formatDateTime } from "~/ui/admin/format";
import { timeZoneOf } from "~/ui/admin/time-zone";
import { requireAdminForm, requireRole } from "~/features/auth/auth.server";
import { getDb } from "~/db/index.server";
import { diffSnapshots } from "~/features/content/core.server";
import { findRevision, listRevisions } from "~/features/content/revisions.server";
import { RevisionHistory } from "~/features/content/admin/revision-history";
import { findPositionForEditor, restorePositionRevision } from "~/features/careers/position-documents.server";
import { POSITION_ROLE } from "~/features/careers/position-editor.server";

// A position's revisions (recruiters): the content core's revision history, its fields compared as
// text, and restoring one as the draft (what visitors see stays as it is).

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireRole(request, POSITION_ROLE);
  const position = await findPositionForEditor(getDb(), params.positionId);
  if (!position) throw data({ message: "There is no such position." }, { status: 404 });
  const zone = timeZoneOf(request);
  const revisions = await listRevisions(getDb(), "position", position.id);
  const url = new URL(request.url);
  const numberParam = (name: string, fallback: number | undefined) => {
    const value = Number(url.searchParams.get(name) ?? fallback);
    return revisions.some((revision) => revision.number === value) ? value : fallback;
  };
  const to = numberParam("to", revisions[0]?.number);
  const from = numberParam("from", revisions[1]?.number);
  const [before, after] = await Promise.all([
    from === undefined ? undefined : findRevision(getDb(), "position", position.id, from),
    to === undefined ? undefined : findRevision(getDb(), "position", position.id, to),
  ]);
  return {
    id: position.id,
    title: position.draft.title,
    revisions: revisions.map((revision) => ({ ...revision, createdAt: formatDateTime(revision.createdAt, zone) })),
    latest: position.revision,
    from,
    to,
    changes: before && after ? diffSnapshots("position", before.snapshot, after.snapshot) : undefined,
    restored: Number(url.searchParams.get("restored")) || undefined,
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { user, form } = await requireAdminForm(request, POSITION_ROLE);
  const number = Number(form.get("revision"));
  const baseRevision = Number(form.get("baseRevision"));
  if (!Number.isInteger(number) || !Number.isInteger(baseRevision))
    return data({ problem: "This form is incomplete." }, { status: 400 });
  const editor = { actor: { id: user.id, email: user.email }, ip: context.clientIp };
  const outcome = await restorePositionRevision(getDb(), editor, { id: params.positionId, number, baseRevision });
  if (!outcome) throw data({ message: "There is no such revision." }, { status: 404 });
  if (outcome.ok) throw redirect(`/admin/positions/${params.positionId}/revisions?restored=${number}`);
  if ("conflict" in outcome) {
    return data(
      { problem: `Not restored: ${outcome.conflict.authorEmail} saved a newer revision meanwhile. Look at it, then try again.` },
      { status: 409 },
    );
  }
  return data({ problem: Object.values(outcome.errors).join(" ") }, { status: 400 });
}

export const meta: Route.MetaFunction = ({ data: loaded }) => [
  { title: `Revisions of ${loaded?.title ?? "a position"} | ${site.company} back office` },
];

export default function PositionRevisions({ loaderData, actionData }: Route.ComponentProps) {
  const { id, ...history } = loaderData;
  return <RevisionHistory noun="position" editorPath={`/admin/positions/${id}`} {...history} problem={actionData?.problem} />;
}
