import { site } from "~/config/site";
import { getDb } from "~/db/index.server";
import { findPublishedPageById, type PublishedPage } from "~/features/pages/page-documents.server";
import { cardNotFound, cardResponse, cardUnavailable, type CardSource } from "~/features/social-cards/cards.server";
import { lineText, titleText, type CardText, type Coverage } from "~/features/social-cards/layout";
import { CARD_SIZE, SOCIAL_CARDS_PATH } from "~/features/social-cards/social-card";
import type { PageImage } from "~/features/site/seo";
import { logger } from "~/platform/logger.server";
import { localePrefix } from "~/features/content/document-locale";
import { documentLocaleOf } from "~/features/content/locales.server";

// A page's social card: its section, title and description on the brand's ground, over the image
// an editor picked for the page when it is one of this site. Its address names the page's id, not
// its path: a page can move, and a shared link keeps its picture.

export const PAGE_CARDS_PATH = `${SOCIAL_CARDS_PATH}/pages`;

/** Hard caps in characters (graphemes): the pill holds a word or two, the description two lines. */
export const MAX_SECTION_CHARS = 32;
export const MAX_DESCRIPTION_CHARS = 130;

/** What a page's card is made of. */
export type CardPage = Pick<PublishedPage, "id" | "path" | "title" | "description" | "image">;

export function pageCardPath(pageId: string): string {
  return `${PAGE_CARDS_PATH}/${pageId}.png`;
}

/**
 * The part of the site a page is in, from its path's first segment after its language's prefix
 * ("/company/about": "Company", "/de/unternehmen/ueber-uns": "Unternehmen"); none for a top-level page.
 */
export function sectionOf(path: string): string {
  const locale = documentLocaleOf(path);
  const segments = path.slice(localePrefix(locale).length).split("/").filter(Boolean);
  if (segments.length < 2) return "";
  const words = segments[0]!.replaceAll("-", " ");
  return words.charAt(0).toLocaleUpperCase(locale) + words.slice(1);
}

/**
 * An image the editor picked is drawn under the card when it is one of this site; an address
 * elsewhere is never fetched, so such a page is shared with that image itself instead of a card.
 */
function backdropOf(page: Pick<CardPage, "image">): string | undefined {
  return page.image?.startsWith("/") ? page.image : undefined;
}

/** The card's text: the page's section in the pill, its title, and its description under it (two lines at most). */
export function pageCardText(page: Pick<CardPage, "path" | "title" | "description">, covered?: Coverage): CardText {
  return {
    label: "",
    kicker: lineText(sectionOf(page.path), MAX_SECTION_CHARS, covered),
    ...titleText(page.title, { covered, fallbackTitle: site.company }),
    byline: lineText(page.description, MAX_DESCRIPTION_CHARS, covered),
    bylineMaxLines: 2,
  };
}

export function pageCardSource(page: CardPage): CardSource {
  return {
    kind: "page",
    id: page.id,
    fields: [page.path, page.title, page.description],
    image: backdropOf(page),
    text: (covered) => pageCardText(page, covered),
  };
}

/**
 * The image a page's meta tags name: its card (absolute once the site's URL is known), unless the
 * editor picked an image elsewhere (an https address), which is named as it is.
 */
export function pageShareImage(page: CardPage): PageImage | string {
  if (page.image && !backdropOf(page)) return page.image;
  // No dash: a character past Latin-1 anywhere in a document makes it a two-byte string for every
  // step that reads it after the render (about a millisecond more per render of a page without one).
  return { url: pageCardPath(page.id), ...CARD_SIZE, alt: `${page.title}, ${site.company}` };
}

const CARD_FILE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.png$/;

/**
 * The card of the page whose id `file` names (`<id>.png`, lower case): 200 with the PNG, 304 when
 * the client holds it, 404 for a malformed name or a page visitors cannot see (a draft, an
 * unpublished or unknown page), 503 when the database fails. What visitors see now is drawn: a
 * scheduled version once its time has come.
 */
export async function pageCardResponse(request: Request, file: string, requestId?: string): Promise<Response> {
  const id = CARD_FILE.exec(file)?.[1];
  if (!id) return cardNotFound();
  let page: PublishedPage | undefined;
  try {
    page = await findPublishedPageById(getDb(), id);
  } catch (error) {
    logger.error({ requestId, err: error, pageId: id }, "page card could not be read");
    return cardUnavailable();
  }
  if (!page) return cardNotFound();
  return cardResponse(request, pageCardSource(page), requestId);
}
