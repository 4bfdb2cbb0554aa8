// URL policy of the post markup: what may become a link, an image or an embed.

/** http, https, mailto, or a path on this site ("/…" but not protocol-relative "//…", or "#…"). */
export function isAllowedLinkUrl(url: string): boolean {
  return /^(https?:\/\/|mailto:)/i.test(url) || isSitePath(url);
}

/** Images come from the web or from this site; mailto and fragments make no sense for them. */
export function isAllowedImageUrl(url: string): boolean {
  return /^https?:\/\//i.test(url) || (url.startsWith("/") && isSitePath(url));
}

/** Links that leave the site open in a new tab. */
export function isExternalUrl(url: string): boolean {
  return /^https?:\/\//i.test(url);
}

function isSitePath(url: string): boolean {
  // "/\evil.com" is treated as "//evil.com" by browsers, so a backslash second is refused too.
  return (url.startsWith("/") && url[1] !== "/" && url[1] !== "\\") || url.startsWith("#");
}

export type VideoEmbed = { provider: "YouTube" | "Vimeo"; src: string };

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;

/** A bare YouTube (watch, youtu.be, shorts, embed) or Vimeo link → the privacy-friendly player URL. */
export function videoEmbedFor(text: string): VideoEmbed | undefined {
  if (!/^https?:\/\/\S+$/i.test(text)) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  const host = url.hostname.toLowerCase().replace(/^(www\.|m\.)/, "");
  const segments = url.pathname.split("/").filter(Boolean);
  let youtubeId: string | undefined;
  if (host === "youtube.com" || host === "youtube-nocookie.com") {
    if (segments[0] === "watch" && segments.length === 1) youtubeId = url.searchParams.get("v") ?? undefined;
    else if ((segments[0] === "shorts" || segments[0] === "embed") && segments.length === 2) youtubeId = segments[1];
  } else if (host === "youtu.be" && segments.length === 1) {
    youtubeId = segments[0];
  }
  if (youtubeId && YOUTUBE_ID.test(youtubeId)) {
    return { provider: "YouTube", src: `https://www.youtube-nocookie.com/embed/${youtubeId}` };
  }
  const vimeoId =
    host === "vimeo.com" && segments.length === 1
      ? segments[0]
      : host === "player.vimeo.com" && segments[0] === "video" && segments.length === 2
        ? segments[1]
        : undefined;
  if (vimeoId && /^\d{1,12}$/.test(vimeoId)) return { provider: "Vimeo", src: `https://player.vimeo.com/video/${vimeoId}` };
  return undefined;
}

export type LinkCard = { url: string; title: string; description: string };

/** `LINK: url - title - description`, split on the first two " - " (titles may contain hyphens). */
export function parseLinkCard(line: string): LinkCard | undefined {
  const match = /^LINK:\s*(.+)$/.exec(line);
  if (!match) return undefined;
  const rest = match[1]!;
  const first = rest.indexOf(" - ");
  const url = (first === -1 ? rest : rest.slice(0, first)).trim();
  if (!url || /\s/.test(url) || !isAllowedLinkUrl(url)) return undefined;
  if (first === -1) return { url, title: url, description: "" };
  const afterUrl = rest.slice(first + 3);
  const second = afterUrl.indexOf(" - ");
  const title = (second === -1 ? afterUrl : afterUrl.slice(0, second)).trim() || url;
  const description = second === -1 ? "" : afterUrl.slice(second + 3).trim();
  return { url, title, description };
}

export type ImageLine = { alt: string; url: string };

/** A line that is only `![alt](url)` (an optional "title" is ignored). */
export function parseImageLine(line: string): ImageLine | undefined {
  const match = /^!\[([^\]\n]*)\]\(\s*(\S+?)(?:\s+"[^"\n]*")?\s*\)$/.exec(line);
  if (!match) return undefined;
  const url = match[2]!;
  return isAllowedImageUrl(url) ? { alt: match[1]!.trim(), url } : undefined;
}
