import { data } from "react-router";
import type { Route } from "./+types/page-with-application";
import { getDb } from "~/db/index.server";
import { applicationPositionOf } from "~/features/careers/positions.server";
import { loadOpenPositionsBoard } from "~/features/careers/position-page.server";
import { positionFeedAlternates } from "~/features/careers/position-feed-paths.server";
import { OpenPositions } from "~/features/careers/components/open-positions";
import { CareerApplication } from "~/features/leads/components/career-application";
import { NotFound } from "~/ui/not-found";
import { GonePage } from "~/features/redirects/components/gone-page";
import { pageRouteMeta, pageShouldRevalidate } from "~/features/pages/page-meta";
import { loadPage } from "~/features/pages/page-loader.server";
import { PageView } from "~/features/pages/page-view";
import { formRouteHeaders } from "~/features/leads/forms/headers";
import { applicationTexts } from "~/features/leads/forms/form-texts.server";
import { submitForm } from "~/features/leads/forms/submit.server";
import { routeLocale } from "~/features/i18n/request-locale.server";
import { routeTexts } from "~/features/i18n/shell.server";
import { CAREERS_TEXT_KEYS } from "~/features/careers/careers-texts";
import { dependsOn } from "~/features/cdn/shared-cache.server";
import { POSITION_LIST_KEY } from "~/features/cdn/surrogate-keys";

// The careers page: a page of blocks like the others (~/features/pages/routes/page), whose hero
// holds the "Join Our Team" application. A module of its own so that the form's code (Conform,
// Zod) reaches this page only, never the first load of the other pages. In each language the site
// has (/de/unternehmen/karriere), it is that language's page document and positions.

export async function loader(args: Route.LoaderArgs) {
  const locale = routeLocale(args.request);
  // Opened from a position's page without JavaScript: the form names and carries the position.
  const url = new URL(args.request.url);
  const requested = url.searchParams.get("position");
  dependsOn(args.context, POSITION_LIST_KEY);
  const [page, position, positions] = await Promise.all([
    loadPage(args),
    applicationPositionOf(getDb(), requested).catch(() => (requested ? { id: requested, title: "", open: false } : null)),
    loadOpenPositionsBoard(args.context, url, locale.tag),
  ]);
  // The page lists the open positions of its language: it advertises that language's feeds.
  const meta = page.data.meta && { ...page.data.meta, alternateFeeds: positionFeedAlternates(locale.tag) };
  const texts = routeTexts(locale, CAREERS_TEXT_KEYS);
  return data(
    { ...page.data, meta, position, positions, texts, applicationTexts: applicationTexts(args.request, position) },
    page.init ?? undefined,
  );
}

/** The form posts to the page's own URL (so its utm_* parameters are recorded) → career_applications. */
export async function action({ request, context }: Route.ActionArgs) {
  return submitForm("career-application", { request, context });
}

export const headers = formRouteHeaders;

export const meta: Route.MetaFunction = ({ matches, data }) => pageRouteMeta(matches, data);

export const shouldRevalidate = pageShouldRevalidate;

export default function PageWithApplication({ loaderData }: Route.ComponentProps) {
  if (loaderData.state === "not-found") return <NotFound />;
  if (loaderData.state === "gone") return <GonePage />;
  return (
    <>
      <PageView
        segments={loaderData.segments}
        insights={loaderData.insights}
        application={<CareerApplication texts={loaderData.applicationTexts} position={loaderData.position ?? undefined} />}
      />
      {/* The open positions, after the page's blocks (where the roles' grid was). */}
      <OpenPositions board={loaderData.positions} texts={loaderData.texts} />
    </>
  );
}
