import type { PageLanguages } from "~/platform/page-languages";
import { absoluteUrl } from "~/features/site/seo";

/**
 * The head's account of the page's languages: og:locale always (on a site in more than one), and,
 * when the page has a translation, an hreflang alternate per version (itself included) and the
 * default language's version as x-default, with their og:locale:alternate.
 */
export function LanguageLinks({ languages, siteUrl }: { languages: PageLanguages; siteUrl: string }) {
  const byDefault = languages.alternates.find((alternate) => alternate.tag === languages.defaultTag);
  return (
    <>
      <meta property="og:locale" content={languages.openGraphLocale} />
      {languages.alternates
        .filter((alternate) => alternate.tag !== languages.tag)
        .map((alternate) => (
          <meta key={`og-${alternate.tag}`} property="og:locale:alternate" content={alternate.openGraphLocale} />
        ))}
      {languages.alternates.map((alternate) => (
        <link key={alternate.tag} rel="alternate" hrefLang={alternate.tag} href={absoluteUrl(siteUrl, alternate.path)} />
      ))}
      {byDefault ? <link rel="alternate" hrefLang="x-default" href={absoluteUrl(siteUrl, byDefault.path)} /> : null}
    </>
  );
}
