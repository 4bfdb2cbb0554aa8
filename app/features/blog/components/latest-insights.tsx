import { Suspense } from "react";
import { Await } from "react-router";
import { BlogLoadError, InsightsLoading, InsightsSection } from "~/features/blog/components/blog-states";
import { FeaturedPostCard, PostCard } from "~/features/blog/components/post-card";
import { ButtonLink } from "~/ui/button";
import {
  HOME_VIEW_ALL_THRESHOLD,
  POST_IMAGE_SIZES,
  type LatestInsights as LatestInsightsData,
  type LatestInsightsTexts,
} from "~/features/blog/posts";
import type { StreamedLoad } from "~/platform/load-result";

/** The home page's Latest Insights block: streams in, so the rest of the page never waits for it. */
export function LatestInsights({
  insights,
  texts,
}: {
  insights: StreamedLoad<LatestInsightsData>;
  /** Its words and blog link in the page's language (the server's catalogs: it always sends them). */
  texts?: LatestInsightsTexts;
}) {
  if (!texts) return null;
  return (
    <InsightsSection title={texts.title} intro={texts.intro}>
      {insights instanceof Promise ? (
        <Suspense fallback={<InsightsLoading text={texts.loading} />}>
          <Await resolve={insights} errorElement={<BlogLoadError text={texts.error} />}>
            {(data) => <InsightsContent data={data} texts={texts} />}
          </Await>
        </Suspense>
      ) : insights.state === "loaded" ? (
        // Data that arrived in time renders outside any Suspense boundary: React would otherwise
        // stream a large completed boundary separately, which needs JavaScript to reveal.
        <InsightsContent data={insights.value} texts={texts} />
      ) : (
        <BlogLoadError text={texts.error} />
      )}
    </InsightsSection>
  );
}

function InsightsContent({ data, texts }: { data: LatestInsightsData; texts: LatestInsightsTexts }) {
  if (!data.featured) return <p className="text-muted">{texts.empty}</p>;
  return (
    <>
      {/* The largest image near the top of the page: fetched first. */}
      <FeaturedPostCard post={data.featured} priority />
      {data.others.length ? (
        <ul className="mt-8 grid gap-6 md:grid-cols-2">
          {data.others.map((post) => (
            <li key={post.id}>
              <PostCard post={post} sizes={POST_IMAGE_SIZES.homeCard} />
            </li>
          ))}
        </ul>
      ) : null}
      {data.total > HOME_VIEW_ALL_THRESHOLD ? (
        <div className="mt-10 text-center">
          <ButtonLink to={texts.blogPath} variant="secondary">
            {texts.viewAll}
          </ButtonLink>
        </div>
      ) : null}
    </>
  );
}
