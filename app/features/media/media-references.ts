import { decodeHTML } from "entities";
import { canonicalPath } from "~/platform/canonical-path";
import { MEDIA_PATH } from "~/features/media/media";
import { isUuid } from "~/db/normalize";

// Which uploaded images a text (a post's image_url or body, or a revision's) refers to, as the
// server will read the URLs in it: an image is in use when any spelling of its address is, and
// the media library must not delete it. A literal search for "/media/<id>/" missed spellings the
// server resolves to the same file: `/%6Dedia/<id>/…` (percent-encoded letters), `/x/../media/…`
// (dot segments), `//media` (doubled slashes), `https://any-host/media/…`, and `&#47;media/…` in a
// Markdown link, whose entities are decoded before it becomes an address.
//
// Every word of the text that could be a URL is read, whatever markup it sits in (an image line,
// a link, a LINK card, plain text): counting one that is never drawn only keeps an image longer.

/** What cannot be inside a URL in the post markup: spaces, and what brackets or quotes one. */
const URL_CANDIDATE = /[^\s()<>"'`[\]]+/g;
const MEDIA_SEGMENT = MEDIA_PATH.slice(1);
/** Only these can make a path the server reads as /media: the letters themselves, a %-escape or an entity. */
const MAY_NAME_MEDIA = /media|%|&/;

/** The id of the uploaded image a URL names, as the server resolves its path; undefined for anything else. */
export function mediaIdOfUrl(candidate: string): string | undefined {
  const text = candidate.includes("&") ? decodeHTML(candidate) : candidate;
  // Site paths and http(s) URLs only: nothing else becomes a link or an image in a post.
  if (!/^([/\\]|https?:)/i.test(text)) return undefined;
  let url: URL;
  try {
    url = new URL(text, "http://site.invalid/");
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  const [first, id] = canonicalPath(url.pathname).split("/").slice(1);
  if (first !== MEDIA_SEGMENT || !id) return undefined;
  const lower = id.toLowerCase();
  return isUuid(lower) ? lower : undefined;
}

/** The ids (lower case) of uploaded images these texts refer to, in any spelling the server resolves. */
export function mediaIdsReferencedBy(texts: readonly (string | null | undefined)[]): Set<string> {
  const ids = new Set<string>();
  for (const text of texts) {
    if (!text || !MAY_NAME_MEDIA.test(text)) continue;
    for (const [candidate] of text.matchAll(URL_CANDIDATE)) {
      const id = mediaIdOfUrl(candidate);
      if (id) ids.add(id);
    }
  }
  return ids;
}
