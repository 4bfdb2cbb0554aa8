import { data } from "react-router";
import type { Route } from "./+types/company.careers.position";
import { CareerApplication } from "~/features/leads/components/career-application";
import { ClosedPosition, PositionArticle, PositionLoadError } from "~/features/careers/components/position-page";
import { POSITION_TEXT_KEYS } from "~/features/careers/careers-texts";
import { loadPositionPage } from "~/features/careers/position-page.server";
import { formRouteHeaders } from "~/features/leads/forms/headers";
import { applicationTexts } from "~/features/leads/forms/form-texts.server";
import { submitForm } from "~/features/leads/forms/submit.server";
import { loadPage } from "~/features/pages/page-loader.server";
import { pageRouteMeta, pageShouldRevalidate } from "~/features/pages/page-meta";
import { PageView } from "~/features/pages/page-view";
import { GonePage } from "~/features/redirects/components/gone-page";
import { NotFound } from "~/ui/not-found";
import { routeLocale } from "~/features/i18n/request-locale.server";
import { localizedSitePath, routeTexts } from "~/features/i18n/shell.server";

// A position's page, /company/careers/<slug>: the position visitors see there (open, or closed:
// 410), with the application form that names it. Where no position is public at the slug, the
// address is the pages' as any other (a page of blocks, a redirect, 410 or 404). In another
// language, under its careers page (/de/unternehmen/karriere/<slug>): that language's positions.

export async function loader(args: Route.LoaderArgs) {
  const locale = routeLocale(args.request);
  const language = locale.prefix ? { careers: localizedSitePath("/company/careers", locale), tag: locale.tag } : undefined;
  const page = await loadPositionPage(args.params.slug, args.context, language);
  if (!page) return loadPage(args);
  // The page's and the application form's words, in the page's language.
  const position = page.data.state === "open" ? { ...page.data.position, open: true } : null;
  return data(
    { ...page.data, texts: routeTexts(locale, POSITION_TEXT_KEYS), applicationTexts: applicationTexts(args.request, position) },
    page.init ?? undefined,
  );
}

/** The application form posts to the position's own URL → career_applications, naming the position. */
export async function action({ request, context }: Route.ActionArgs) {
  return submitForm("career-application", { request, context });
}

export const headers = formRouteHeaders;

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageRouteMeta(matches, loaderData);

export const shouldRevalidate = pageShouldRevalidate;

export default function PositionPage({ loaderData }: Route.ComponentProps) {
  if (!("kind" in loaderData)) {
    if (loaderData.state === "not-found") return <NotFound />;
    if (loaderData.state === "gone") return <GonePage />;
    return <PageView segments={loaderData.segments} insights={loaderData.insights} />;
  }
  const { texts } = loaderData;
  if (loaderData.state === "failed") return <PositionLoadError texts={texts} />;
  if (loaderData.state === "closed")
    return <ClosedPosition title={loaderData.position.title} open={loaderData.open} texts={texts} />;
  const { position } = loaderData;
  return (
    <PositionArticle
      position={position}
      descriptionHtml={loaderData.descriptionHtml}
      texts={texts}
      application={
        <CareerApplication
          texts={loaderData.applicationTexts}
          position={{ id: position.id, title: position.title, open: true }}
        />
      }
    />
  );
}
