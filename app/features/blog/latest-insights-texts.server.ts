import type { LatestInsightsTexts } from "~/features/blog/posts";
import { localePrefix } from "~/features/content/document-locale";
import { localizedPath } from "~/features/i18n/route-paths.server";
import { catalogMessage } from "~/features/i18n/messages.server";

/**
 * The Latest Insights block's words and blog link in `locale`, from the catalogs
 * (block.latestInsights.*; its title, intro and loading line are the frame's shell.insights.*, which
 * the home page's loading state shows too).
 */
export function latestInsightsTexts(locale: string): LatestInsightsTexts {
  const m = (key: string) => catalogMessage(locale, `block.latestInsights.${key}`);
  const shell = (key: string) => catalogMessage(locale, `shell.insights.${key}`);
  return {
    title: shell("title"),
    intro: shell("intro"),
    loading: shell("loading"),
    error: m("error"),
    empty: m("empty"),
    viewAll: m("viewAll"),
    blogPath: localizedPath("blog", { tag: locale, prefix: localePrefix(locale) }),
  };
}
