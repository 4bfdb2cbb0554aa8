import { useEffect, type ReactNode } from "react";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useLocation,
  useMatches,
  useNavigation,
  useRouteLoaderData,
  type ShouldRevalidateFunctionArgs,
} from "react-router";
import type { Route } from "./+types/root";
import { NotFound } from "~/ui/not-found";
import { pendingStateFor } from "~/features/site/pending-states";
import { SiteFrame } from "~/ui/site-frame";
import { documentHtmlElementId, ICON_SPRITE, STYLESHEET, useDocumentHtml } from "~/platform/document-html";
import { getEnv } from "~/env.server";
import { useNonce } from "~/platform/nonce";
import { currentVisit } from "~/features/leads/visit-memory";
import { isBackOfficePath } from "~/platform/back-office-path";
import { organizationJsonLd } from "~/features/site/seo";
import { frameNavigation } from "~/features/navigation/navigation.server";
import type { SiteNavigation } from "~/config/site";
import { localeOfPath, type SiteLocale } from "~/features/i18n/site-locales";
import { loadPageLanguages } from "~/features/i18n/page-languages.server";
import type { PageLanguages } from "~/platform/page-languages";
import { LanguageLinks } from "~/features/i18n/components/language-links";
import { LanguageSuggestion } from "~/features/i18n/components/language-suggestion";
import { getDb } from "~/db/index.server";
import { requestLocale } from "~/features/i18n/request-locale.server";
import { shellData } from "~/features/i18n/shell.server";
import { useShellText, type ShellData } from "~/ui/shell-text";
import { dependsOn } from "~/features/cdn/shared-cache.server";
import { NAV_KEY } from "~/features/cdn/surrogate-keys";

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export async function loader({ request, context }: Route.LoaderArgs): Promise<{
  siteUrl: string;
  navigation: SiteNavigation;
  locales?: SiteLocale[];
  languages?: PageLanguages;
  shell: ShellData;
}> {
  // SITE_URL and the site's languages are the only configuration the browser ever sees, the
  // languages only when the site is not in English alone. The menus (edited or the code's own) and
  // the frame's texts come in the page's language (~/ui/shell-text): they are in no page's JavaScript.
  const { SITE_URL: siteUrl, SITE_LOCALES: locales } = getEnv();
  // The page's language (an address under a language the site does not publish: the default's).
  const { locale } = requestLocale(request, locales);
  const navigation = await frameNavigation(locale);
  dependsOn(context, NAV_KEY);
  const shell = shellData(locale);
  const multilingual = locales.length > 1 || locales[0]!.tag !== "en";
  const frame = { siteUrl, navigation, shell };
  if (!multilingual) return frame;
  // The page's versions in the other languages: its head's alternates, the switcher, the suggestion.
  const { pathname } = new URL(request.url);
  const languages = isBackOfficePath(pathname) ? undefined : await loadPageLanguages(getDb(), pathname, locales);
  return { ...frame, locales, ...(languages ? { languages } : {}) };
}

/**
 * The root's data is the deployment's configuration, but its request is also how a client-side
 * navigation to a page without a loader of its own reaches the server (and is counted as a view):
 * it is fetched again on every other navigation and after a submission. Only a change of query on
 * the same page (the careers form's `apply`) fetches nothing: it completes at once, so opening
 * and closing the form cannot race a request, and it is no new view.
 */
export function shouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (!formMethod && currentUrl.pathname === nextUrl.pathname && currentUrl.search !== nextUrl.search) return false;
  return defaultShouldRevalidate;
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const data = useRouteLoaderData<typeof loader>("root");
  const stylesheet = useDocumentHtml(STYLESHEET, undefined);
  const iconSymbols = useDocumentHtml(ICON_SPRITE, undefined);
  // The back office draws its own frame: none of the public header, navigation or footer.
  const backOffice = useMatches().some((match) => (match.handle as { backOffice?: boolean } | undefined)?.backOffice);
  // The page's language is its address's: /de/… is German (the back office is English).
  const { pathname } = useLocation();
  const lang = data?.locales && !backOffice ? localeOfPath(pathname, data.locales).tag : "en";
  return (
    <html lang={lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#2540b5" />
        <Meta />
        {/* Inline, so nothing blocks the first paint (app/entry.server.tsx); style-src allows it. */}
        <style id={documentHtmlElementId(STYLESHEET)} dangerouslySetInnerHTML={{ __html: stylesheet }} />
        <Links />
        {data?.languages && !backOffice ? <LanguageLinks languages={data.languages} siteUrl={data.siteUrl} /> : null}
        <script
          type="application/ld+json"
          // JSON-LD is data, not script; "<" is escaped so content can never close the tag.
          dangerouslySetInnerHTML={{ __html: JSON.stringify(organizationJsonLd(data?.siteUrl ?? "")).replace(/</g, "\\u003c") }}
        />
      </head>
      <body className="flex min-h-screen flex-col font-sans antialiased">
        {/* The symbols every <Icon> draws, in the page so they are drawn with it (app/platform/page-icons.server.ts).
            Hidden, and of no size should the stylesheet not apply. */}
        <svg
          id={documentHtmlElementId(ICON_SPRITE)}
          className="hidden"
          width={0}
          height={0}
          dangerouslySetInnerHTML={{ __html: iconSymbols }}
        />
        {backOffice ? children : <SiteFrame navigation={data?.navigation}>{children}</SiteFrame>}
        {data?.languages && !backOffice ? <LanguageSuggestion /> : null}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  // A client-side navigation still waiting for data shows the destination's loading state at once.
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const { links } = useShellText();
  // The visit starts on whichever public page comes first; forms send it with a lead.
  useEffect(() => {
    if (!isBackOfficePath(pathname)) currentVisit();
    // Only the page the tab opened on: later pages never replace it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const Pending = navigation.state === "loading" ? pendingStateFor(navigation.location.pathname, links) : undefined;
  return Pending ? <Pending /> : <Outlet />;
}

/** Anything a route throws lands here: 404s get the not-found page, everything else one generic line. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useShellText();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  return (
    <div className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="text-3xl font-bold">{t("error.title")}</h1>
      <p className="mt-4 text-muted">{isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : t("error.text")}</p>
    </div>
  );
}
