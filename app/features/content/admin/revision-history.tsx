import { Form, Link } from "react-router";
import { CsrfField } from "~/ui/admin/csrf-field";
import { Notice, PageHeading, Panel } from "~/ui/admin/page-heading";
import { TextDiffView } from "~/ui/admin/text-diff";
import { buttonClasses } from "~/ui/button";
import type { TextDiff } from "~/ui/admin/line-diff";

// The revisions page of any content type: every save, newest first, who made it and why; the
// difference between any two; and restoring one, which saves it as a new revision.

const cell = "border-b border-slate-100 px-3 py-2 text-left align-top";
const control = "mt-1 block rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm";

type FieldChange = { field: string; label: string; diff: TextDiff };

export type RevisionHistoryProps = {
  /** "post", "page": what the history is of. */
  noun: string;
  title: string;
  /** The document's editor, to go back to. */
  editorPath: string;
  revisions: readonly { number: number; summary: string; authorEmail: string; createdAt: string }[];
  latest: number;
  from?: number;
  to?: number;
  changes?: readonly FieldChange[];
  restored?: number;
  problem?: string;
};

/** A document's revisions: compare any two, field by field, and restore one as a new revision. */
export function RevisionHistory({ noun, title, editorPath, revisions, latest, from, to, changes, restored, problem }: RevisionHistoryProps) {
  return (
    <>
      <PageHeading
        title={`Revisions of "${title}"`}
        actions={
          <Link to={editorPath} className={buttonClasses("secondary")}>
            Back to the {noun}
          </Link>
        }
      >
        Every save keeps a revision. Restoring one brings back its words as a new revision; the {noun} stays published, scheduled
        or draft as it is now.
      </PageHeading>
      {restored ? <Notice tone="success">Revision {restored} was restored as a new revision.</Notice> : null}
      {problem ? <Notice tone="error">{problem}</Notice> : null}
      {revisions.length === 0 ? (
        <p className="text-muted">
          No one has saved this {noun} in the back office yet: its first save keeps how it stands now as revision 1.
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
