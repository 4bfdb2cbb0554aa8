// The post markup nests lists by two spaces per level for bulleted AND numbered lists
// (a list item's children are indented by two spaces or more). CommonMark nests a child only under its parent's content column ("1. " is three
// wide), so before parsing, each list line's indentation is rewritten to that column.

/** Deeper levels are flattened onto the last one: bounded output for hostile input. */
export const MAX_LIST_DEPTH = 8;

const QUOTE_PREFIX = /^(?: {0,3}> ?)+/;
const LIST_ITEM = /^( *)([-*+]|\d{1,9}[.)])(?: +|$)/;
const FENCE = /^ *(`{3,}|~{3,})/;

export function normalizeListIndentation(text: string): string {
  const lines = text.split("\n");
  let stack: number[] = []; // content column of each open list level
  let prefix = "";
  let fence: { marker: string; shift: number } | undefined;
  let previousBlank = true;

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const linePrefix = QUOTE_PREFIX.exec(line)?.[0] ?? "";
    const body = line.slice(linePrefix.length);
    if (linePrefix !== prefix) {
      // Entering or leaving a quote starts a new context (and ends any fence, as the parser does).
      prefix = linePrefix;
      stack = [];
      fence = undefined;
    }
    const indent = body.length - body.trimStart().length;

    if (fence) {
      const close = FENCE.exec(body);
      if (close && close[1]![0] === fence.marker[0] && close[1]!.length >= fence.marker.length && body.trim() === close[1]) {
        lines[i] = prefix + shiftLine(body, fence.shift);
        fence = undefined;
      } else {
        lines[i] = prefix + shiftLine(body, fence.shift);
      }
      continue;
    }
    if (body.trim() === "") {
      previousBlank = true;
      continue;
    }
    const blankBefore = previousBlank;
    previousBlank = false;

    const item = LIST_ITEM.exec(body);
    if (item) {
      const level = Math.min(Math.floor(indent / 2), stack.length, MAX_LIST_DEPTH - 1);
      stack.length = level;
      const column = level === 0 ? 0 : stack[level - 1]!;
      // Only "-", "*" and "1." are list markers here; "+" and "1)" stay text.
      const marker = item[2]!;
      const safeMarker = marker === "+" ? "\\+" : marker.endsWith(")") ? `${marker.slice(0, -1)}\\)` : marker;
      const rest = body.slice(item[0].length);
      stack.push(column + marker.length + 1);
      lines[i] = prefix + " ".repeat(column) + safeMarker + (rest ? ` ${rest}` : "");
      continue;
    }

    let column = 0;
    // Unindented text after a blank line ends the list; without one it is a lazy continuation.
    if (indent === 0) {
      if (blankBefore) stack = [];
    } else {
      const level = Math.min(Math.floor(indent / 2), stack.length);
      column = level === 0 ? 0 : stack[level - 1]!;
    }
    const shift = column - indent;
    const open = FENCE.exec(body);
    if (open) fence = { marker: open[1]!, shift };
    lines[i] = prefix + shiftLine(body, shift);
  }
  return lines.join("\n");
}

function shiftLine(line: string, shift: number): string {
  if (shift > 0) return " ".repeat(shift) + line;
  if (shift < 0) {
    const leading = line.length - line.trimStart().length;
    return line.slice(Math.min(-shift, leading));
  }
  return line;
}
