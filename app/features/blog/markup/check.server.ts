import { isAllowedLinkUrl, parseImageLine, parseLinkCard } from "~/features/blog/markup/urls.server";

// What the renderer would refuse or drop in a post's markup, found before the post goes live: the
// editor is told line by line instead of finding plain text (or nothing) on the public page. The
// rules mirror markup.server.ts: its URL policy is the same code, its switched-off constructs are
// listed here.

export type MarkupProblem = { line: number; message: string };

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const INLINE_LINK = /(^|[^!\\])\[([^\]\n]*)\]\(\s*([^)\s]*)(?:\s+"[^"\n]*")?\s*\)/g;
const CHECKS: readonly { pattern: RegExp; message: string }[] = [
  {
    pattern: /^\s{0,3}\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)+\|?\s*$/,
    message: "Tables are not supported: the rows show as plain text.",
  },
  { pattern: /^\s{0,3}([-*_])(\s*\1){2,}\s*$/, message: "Horizontal rules are not supported: the line shows as text." },
  { pattern: /^\s{0,3}#{4,}\s/, message: "Headings deeper than ### show as plain text." },
  { pattern: /^\s{0,3}\[[^\]]+\]:\s*\S/, message: "Reference-style links are not supported: write [text](URL)." },
  { pattern: /<https?:\/\/[^>\s]+>/i, message: "Links in angle brackets are not supported: write [text](URL)." },
  { pattern: /<\/?[a-z][a-z0-9-]*(\s[^>]*)?\/?>/i, message: "HTML is not part of the post markup: it shows as text." },
];

/** Every construct in `markup` that would not render as written, with its line number (from 1). */
export function checkMarkup(markup: string): MarkupProblem[] {
  const problems: MarkupProblem[] = [];
  let fence: string | undefined;
  markup.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    const opening = FENCE.exec(raw)?.[1];
    if (fence) {
      if (opening && opening[0] === fence[0] && opening.length >= fence.length) fence = undefined;
      return;
    }
    if (opening) {
      fence = opening;
      return;
    }
    const text = raw.trim();
    if (text.startsWith("![") && !parseImageLine(text)) {
      problems.push({
        line,
        message: "This image is left out: write ![description](URL) on a line of its own, with an http(s) URL or a site path.",
      });
      return;
    }
    if (text.startsWith("LINK:") && !parseLinkCard(text)) {
      problems.push({ line, message: "This link card is left out: write LINK: URL - title - description, with an allowed URL." });
      return;
    }
    for (const match of raw.matchAll(INLINE_LINK)) {
      const url = match[3]!;
      if (!isAllowedLinkUrl(url)) {
        problems.push({
          line,
          message: `The link to "${url.slice(0, 80)}" is not allowed (only http(s), mailto and site paths): it shows as text.`,
        });
      }
    }
    const construct = CHECKS.find((check) => check.pattern.test(raw));
    if (construct) problems.push({ line, message: construct.message });
  });
  return problems;
}
