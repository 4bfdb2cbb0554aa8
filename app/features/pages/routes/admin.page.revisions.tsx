import { data } from "react-router";
import type { Route } from "./+types/admin.page.revisions";
import { site } from "~/config/site";
import { requireAdminForm, requireRole } from "~/features/auth/auth.server";
import { requireContentLocale } from "~/features/auth/locales.server";
import { getDb } from "~/db/index.server";
import { RevisionHistory } from "~/features/content/admin/revision-history";
import { loadRevisionHistory, restoreRevisionAnswer } from "~/features/content/revision-history.server";
import { findPageForEditor, restorePageRevision } from "~/features/pages/page-documents.server";

// A page's revisions (editors): the content core's revision history of the page, its blocks'
// fields compared as text, and restoring one as the draft (what visitors see stays as it is).

export async function loader({ request, params }: Route.LoaderArgs) {
  const { user } = await requireRole(request, "editor");
  await requireContentLocale(user, "document", params.pageId);
  const page = await findPageForEditor(getDb(), params.pageId);
  if (!page) throw data({ message: "There is no such page." }, { status: 404 });
  return loadRevisionHistory(getDb(), request, "page", { id: page.id, title: page.draft.title, revision: page.revision });
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { user, form } = await requireAdminForm(request, "editor");
  await requireContentLocale(user, "document", params.pageId);
  const editor = { actor: { id: user.id, email: user.email }, ip: context.clientIp };
  return restoreRevisionAnswer(
    form,
    (input) => restorePageRevision(getDb(), editor, { id: params.pageId, ...input }),
    `/admin/pages/${params.pageId}/revisions`,
  );
}

export const meta: Route.MetaFunction = ({ data: loaded }) => [
  { title: `Revisions of ${loaded?.title ?? "a page"} | ${site.company} back office` },
];

export default function PageRevisions({ loaderData, actionData }: Route.ComponentProps) {
  const { id, ...history } = loaderData;
  return <RevisionHistory noun="page" editorPath={`/admin/pages/${id}`} {...history} problem={actionData?.problem} />;
}
