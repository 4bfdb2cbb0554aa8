import { lineText, titleText, type Coverage } from "~/features/social-cards/layout";
import { formatLongDate } from "~/platform/dates";

// What a post's social card says: its title, category, author and date, through the rules every
// card's text follows (~/features/social-cards/layout, re-exported here with the post's own caps).

export {
  MAX_TITLE_CHARS,
  MAX_WORD_CHARS,
  TITLE_STEPS,
  breakLongWords,
  clampText,
  cleanText,
  coverageFromUnicodeRanges,
  type Coverage,
} from "~/features/social-cards/layout";

/** Hard caps in characters (graphemes): beyond them nothing could be read on the card anyway. */
export const MAX_CATEGORY_CHARS = 32;
export const MAX_AUTHOR_CHARS = 48;

export type PostCardText = {
  title: string;
  category: string;
  author: string;
  /** "March 5, 2025" ("5. März 2025" on a German post's), or "" when the stored date does not parse. */
  date: string;
  titleFontSize: number;
  titleMaxLines: number;
};

export type CardPost = { title: string; category: string; author: string; published_date: string };

/**
 * The card's texts, cleaned and clamped, and the title's size. A title with nothing drawable left
 * (one written wholly in a script the fonts lack) is replaced by `fallbackTitle`. The date is
 * written in the post's language (`locale`), as its page writes it.
 */
export function cardText(
  post: CardPost,
  { covered, fallbackTitle, locale = "en" }: { covered?: Coverage; fallbackTitle: string; locale?: string },
): PostCardText {
  return {
    ...titleText(post.title, { covered, fallbackTitle }),
    category: lineText(post.category, MAX_CATEGORY_CHARS, covered),
    author: lineText(post.author, MAX_AUTHOR_CHARS, covered),
    date: formatLongDate(post.published_date, locale),
  };
}
