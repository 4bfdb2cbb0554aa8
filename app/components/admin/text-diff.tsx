import type { DiffLine, TextDiff } from "~/lib/admin/text-diff";

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
  return (
    <figure className="mb-4">
      <figcaption className="mb-1 text-sm font-semibold">
        {label}{" "}
        <span className="font-normal text-muted">
          ({diff.added} {diff.added === 1 ? "line" : "lines"} added, {diff.removed} removed)
        </span>
      </figcaption>
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
