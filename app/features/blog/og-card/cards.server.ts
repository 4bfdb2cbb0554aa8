import { site } from "~/config/site";
import { FETCH_FAILED } from "~/features/blog/posts.server";
import { getDb } from "~/db/index.server";
import { findPublishedPostCard, type BlogPostCard } from "~/features/blog/db/posts.server";
import { cardText } from "~/features/blog/og-card/layout";
import { cardNotFound, cardResponse, cardUnavailable, type CardSource } from "~/features/social-cards/cards.server";
import { logger } from "~/platform/logger.server";

// A post's social card over HTTP. Each request reads the post's card fields (a few short columns,
// so an edit shows at once); the shared card machinery (~/features/social-cards) renders the PNG
// (the post's image, when it has one of this site, under its text) once per version and keeps it.

/** What the card draws of a post: "Sentinel Blog", its category, title, author and date (in the post's language, `locale`). */
export function postCardSource(post: BlogPostCard, locale = "en"): CardSource {
  return {
    kind: "post",
    id: post.id,
    // The language writes the date: a card drawn in another is another version.
    fields: [post.title, post.category, post.author, post.published_date, locale],
    image: post.image_url,
    text: (covered) => {
      const text = cardText(post, { covered, fallbackTitle: `${site.company} Blog`, locale });
      return {
        label: `${site.product.name} Blog`,
        kicker: text.category,
        title: text.title,
        titleFontSize: text.titleFontSize,
        titleMaxLines: text.titleMaxLines,
        byline: [text.author, text.date].filter(Boolean).join("  ·  "),
        bylineMaxLines: 1,
      };
    },
  };
}

/**
 * The card of the published post named by `slugOrId` (slug first, then id, like its page): 200
 * with the PNG, 304 when the client holds it, 404 for a draft or an unknown post, 503 when the
 * database fails, 500 when rendering fails. The query string plays no part.
 */
export async function postCardResponse(request: Request, slugOrId: string, requestId?: string, locale = "en"): Promise<Response> {
  let post: BlogPostCard | undefined;
  try {
    post = await findPublishedPostCard(getDb(), slugOrId, locale);
  } catch (error) {
    logger.error({ requestId, err: error, what: "post card" }, FETCH_FAILED);
    return cardUnavailable();
  }
  if (!post) return cardNotFound();
  return cardResponse(request, postCardSource(post, locale), requestId);
}
