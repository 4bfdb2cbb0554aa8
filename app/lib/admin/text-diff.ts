import { diffLines } from "diff";

// The difference between two versions of a text (a post's fields, a legal document's sections),
// line by line, as the revision pages show it. Long unchanged stretches are folded to a few lines
// of context around each change, so a one-word edit in a long post is found at once.

export type DiffLine = { kind: "same" | "added" | "removed"; text: string };
export type DiffHunk = { lines: DiffLine[]; skippedBefore: number };
export type TextDiff = { hunks: DiffHunk[]; added: number; removed: number };

const CONTEXT_LINES = 3;

export function diffTexts(before: string, after: string): TextDiff {
  const lines: DiffLine[] = [];
  for (const change of diffLines(before, after)) {
    const kind = change.added ? "added" : change.removed ? "removed" : "same";
    for (const text of change.value.replace(/\n$/, "").split("\n")) lines.push({ kind, text });
  }
  const changed = lines.map((line, index) => (line.kind === "same" ? -1 : index)).filter((index) => index >= 0);
  const shown = new Set<number>();
  for (const index of changed) {
    for (let near = index - CONTEXT_LINES; near <= index + CONTEXT_LINES; near += 1)
      if (near >= 0 && near < lines.length) shown.add(near);
  }
  const hunks: DiffHunk[] = [];
  let skipped = 0;
  let current: DiffHunk | undefined;
  lines.forEach((line, index) => {
    if (!shown.has(index)) {
      skipped += 1;
      current = undefined;
      return;
    }
    if (!current) {
      current = { lines: [], skippedBefore: skipped };
      hunks.push(current);
      skipped = 0;
    }
    current.lines.push(line);
  });
  return {
    hunks,
    added: lines.filter((line) => line.kind === "added").length,
    removed: lines.filter((line) => line.kind === "removed").length,
  };
}

/** One diff per named field (title, excerpt, body...), only for the fields that differ. */
export function diffFields(before: Record<string, string>, after: Record<string, string>, labels: Record<string, string>) {
  return Object.entries(labels)
    .filter(([field]) => (before[field] ?? "") !== (after[field] ?? ""))
    .map(([field, label]) => ({ field, label, diff: diffTexts(before[field] ?? "", after[field] ?? "") }));
}
