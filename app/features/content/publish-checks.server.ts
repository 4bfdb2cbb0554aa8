import { decodeHTML, decodeHTMLAttribute } from "entities";
import type { HtmlValidate, Message, Parser, ResolvedConfig } from "html-validate";
import type { Kysely, Transaction } from "kysely";
import { findMediaRecords } from "~/features/media/db/media.server";
import { formatBytes, MAX_UPLOAD_BYTES, parseMediaPath } from "~/features/media/media";
import { claimOf, fixedRoutes } from "~/features/site/site-paths.server";
import type { Database } from "~/db/schema";

// What a page or a post must pass before it goes live, checked on its rendered draft: valid HTML
// by the rules the test suite holds the public site to (html-validate's standard rules), the
// accessibility rules that can be read off markup (heading order, alt text, names of links and
// buttons), no link to an address of this site where visitors find no page, and no image of the
// media library over the size the site allows an image. Each problem names where it comes from (a
// block by its position and type, or a field) in words an editor can act on.
//
// The types' own modules draw their drafts into pieces (~/features/pages/page-checks.server,
// ~/features/blog/post-checks.server); this module knows no type.

type Db = Kysely<Database> | Transaction<Database>;

/** Where a problem is: a page's block (`block` is its index in the page's list) or a field of the document. */
export type ProblemPlace = { block: number; label: string } | { field: string; label: string };

/** A part of the draft as the public site draws it, and where it comes from. */
export type RenderedPiece = { where: ProblemPlace; html: string };

/** An address the draft uses outside its drawn markup (a social image, a canonical page). */
export type DraftReference = { where: ProblemPlace; kind: "link" | "image"; url: string };

export type PublishProblem = {
  /** The html-validate rule, or broken-link / missing-image / image-too-large. */
  rule: string;
  /** For the editor: where, what is wrong, and what to do. */
  message: string;
  where: ProblemPlace;
};

/**
 * The most bytes an image of the media library may have on a page or in a post: the one size the
 * site sets for an image, its upload limit. An image can still be stored larger (the content
 * import takes files as they are), and is then refused here.
 */
export const IMAGE_BUDGET_BYTES = MAX_UPLOAD_BYTES;

// The public site's rules (tests/e2e/html-validity.spec.ts) with the accessibility and document
// presets: those that read a page's outline (heading-level), names (links, buttons, images) and
// references. None of the style rules is on, so React's way of writing markup is not at issue.
// Loaded on the first check, not when the server starts (the library takes a few hundred ms).
let checker: Promise<{ validator: HtmlValidate; parser: () => Parser }> | undefined;
function htmlChecker() {
  checker ??= import("html-validate").then(async (library) => {
    const validator = new library.HtmlValidate({
      extends: ["html-validate:standard", "html-validate:a11y", "html-validate:document"],
      rules: {
        // Every image a page or post draws is content an editor chose, so it needs words: alt=""
        // (allowed by the rule for decorative images) would be an image without a description.
        "wcag/h37": ["error", { allowEmpty: false }],
      },
    });
    const config: ResolvedConfig = await validator.getConfigFor("draft.html");
    return { validator, parser: () => new library.Parser(config) };
  });
  // A failed load is tried again by the next check.
  checker.catch(() => (checker = undefined));
  return checker;
}

/** The frame around a draft's pieces: the site's header and footer are not part of a draft. */
const DOCUMENT_START = '<!doctype html><html lang="en"><head><title>Draft</title></head><body><main>';
const DOCUMENT_END = "</main></body></html>";

/** "Block 3 (Grid of items)" or "Body": a place as the editor names it. */
export function describePlace(where: ProblemPlace): string {
  return "block" in where ? `Block ${where.block + 1} (${where.label})` : where.label;
}

type Located = PublishProblem & { at: number };

/**
 * Checks a draft drawn as `pieces` (in page order) and the addresses in `references`. Links to
 * `ownPath` (the address being published) are fine though it is not live yet. Returns every
 * problem, in the order of the draft; none when it may go live.
 */
export async function checkDraft(
  db: Db,
  draft: { pieces: readonly RenderedPiece[]; references?: readonly DraftReference[]; ownPath?: string | null },
): Promise<PublishProblem[]> {
  // One document, so that what spans pieces is checked too: the outline, ids used twice.
  const starts: number[] = [];
  let html = DOCUMENT_START;
  for (const piece of draft.pieces) {
    starts.push(html.length);
    html += piece.html;
  }
  html += DOCUMENT_END;
  /** The piece the markup at `offset` belongs to (the frame's own markup counts as the nearest piece). */
  const placeAt = (offset: number): ProblemPlace => {
    let index = 0;
    while (index + 1 < starts.length && starts[index + 1]! <= offset) index += 1;
    return draft.pieces[index]?.where ?? { field: "document", label: "The draft" };
  };

  const { validator, parser } = await htmlChecker();
  const problems: Located[] = [];
  const report = await validator.validateString(html, "draft.html");
  const messages = report.results.flatMap((result) => result.messages);
  for (const message of withoutEchoes(messages, html)) {
    const where = placeAt(message.offset);
    problems.push({
      rule: message.ruleId,
      message: `${describePlace(where)}: ${explain(message, html)}`,
      where,
      at: message.offset,
    });
  }

  const root = parser().parseHtml(html);
  const references: (DraftReference & { at: number })[] = [];
  for (const element of root.querySelectorAll("a[href], img[src]")) {
    const attribute = element.tagName === "a" ? "href" : "src";
    const value = element.getAttributeValue(attribute);
    if (typeof value !== "string") continue;
    references.push({
      where: placeAt(element.location.offset),
      kind: element.tagName === "a" ? "link" : "image",
      url: decodeHTMLAttribute(value),
      at: element.location.offset,
    });
  }
  // Addresses outside the markup come after it, in the order given.
  (draft.references ?? []).forEach((reference, index) => references.push({ ...reference, at: html.length + index }));

  problems.push(...(await linkProblems(db, references, draft.ownPath ?? null)));
  problems.push(...(await imageProblems(db, references)));
  return problems.sort((a, b) => a.at - b.at).map(({ at: _at, ...problem }) => problem);
}

/** The words of the first heading at or after the element `offset` points into, quoted (or nothing). */
function headingAt(html: string, offset: number): string {
  const heading = /<h[1-6][^>]*>([\s\S]*?)<\/h[1-6]>/.exec(html.slice(html.lastIndexOf("<", offset)))?.[1];
  const words = heading === undefined ? "" : decodeHTML(heading.replace(/<[^>]*>/g, "")).trim();
  return words ? ` "${words.slice(0, 80)}"` : "";
}

/** A message of html-validate in an editor's words (its own text for the rules an editor rarely meets). */
function explain(message: Message, html: string): string {
  const text = message.message;
  switch (message.ruleId) {
    case "heading-level": {
      const named = headingAt(html, message.offset);
      const initial = /Initial heading level must be <h1> but got <h(\d)>/.exec(text);
      if (initial)
        return `the page starts with a level ${initial[1]} heading${named}: it needs its main heading (level 1) first, as a Hero block gives it.`;
      const skipped = /expected <h(\d)> but got <h(\d)>/.exec(text);
      if (skipped)
        return `the heading${named} is at level ${skipped[2]} where level ${skipped[1]} comes next: headings go down one level at a time.`;
      if (/Multiple <h1>/.test(text))
        return `the heading${named} is a second main heading (level 1): a page has one, in its Hero block.`;
      return `the headings are out of order (${text}).`;
    }
    case "unique-landmark":
      return `another section has the same heading${headingAt(html, message.offset)}: screen readers list sections by their headings, so give each its own.`;
    case "wcag/h30":
      return "a link has no text, so people using a screen reader cannot tell where it leads: give it words.";
    case "wcag/h37":
      return "an image has no alt text: describe it for people who cannot see it.";
    case "text-content":
      return "a button has no text, so people using a screen reader cannot tell what it does: give it a label.";
    case "empty-heading":
      return "a heading is empty: give it words or remove it.";
    case "no-dup-id":
      return `the anchor "${duplicateId(message) ?? ""}" is used twice on the page: give each section its own.`;
    default:
      return `the HTML breaks the rule ${message.ruleId}: ${text}.`;
  }
}

const duplicateId = (message: Message) => /Duplicate ID "([^"]*)"/.exec(message.message)?.[1];

/**
 * One message per mistake: an anchor used twice also doubles its heading's id ("<anchor>-heading"),
 * which gives the sections named by it the same name; only the anchor is told.
 */
function withoutEchoes(messages: readonly Message[], html: string): Message[] {
  const duplicated = new Set(messages.filter((message) => message.ruleId === "no-dup-id").map(duplicateId));
  return messages.filter((message) => {
    if (message.ruleId === "no-dup-id") {
      const id = duplicateId(message);
      return !(id?.endsWith("-heading") && duplicated.has(id.slice(0, -"-heading".length)));
    }
    if (message.ruleId !== "unique-landmark") return true;
    const labelledBy = /^<[a-z]+\b[^>]*\baria-labelledby="([^"]*)"/.exec(html.slice(html.lastIndexOf("<", message.offset)))?.[1];
    return !(labelledBy && duplicated.has(labelledBy));
  });
}

/** A site path as written in a link: the path alone (query and fragment dropped), or undefined for any other link. */
function sitePathOf(url: string): string | undefined {
  if (!url.startsWith("/") || url.startsWith("//") || url.startsWith("/\\")) return undefined;
  return url.split(/[?#]/, 1)[0] || "/";
}

async function linkProblems(db: Db, references: readonly (DraftReference & { at: number })[], ownPath: string | null) {
  const verdicts = new Map<string, Promise<string | undefined>>();
  /** Why visitors find no page at `path`, or undefined when they do. */
  const verdictOf = async (path: string): Promise<string | undefined> => {
    if (path === ownPath) return undefined;
    // The site's fixed pages, and what it answers itself (feeds, files, uploaded images): a link to them works.
    if (await fixedRoutes(db, path)) return undefined;
    const claim = await claimOf(db, path);
    if (claim?.live) return undefined;
    return claim ? "leads to a page or post that is not published" : "leads to no page of the site";
  };
  const problems: Located[] = [];
  const seen = new Set<string>();
  for (const reference of references) {
    if (reference.kind !== "link") continue;
    const path = sitePathOf(reference.url);
    if (path === undefined) continue;
    if (!verdicts.has(path)) verdicts.set(path, verdictOf(path));
    const verdict = await verdicts.get(path);
    const key = `${describePlace(reference.where)} ${path}`;
    if (!verdict || seen.has(key)) continue;
    seen.add(key);
    problems.push({
      rule: "broken-link",
      message: `${describePlace(reference.where)}: the link to ${path} ${verdict}.`,
      where: reference.where,
      at: reference.at,
    });
  }
  return problems;
}

/** A size over the budget, in bytes where rounding would make it look the same as the budget. */
const sizeOver = (bytes: number) =>
  formatBytes(bytes) === formatBytes(IMAGE_BUDGET_BYTES) ? `${bytes.toLocaleString("en-US")} bytes` : formatBytes(bytes);

async function imageProblems(db: Db, references: readonly (DraftReference & { at: number })[]) {
  // Only images of the media library are measured (it keeps each one's size): the site's own files
  // ship with its code, and an https image from elsewhere cannot be (its size is not ours to know,
  // and may change), so nothing is said about either.
  const images = references.flatMap((reference) => {
    const path = reference.kind === "image" ? sitePathOf(reference.url) : undefined;
    const media = path === undefined ? undefined : parseMediaPath(path);
    return media ? [{ ...reference, path: path!, id: media.id }] : [];
  });
  if (!images.length) return [];
  const records = new Map((await findMediaRecords(db, images.map((image) => image.id))).map((record) => [record.id, record]));
  const problems: Located[] = [];
  for (const image of images) {
    const record = records.get(image.id);
    const place = describePlace(image.where);
    if (!record)
      problems.push({
        rule: "missing-image",
        message: `${place}: the image ${image.path} is not in the media library: choose an image that is.`,
        where: image.where,
        at: image.at,
      });
    else if (record.bytes > IMAGE_BUDGET_BYTES)
      problems.push({
        rule: "image-too-large",
        message: `${place}: the image "${record.alt}" is ${sizeOver(record.bytes)}; an image may be at most ${formatBytes(IMAGE_BUDGET_BYTES)}. Export it smaller and upload it again.`,
        where: image.where,
        at: image.at,
      });
  }
  return problems;
}
