import type { LatestInsightsTexts } from "~/features/blog/posts";
import { localePrefix } from "~/features/content/document-locale";
import { localizedPath } from "~/features/i18n/route-paths.server";
import { catalogMessage } from "~/features/i18n/messages.server";

/** The Latest Insights block's words and blog link in `locale`, from the catalogs (block.latestInsights.*). */
export function latestInsightsTexts(locale: string): LatestInsightsTexts {
  const m = (key: string) => catalogMessage(locale, `block.latestInsights.${key}`);
  return {
    title: m("title"),
    intro: m("intro"),
    loading: m("loading"),
    error: m("error"),
    empty: m("empty"),
    viewAll: m("viewAll"),
    blogPath: localizedPath("blog", { tag: locale, prefix: localePrefix(locale) }),
    cards: {
      locale,
      featured: m("featured"),
      readArticle: m("readArticle"),
      minRead: catalogMessage(locale, "block.latestInsights.minRead", { count: "{count}" }),
    },
  };
}
