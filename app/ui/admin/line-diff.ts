import { diffArrays } from "diff";

// The difference between two versions of a text (a post's fields, a legal document's sections),
// line by line, as the revision pages show it. Long unchanged stretches are folded to a few lines
// of context around each change, so a one-word edit in a long post is found at once.
//
// A diff runs on the event loop, and its work grows with the square of the number of changed
// lines: two unrelated texts of 4,000 lines took seconds, during which no page was served. So the
// work is bounded: texts of at most MAX_DIFF_LINES lines, a shortest edit of at most
// MAX_DIFF_EDITS lines added or removed. Past either the editor gets a summary (lines before and
// after, lines only in one of them) instead of the lines. The bound is on work, not time (a
// timeout would make the same two texts shown on a quiet server and summarised on a busy one):
// `npm run bench:diff` measures the largest diff allowed against a render of a public page.

export type DiffLine = { kind: "same" | "added" | "removed"; text: string };
export type DiffHunk = { lines: DiffLine[]; skippedBefore: number };
/**
 * The lines that changed, in hunks; or, when `tooLarge` is set, no hunks and only a summary:
 * `added` and `removed` then count the lines found in one text and not the other (at least that
 * many were added and removed).
 */
export type TextDiff = { hunks: DiffHunk[]; added: number; removed: number; tooLarge?: DiffSummary };
export type DiffSummary = { beforeLines: number; afterLines: number; reason: "lines" | "edits" };

/** Texts longer than this (either one) are summarised without being compared line by line: a long post has a few hundred. */
export const MAX_DIFF_LINES = 2_000;
/** The most lines added plus removed that a diff looks for: beyond it, a summary. */
export const MAX_DIFF_EDITS = 200;

const CONTEXT_LINES = 3;

function linesOf(text: string): string[] {
  return text === "" ? [] : text.replace(/\n$/, "").split("\n");
}

/** Each distinct line as a number, so that comparing two lines costs the same however long they are. */
function lineNumbers(before: string[], after: string[]): [number[], number[]] {
  const ids = new Map<string, number>();
  const idOf = (line: string) => {
    let id = ids.get(line);
    if (id === undefined) ids.set(line, (id = ids.size));
    return id;
  };
  return [before.map(idOf), after.map(idOf)];
}

/** How many lines are in `before` and not in `after` (as many times as they occur), and the other way round. */
function linesOnlyInOne(before: string[], after: string[]): { added: number; removed: number } {
  const balance = new Map<string, number>();
  for (const line of before) balance.set(line, (balance.get(line) ?? 0) + 1);
  for (const line of after) balance.set(line, (balance.get(line) ?? 0) - 1);
  let added = 0;
  let removed = 0;
  for (const count of balance.values()) {
    if (count > 0) removed += count;
    else added -= count;
  }
  return { added, removed };
}

function summary(before: string[], after: string[], reason: DiffSummary["reason"]): TextDiff {
  return {
    hunks: [],
    ...linesOnlyInOne(before, after),
    tooLarge: { beforeLines: before.length, afterLines: after.length, reason },
  };
}

export function diffTexts(before: string, after: string): TextDiff {
  if (before === after) return { hunks: [], added: 0, removed: 0 };
  const beforeLines = linesOf(before);
  const afterLines = linesOf(after);
  if (beforeLines.length > MAX_DIFF_LINES || afterLines.length > MAX_DIFF_LINES) return summary(beforeLines, afterLines, "lines");
  const [beforeIds, afterIds] = lineNumbers(beforeLines, afterLines);
  const changes = diffArrays(beforeIds, afterIds, { maxEditLength: MAX_DIFF_EDITS });
  if (!changes) return summary(beforeLines, afterLines, "edits");

  const lines: DiffLine[] = [];
  let beforeAt = 0;
  let afterAt = 0;
  for (const change of changes) {
    const kind = change.added ? "added" : change.removed ? "removed" : "same";
    const source = change.added
      ? afterLines.slice(afterAt, afterAt + change.count)
      : beforeLines.slice(beforeAt, beforeAt + change.count);
    if (!change.added) beforeAt += change.count;
    if (!change.removed) afterAt += change.count;
    for (const text of source) lines.push({ kind, text });
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
