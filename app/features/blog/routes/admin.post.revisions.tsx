import { data, redirect } from "react-router";
import type { Route } from "./+types/admin.post.revisions";
import { site } from "~/config/site";
import { RevisionHistory } from "~/features/content/admin/revision-history";
import { requireAdminForm, requireRole } from "~/features/auth/auth.server";
import { requireContentLocale } from "~/features/auth/locales.server";
import { formatDateTime } from "~/ui/admin/format";
import { timeZoneOf } from "~/ui/admin/time-zone";
import { diffPostFields, restoreRevision } from "~/features/blog/post-editor.server";
import { getDb } from "~/db/index.server";
import { findPostForEditor, findRevision, listRevisions } from "~/features/blog/db/post-editing.server";

// A post's revisions (editors): the content core's revision history of the post.

export async function loader({ request, params }: Route.LoaderArgs) {
  const { user } = await requireRole(request, "editor");
  await requireContentLocale(user, "post", params.postId);
  const post = await findPostForEditor(getDb(), params.postId);
  if (!post) throw data({ message: "There is no such post." }, { status: 404 });
  const zone = timeZoneOf(request);
  const revisions = await listRevisions(getDb(), post.id);
  const url = new URL(request.url);
  const numberParam = (name: string, fallback: number | undefined) => {
    const value = Number(url.searchParams.get(name) ?? fallback);
    return revisions.some((revision) => revision.number === value) ? value : fallback;
  };
  const to = numberParam("to", revisions[0]?.number);
  const from = numberParam("from", revisions[1]?.number);
  const [before, after] = await Promise.all([
    from === undefined ? undefined : findRevision(getDb(), post.id, from),
    to === undefined ? undefined : findRevision(getDb(), post.id, to),
  ]);
  return {
    id: post.id,
    title: post.title,
    revisions: revisions.map((revision) => ({ ...revision, createdAt: formatDateTime(revision.createdAt, zone) })),
    latest: revisions[0]?.number ?? 0,
    from,
    to,
    changes: before && after ? diffPostFields(before.snapshot, after.snapshot) : undefined,
    restored: Number(url.searchParams.get("restored")) || undefined,
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { user, form } = await requireAdminForm(request, "editor");
  await requireContentLocale(user, "post", params.postId);
  const number = Number(form.get("revision"));
  const baseRevision = Number(form.get("baseRevision"));
  const outcome = await restoreRevision({ id: params.postId, number, baseRevision, actor: user, ip: context.clientIp });
  if (!outcome) throw data({ message: "There is no such revision." }, { status: 404 });
  if (outcome.ok) throw redirect(`/admin/posts/${params.postId}/revisions?restored=${number}`);
  if ("conflict" in outcome) {
    return data(
      { problem: `Not restored: ${outcome.conflict.authorEmail} saved a newer revision meanwhile. Look at it, then try again.` },
      { status: 409 },
    );
  }
  if ("checks" in outcome) {
    // A published post goes live as restored: the revision must pass the checks before publishing.
    const problems = outcome.checks.map((problem) => problem.message).join(" ");
    return data({ problem: `Not restored: the post would go live with these problems. ${problems}` }, { status: 400 });
  }
  return data({ problem: Object.values(outcome.errors).join(" ") }, { status: 400 });
}

export const meta: Route.MetaFunction = ({ data }) => [
  { title: `Revisions of ${data?.title ?? "a post"} | ${site.company} back office` },
];

export default function PostRevisions({ loaderData, actionData }: Route.ComponentProps) {
  const { id, ...history } = loaderData;
  return <RevisionHistory noun="post" editorPath={`/admin/posts/${id}`} {...history} problem={actionData?.problem} />;
}
