// The names a CDN in front knows the site's answers by (its surrogate keys, Cloudflare's cache
// tags), in one place. An answer carries the keys of everything it shows; a publish purges the keys
// of what it changed, and every cached answer carrying one of them is dropped at once. A key is
// lower-case letters, digits, ":", "_" and "-" (no dots, slashes or spaces: both CDNs split lists on
// spaces or commas, and a key is never a path).

export const SURROGATE_KEY_PATTERN = /^[a-z0-9][a-z0-9:_-]*$/;

/** On every public answer from the app: purging it empties the whole cache (a content import does). */
export const SITE_KEY = "site";
/** Every page that draws the menus. */
export const NAV_KEY = "nav";
/** Lists of posts: the blog index and its categories, the home page's latest insights. */
export const POST_LIST_KEY = "posts";
/** The blog's feeds (RSS, Atom, JSON Feed) in every language. */
export const POST_FEEDS_KEY = "feeds";
/** What lists the open positions: the careers page, its feeds, a closed position's page. */
export const POSITION_LIST_KEY = "positions";
export const SITEMAP_KEY = "sitemap";
/** Answers an editor's redirect rule made (301s kept for an hour). */
export const REDIRECTS_KEY = "redirects";
/** Every uploaded image at /media (never changed in place: purged when deleted). */
export const MEDIA_KEY = "media";

export const postKey = (id: string) => `post:${id.toLowerCase()}`;
export const pageKey = (id: string) => `page:${id.toLowerCase()}`;
export const positionKey = (id: string) => `position:${id.toLowerCase()}`;
/** A legal document by its type: its page in force and its earlier versions, in every language. */
export const legalKey = (documentType: string) => `legal:${documentType}`;
export const mediaKey = (id: string) => `media:${id.toLowerCase()}`;

export function isSurrogateKey(key: string): boolean {
  return key.length <= 256 && SURROGATE_KEY_PATTERN.test(key);
}

/** The keys, each once, in the order first given; throws on a malformed one (a programming error, not input). */
export function surrogateKeyList(keys: Iterable<string>): string[] {
  const list = [...new Set(keys)];
  const bad = list.find((key) => !isSurrogateKey(key));
  if (bad !== undefined) throw new Error(`not a surrogate key: ${JSON.stringify(bad)}`);
  return list;
}
