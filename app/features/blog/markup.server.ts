import MarkdownIt, { type Options, type StateBlock, type StateCore, type Token } from "markdown-it";
import { POST_IMAGE_CLASSES, POST_IMAGE_SIZES } from "~/features/blog/posts";
import { normalizeListIndentation } from "~/features/blog/markup/indent.server";
import {
  isAllowedImageUrl,
  isAllowedLinkUrl,
  isExternalUrl,
  parseImageLine,
  parseLinkCard,
  videoEmbedFor,
  type ImageLine,
  type LinkCard,
  type VideoEmbed,
} from "~/features/blog/markup/urls.server";
import type { ResponsiveImage } from "~/features/media/responsive-image";

// The post markup (Markdown subset plus image and video embeds), rendered on the server only: the browser never ships a parser.
// Database content is untrusted: raw HTML is off, only a fixed set of constructs is enabled, every
// URL passes an allow-list, and nesting is capped so hostile input stays small and fast.

// markdown-it 14 rather than 15: 15's build is about 30% slower on a 1 MB post (bench:markup).
// maxNesting is a real runtime option that its type definitions omit.
const md = new MarkdownIt("default", {
  html: false,
  linkify: false,
  typographer: false,
  breaks: false,
  maxNesting: 20,
} as Options & { maxNesting: number });

// Everything CommonMark offers beyond that subset is switched off and shows as text.
md.disable([
  "table",
  "code", // indented code: indentation means list nesting here
  "hr",
  "lheading",
  "reference",
  "html_block",
  "strikethrough",
  "autolink",
  "html_inline",
  "image", // images are whole lines (the embed rule below)
  "linkify",
  "replacements",
  "smartquotes",
]);

// Links whose URL fails the allow-list are not links: markdown-it leaves their source as text.
md.validateLink = isAllowedLinkUrl;

type Embed = { kind: "image"; image: ImageLine } | { kind: "video"; video: VideoEmbed } | { kind: "card"; card: LinkCard };

function embedFor(line: string): Embed | undefined {
  const first = line[0];
  if (first === "!") {
    const image = parseImageLine(line);
    return image ? { kind: "image", image } : undefined;
  }
  if (first === "L") {
    const card = parseLinkCard(line);
    return card ? { kind: "card", card } : undefined;
  }
  if (first === "h" || first === "H") {
    const video = videoEmbedFor(line);
    return video ? { kind: "video", video } : undefined;
  }
  return undefined;
}

/** A line that is only an image, a video link or a LINK card becomes its own block. */
function embedLine(state: StateBlock, startLine: number, _endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine]! - state.blkIndent >= 4) return false;
  const start = state.bMarks[startLine]! + state.tShift[startLine]!;
  const line = state.src.slice(start, state.eMarks[startLine]).trim();
  const embed = embedFor(line);
  if (!embed) return false;
  if (silent) return true;
  const token = state.push("embed", "", 0);
  token.block = true;
  token.map = [startLine, startLine + 1];
  token.meta = embed;
  state.line = startLine + 1;
  return true;
}
md.block.ruler.before("paragraph", "embed_line", embedLine, { alt: ["paragraph", "blockquote", "list"] });

/**
 * `#`, `##`, `###` are h2–h4 (the post title is the page's h1); deeper hashes are plain text.
 * A heading never skips a level below the one before it (an outline of h1 → h3 fails WCAG's
 * heading order), so a post whose first heading is `##` starts at h2.
 */
function shiftHeadings(state: StateCore) {
  const tokens = state.tokens;
  let previous = 1;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.type !== "heading_open") continue;
    const inline = tokens[i + 1]!;
    const close = tokens[i + 2]!;
    if (token.markup.length <= 3) {
      previous = Math.min(token.markup.length + 1, previous + 1);
      token.tag = close.tag = `h${previous}`;
    } else {
      token.type = "paragraph_open";
      close.type = "paragraph_close";
      token.tag = close.tag = "p";
      inline.content = `${token.markup} ${inline.content}`;
    }
  }
}
md.core.ruler.after("block", "shift_headings", shiftHeadings);

/** No real paragraph is this long; inline parsing of one would cost seconds, so it stays plain text. */
const MAX_INLINE_LENGTH = 50_000;

function plainGiantParagraphs(state: StateCore) {
  for (const token of state.tokens) {
    // A block-level "text" token renders as its escaped content.
    if (token.type === "inline" && token.content.length > MAX_INLINE_LENGTH) token.type = "text";
  }
}
md.core.ruler.before("inline", "plain_giant_paragraphs", plainGiantParagraphs);

/** `__text__` is underline, not bold; external links open in a new tab. */
function inlineTweaks(state: StateCore) {
  for (const blockToken of state.tokens) {
    for (const token of blockToken.children ?? []) {
      if ((token.type === "strong_open" || token.type === "strong_close") && token.markup === "__") token.tag = "u";
      if (token.type === "link_open" && isExternalUrl(String(token.attrGet("href") ?? ""))) {
        token.attrSet("target", "_blank");
        token.attrSet("rel", "noopener noreferrer");
      }
    }
  }
}
md.core.ruler.push("inline_tweaks", inlineTweaks);

const escape = md.utils.escapeHtml;

md.renderer.rules.fence = (tokens: Token[], idx: number) => {
  const token = tokens[idx]!;
  const language = token.info.trim().split(/\s+/)[0] ?? "";
  const languageClass = /^[\w#+.-]{1,32}$/.test(language) ? ` class="language-${escape(language)}"` : "";
  return `<pre><code${languageClass}>${escape(token.content)}</code></pre>\n`;
};

md.renderer.rules.embed = (tokens: Token[], idx: number, _options, env) =>
  renderEmbed(tokens[idx]!.meta as Embed, env as RenderEnv);

type RenderEnv = { videos: number; responsiveImage?: (url: string) => ResponsiveImage | null };

function imageHtml(src: string, alt: string, picture: ResponsiveImage | null): string {
  const img = (url: string, width: number, height: number) =>
    `<img src="${escape(url)}" alt="${escape(alt)}" loading="lazy" decoding="async" ` +
    `width="${width}" height="${height}" class="${POST_IMAGE_CLASSES} rounded-xl">`;
  if (!picture) return img(src, 1600, 900);
  const sources = picture.sources
    .map((source) => `<source type="${source.type}" srcset="${escape(source.srcSet)}" sizes="${POST_IMAGE_SIZES.article}">`)
    .join("");
  return `<picture class="contents">${sources}${img(picture.src, picture.width, picture.height)}</picture>`;
}

function renderEmbed(embed: Embed, env: RenderEnv): string {
  switch (embed.kind) {
    case "image": {
      const src = md.normalizeLink(embed.image.url);
      if (!isAllowedImageUrl(src)) return "";
      // Raster files of this site that have variants become a <picture>; anything else stays as written.
      const picture = env.responsiveImage?.(embed.image.url) ?? null;
      return `<figure class="my-8">${imageHtml(src, embed.image.alt, picture)}</figure>\n`;
    }
    case "video": {
      const { provider, src } = embed.video;
      // Frame titles must be unique on a page (axe frame-title-unique).
      env.videos += 1;
      const title = env.videos === 1 ? `${provider} video` : `${provider} video ${env.videos}`;
      return (
        `<div class="my-8 aspect-video overflow-hidden rounded-xl bg-slate-900"><iframe src="${src}" title="${title}" ` +
        `loading="lazy" width="1600" height="900" class="size-full" allow="encrypted-media; picture-in-picture; fullscreen" ` +
        `referrerpolicy="strict-origin-when-cross-origin" allowfullscreen></iframe></div>\n`
      );
    }
    case "card": {
      const { title, description } = embed.card;
      const href = md.normalizeLink(embed.card.url);
      if (!isAllowedLinkUrl(href)) return "";
      const external = isExternalUrl(href) ? ` target="_blank" rel="noopener noreferrer"` : "";
      const host = isExternalUrl(href) ? safeHost(href) : "";
      return (
        `<a href="${escape(href)}"${external} class="my-6 block rounded-xl border border-slate-200 p-5 no-underline shadow-sm hover:border-brand-600">` +
        `<span class="block font-semibold text-ink">${escape(title)}</span>` +
        (description ? `<span class="mt-1 block text-muted">${escape(description)}</span>` : "") +
        (host ? `<span class="mt-2 block text-sm text-brand-700">${escape(host)}</span>` : "") +
        `</a>\n`
      );
    }
  }
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "";
  }
}

export type RenderOptions = {
  /** Variants of an image URL (from the build's manifest), or null to keep the plain <img>. */
  responsiveImage?: (url: string) => ResponsiveImage | null;
};

/** Post markup → safe HTML. Never throws: a parser failure degrades to escaped text. */
export function renderMarkup(text: string, options: RenderOptions = {}): string {
  const source = text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
  try {
    const env: RenderEnv = { videos: 0, responsiveImage: options.responsiveImage };
    return md.render(normalizeListIndentation(source), env);
  } catch {
    return source
      .split(/\n{2,}/)
      .filter((block) => block.trim())
      .map((block) => `<p>${escape(block)}</p>`)
      .join("\n");
  }
}
