import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/admin.post.revisions";
import { CsrfField } from "~/ui/admin/csrf-field";
import { Notice, PageHeading, Panel } from "~/ui/admin/page-heading";
import { TextDiffView } from "~/ui/admin/text-diff";
import { buttonClasses } from "~/ui/button";
import { site } from "~/config/site";
import { requireAdminForm, requireRole } from "~/features/auth/auth.server";
import { formatDateTime } from "~/ui/admin/format";
import { timeZoneOf } from "~/ui/admin/time-zone";
import { diffPostFields, restoreRevision } from "~/features/blog/post-editor.server";
import { getDb } from "~/db/index.server";
import { findPostForEditor, findRevision, listRevisions } from "~/features/blog/db/post-editing.server";

// A post's revisions (editors): every save, newest first, who made it and why; the difference
// between any two; and restoring one, which saves its words as a new revision.

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireRole(request, "editor");
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

const cell = "border-b border-slate-100 px-3 py-2 text-left align-top";
const control = "mt-1 block rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm";

export default function PostRevisions({ loaderData, actionData }: Route.ComponentProps) {
  const { id, title, revisions, latest, from, to, changes, restored } = loaderData;
  return (
    <>
      <PageHeading
        title={`Revisions of "${title}"`}
        actions={
          <Link to={`/admin/posts/${id}`} className={buttonClasses("secondary")}>
            Back to the post
          </Link>
        }
      >
        Every save keeps a revision. Restoring one brings back its words as a new revision; the post stays published, scheduled or
        draft as it is now.
      </PageHeading>
      {restored ? <Notice tone="success">Revision {restored} was restored as a new revision.</Notice> : null}
      {actionData?.problem ? <Notice tone="error">{actionData.problem}</Notice> : null}
      {revisions.length === 0 ? (
        <p className="text-muted">
          No one has saved this post in the back office yet: its first save keeps how it stands now as revision 1.
        </p>
      ) : (
        <>
          <Panel title="Compare two revisions" id="compare">
            <Form method="get" className="flex flex-wrap items-end gap-3">
              {(["from", "to"] as const).map((name) => (
                <div key={name}>
                  <label htmlFor={`compare-${name}`} className="text-sm font-medium">
                    {name === "from" ? "From revision" : "To revision"}
                  </label>
                  <select
                    id={`compare-${name}`}
                    name={name}
                    defaultValue={(name === "from" ? from : to) ?? ""}
                    className={control}
                  >
                    {revisions.map((revision) => (
                      <option key={revision.number} value={revision.number}>
                        {revision.number}: {revision.summary}
                      </option>
                    ))}
                  </select>
                </div>
              ))}
              <button type="submit" className={buttonClasses("secondary")}>
                Compare
              </button>
            </Form>
            {changes ? (
              <div className="mt-4">
                <h3 className="mb-2 font-semibold">
                  Changes from revision {from} to revision {to}
                </h3>
                {changes.length === 0 ? <p className="text-muted">These revisions are the same.</p> : null}
                {changes.map((change) => (
                  <TextDiffView key={change.field} label={change.label} diff={change.diff} />
                ))}
              </div>
            ) : null}
          </Panel>
          <Panel title="All revisions" id="revisions">
            <div className="overflow-x-auto">
              <table className="w-full text-sm">
                <thead>
                  <tr className="text-muted">
                    {["Revision", "What", "Who", "When", ""].map((heading, index) => (
                      <th key={index} scope="col" className={cell}>
                        {heading || <span className="sr-only">Actions</span>}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {revisions.map((revision) => (
                    <tr key={revision.number}>
                      <td className={cell}>{revision.number}</td>
                      <td className={cell}>{revision.summary}</td>
                      <td className={cell}>{revision.authorEmail || "Content import"}</td>
                      <td className={cell}>{revision.createdAt}</td>
                      <td className={cell}>
                        {revision.number === latest ? (
                          <span className="text-muted">Current</span>
                        ) : (
                          <Form method="post">
                            <CsrfField />
                            <input type="hidden" name="revision" value={revision.number} />
                            <input type="hidden" name="baseRevision" value={latest} />
                            <button
                              type="submit"
                              className={buttonClasses("secondary")}
                              aria-label={`Restore revision ${revision.number}`}
                            >
                              Restore
                            </button>
                          </Form>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </Panel>
        </>
      )}
    </>
  );
}
