import { MAX_DIFF_EDITS, MAX_DIFF_LINES, type DiffLine, type DiffSummary, type TextDiff } from "~/ui/admin/line-diff";

const LINE_STYLES: Record<DiffLine["kind"], string> = {
  same: "text-slate-700",
  added: "bg-green-50 text-green-900 no-underline",
  removed: "bg-red-50 text-red-900 line-through decoration-red-300",
};

/**
 * A text difference as an inline list of lines: additions in <ins>, removals in <del>, each also
 * marked with +/− and a word for screen readers, so colour is never the only sign.
 */
export function TextDiffView({ label, diff }: { label: string; diff: TextDiff }) {
  const atLeast = diff.tooLarge ? "at least " : "";
  return (
    <figure className="mb-4">
      <figcaption className="mb-1 text-sm font-semibold">
        {label}{" "}
        <span className="font-normal text-muted">
          ({atLeast}
          {diff.added.toLocaleString("en-US")} {diff.added === 1 ? "line" : "lines"} added, {atLeast}
          {diff.removed.toLocaleString("en-US")} removed)
        </span>
      </figcaption>
      {diff.tooLarge ? <TooLargeNote summary={diff.tooLarge} /> : null}
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white font-mono text-xs leading-5">
        {diff.hunks.map((hunk, index) => (
          <div key={index}>
            {hunk.skippedBefore ? (
              <p className="border-y border-slate-100 bg-slate-50 px-3 py-1 text-muted">
                {hunk.skippedBefore} unchanged {hunk.skippedBefore === 1 ? "line" : "lines"}
              </p>
            ) : null}
            {hunk.lines.map((line, lineIndex) => (
              <DiffLineView key={lineIndex} line={line} />
            ))}
          </div>
        ))}
      </div>
    </figure>
  );
}

const count = (lines: number) => `${lines.toLocaleString("en-US")} ${lines === 1 ? "line" : "lines"}`;

/** Why a difference is summarised instead of shown, and what the texts are. */
function TooLargeNote({ summary }: { summary: DiffSummary }) {
  const why =
    summary.reason === "lines"
      ? `one of the texts is longer than ${count(MAX_DIFF_LINES)}`
      : `more than ${count(MAX_DIFF_EDITS)} were added or removed`;
  return (
    <p className="rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 text-sm">
      Too many changes to show line by line: {why}. The earlier text has {count(summary.beforeLines)}, the later{" "}
      {count(summary.afterLines)}.
    </p>
  );
}

function DiffLineView({ line }: { line: DiffLine }) {
  const text = line.text || "\u00a0";
  const marker = line.kind === "added" ? "+" : line.kind === "removed" ? "−" : " ";
  const content =
    line.kind === "added" ? (
      <ins className={LINE_STYLES.added}>
        <span className="sr-only">Added: </span>
        {text}
      </ins>
    ) : line.kind === "removed" ? (
      <del className={LINE_STYLES.removed}>
        <span className="sr-only">Removed: </span>
        {text}
      </del>
    ) : (
      <span className={LINE_STYLES.same}>{text}</span>
    );
  return (
    <div className={`flex px-3 whitespace-pre-wrap ${line.kind === "same" ? "" : LINE_STYLES[line.kind]}`}>
      <span aria-hidden="true" className="w-4 shrink-0 select-none">
        {marker}
      </span>
      {content}
    </div>
  );
}
