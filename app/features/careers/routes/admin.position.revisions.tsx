import { data } from "react-router";
import type { Route } from "./+types/admin.position.revisions";
import { site } from "~/config/site";
import { requireAdminForm, requireRole } from "~/features/auth/auth.server";
import { requireContentLocale } from "~/features/auth/locales.server";
import { getDb } from "~/db/index.server";
import { RevisionHistory } from "~/features/content/admin/revision-history";
import { loadRevisionHistory, restoreRevisionAnswer } from "~/features/content/revision-history.server";
import { findPositionForEditor, restorePositionRevision } from "~/features/careers/position-documents.server";
import { POSITION_ROLE } from "~/features/careers/position-editor.server";

// A position's revisions (recruiters): the content core's revision history, its fields compared as
// text, and restoring one as the draft (what visitors see stays as it is).

export async function loader({ request, params }: Route.LoaderArgs) {
  const { user } = await requireRole(request, POSITION_ROLE);
  await requireContentLocale(user, "document", params.positionId);
  const position = await findPositionForEditor(getDb(), params.positionId);
  if (!position) throw data({ message: "There is no such position." }, { status: 404 });
  return loadRevisionHistory(getDb(), request, "position", {
    id: position.id,
    title: position.draft.title,
    revision: position.revision,
  });
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { user, form } = await requireAdminForm(request, POSITION_ROLE);
  await requireContentLocale(user, "document", params.positionId);
  const editor = { actor: { id: user.id, email: user.email }, ip: context.clientIp };
  return restoreRevisionAnswer(
    form,
    (input) => restorePositionRevision(getDb(), editor, { id: params.positionId, ...input }),
    `/admin/positions/${params.positionId}/revisions`,
  );
}

export const meta: Route.MetaFunction = ({ data: loaded }) => [
  { title: `Revisions of ${loaded?.title ?? "a position"} | ${site.company} back office` },
];

export default function PositionRevisions({ loaderData, actionData }: Route.ComponentProps) {
  const { id, ...history } = loaderData;
  return <RevisionHistory noun="position" editorPath={`/admin/positions/${id}`} {...history} problem={actionData?.problem} />;
}
