import { data, Form, Link } from "react-router";
import type { Route } from "./+types/admin.legal.compare";
import { LEGAL_ADMIN_PATH, legalVersionAdminPath } from "~/features/legal/admin/legal-forms";
import { PageHeading, Panel } from "~/ui/admin/page-heading";
import { TextDiffView } from "~/ui/admin/text-diff";
import { buttonClasses } from "~/ui/button";
import { site } from "~/config/site";
import { requireRole } from "~/features/auth/auth.server";
import { diffFields } from "~/ui/admin/line-diff";
import { formatLongDate } from "~/platform/dates";
import { findLegalVersionRecord, type LegalVersionRecord } from "~/features/legal/db/legal-editing.server";
import { getDb } from "~/db/index.server";
import { legalDocumentTypes } from "~/features/legal/db/legal.server";
import { listVersionEntries } from "~/features/legal/admin.server";
import { legalDocuments } from "~/features/legal/documents";
import { documentText, effectiveDay, salvageSections } from "~/features/legal/drafts";

// The difference between any two versions of the legal documents (legal, owners): title,
// effective date and the whole text, line by line, folded to the changes. Two plain selects and a
// GET form choose them, so any comparison has an address to share.

const DIFF_LABELS = { title: "Title", effectiveDate: "Effective date", text: "Text" };

function comparable(record: LegalVersionRecord): Record<keyof typeof DIFF_LABELS, string> {
  return {
    title: record.title,
    effectiveDate: effectiveDay(record.effectiveDate),
    text: documentText(salvageSections(record.content)),
  };
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireRole(request, "legal");
  const query = new URL(request.url).searchParams;
  const choices = await Promise.all(
    legalDocumentTypes.map(async (type) => ({
      name: legalDocuments[type].name,
      versions: (await listVersionEntries(type)).map((entry) => ({
        id: entry.id,
        label: `Version ${entry.version} (${entry.state}, effective ${formatLongDate(entry.effectiveDate)})`,
      })),
    })),
  );
  const fromId = query.get("from") ?? "";
  const toId = query.get("to") ?? "";
  if (!fromId || !toId) return { choices, fromId, toId, comparison: null };

  const [from, to] = await Promise.all([findLegalVersionRecord(getDb(), fromId), findLegalVersionRecord(getDb(), toId)]);
  if (!from || !to) {
    throw data(
      { message: "One of the versions to compare does not exist (any more). Choose two from the lists." },
      { status: 404 },
    );
  }
  const describe = (record: LegalVersionRecord) => ({
    id: record.id,
    label: `${legalDocuments[record.documentType].name}, version ${record.version}`,
    state: record.published ? "published" : "draft",
    changeSummary: record.changeSummary,
  });
  return {
    choices,
    fromId: from.id,
    toId: to.id,
    comparison: {
      from: describe(from),
      to: describe(to),
      fields: diffFields(comparable(from), comparable(to), DIFF_LABELS),
    },
  };
}

export const meta: Route.MetaFunction = () => [{ title: `Compare legal versions | ${site.company} back office` }];

const selectClasses = "mt-1.5 block w-full max-w-md rounded-lg border border-slate-300 px-3 py-2";

export default function LegalCompare({ loaderData }: Route.ComponentProps) {
  const { choices, fromId, toId, comparison } = loaderData;
  const options = choices.map((document) => (
    <optgroup key={document.name} label={document.name}>
      {document.versions.map((version) => (
        <option key={version.id} value={version.id}>
          {document.name}: {version.label}
        </option>
      ))}
    </optgroup>
  ));
  return (
    <>
      <p className="mb-2 text-sm">
        <Link to={LEGAL_ADMIN_PATH} className="text-brand-700 underline">
          Legal documents
        </Link>
      </p>
      <PageHeading title="Compare versions">
        What changed between two versions: removed lines struck out, added lines marked.
      </PageHeading>
      <Panel title="Versions" id="choose">
        <Form method="get" className="flex flex-wrap items-end gap-4">
          <div>
            <label htmlFor="compare-from" className="block text-sm font-medium">
              Earlier version
            </label>
            <select id="compare-from" name="from" defaultValue={fromId} className={selectClasses}>
              {options}
            </select>
          </div>
          <div>
            <label htmlFor="compare-to" className="block text-sm font-medium">
              Later version
            </label>
            <select id="compare-to" name="to" defaultValue={toId} className={selectClasses}>
              {options}
            </select>
          </div>
          <button type="submit" className={buttonClasses()}>
            Compare
          </button>
        </Form>
      </Panel>
      {comparison ? (
        <Panel title={`${comparison.from.label} → ${comparison.to.label}`} id="changes">
          <ul className="mb-4 space-y-1 text-sm">
            {[comparison.from, comparison.to].map((version) => (
              <li key={version.id}>
                <Link to={legalVersionAdminPath(version.id)} className="font-medium text-brand-700 underline">
                  {version.label}
                </Link>{" "}
                ({version.state}){version.changeSummary ? `: ${version.changeSummary}` : ""}
              </li>
            ))}
          </ul>
          {comparison.fields.length === 0 ? (
            <p className="text-sm text-muted">The two versions have the same title, effective date and text.</p>
          ) : (
            comparison.fields.map((field) => <TextDiffView key={field.field} label={field.label} diff={field.diff} />)
          )}
        </Panel>
      ) : null}
    </>
  );
}
