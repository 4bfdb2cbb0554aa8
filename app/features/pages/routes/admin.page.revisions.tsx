import { data, redirect } from "react-router";
import type { Route } from "./+types/admin.page.revisions";
import { site } from "~/config/site";
import { formatDateTime } from "~/ui/admin/format";
import { timeZoneOf } from "~/ui/admin/time-zone";
import { requireAdminForm, requireRole } from "~/features/auth/auth.server";
import { getDb } from "~/db/index.server";
import { diffSnapshots } from "~/features/content/core.server";
import { findRevision, listRevisions } from "~/features/content/revisions.server";
import { RevisionHistory } from "~/features/content/admin/revision-history";
import { findPageForEditor, restorePageRevision } from "~/features/pages/page-documents.server";

// A page's revisions (editors): the content core's revision history of the page, its blocks'
// fields compared as text, and restoring one as the draft (what visitors see stays as it is).

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireRole(request, "editor");
  const page = await findPageForEditor(getDb(), params.pageId);
  if (!page) throw data({ message: "There is no such page." }, { status: 404 });
  const zone = timeZoneOf(request);
  const revisions = await listRevisions(getDb(), "page", page.id);
  const url = new URL(request.url);
  const numberParam = (name: string, fallback: number | undefined) => {
    const value = Number(url.searchParams.get(name) ?? fallback);
    return revisions.some((revision) => revision.number === value) ? value : fallback;
  };
  const to = numberParam("to", revisions[0]?.number);
  const from = numberParam("from", revisions[1]?.number);
  const [before, after] = await Promise.all([
    from === undefined ? undefined : findRevision(getDb(), "page", page.id, from),
    to === undefined ? undefined : findRevision(getDb(), "page", page.id, to),
  ]);
  return {
    id: page.id,
    title: page.draft.title,
    revisions: revisions.map((revision) => ({ ...revision, createdAt: formatDateTime(revision.createdAt, zone) })),
    latest: page.revision,
    from,
    to,
    changes: before && after ? diffSnapshots("page", before.snapshot, after.snapshot) : undefined,
    restored: Number(url.searchParams.get("restored")) || undefined,
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { user, form } = await requireAdminForm(request, "editor");
  const number = Number(form.get("revision"));
  const baseRevision = Number(form.get("baseRevision"));
  if (!Number.isInteger(number) || !Number.isInteger(baseRevision))
    return data({ problem: "This form is incomplete." }, { status: 400 });
  const editor = { actor: { id: user.id, email: user.email }, ip: context.clientIp };
  const outcome = await restorePageRevision(getDb(), editor, { id: params.pageId, number, baseRevision });
  if (!outcome) throw data({ message: "There is no such revision." }, { status: 404 });
  if (outcome.ok) throw redirect(`/admin/pages/${params.pageId}/revisions?restored=${number}`);
  if ("conflict" in outcome) {
    return data(
      { problem: `Not restored: ${outcome.conflict.authorEmail} saved a newer revision meanwhile. Look at it, then try again.` },
      { status: 409 },
    );
  }
  return data({ problem: Object.values(outcome.errors).join(" ") }, { status: 400 });
}

export const meta: Route.MetaFunction = ({ data: loaded }) => [
  { title: `Revisions of ${loaded?.title ?? "a page"} | ${site.company} back office` },
];

export default function PageRevisions({ loaderData, actionData }: Route.ComponentProps) {
  const { id, ...history } = loaderData;
  return <RevisionHistory noun="page" editorPath={`/admin/pages/${id}`} {...history} problem={actionData?.problem} />;
}
