// What every social card (og:image) shares, for code that may reach the browser (meta tags): its
// size and the first segment of the addresses of the cards that live apart from their page.

/** 1200×630: the size social networks show as a large picture. */
export const CARD_SIZE = { width: 1200, height: 630 } as const;

/** Cards served under their own address (a page's: /social-cards/pages/<id>.png); no page may live under it. */
export const SOCIAL_CARDS_PATH = "/social-cards";
