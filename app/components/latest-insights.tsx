import { Suspense, type ReactNode } from "react";
import { Await } from "react-router";
import { BlogLoadError, InsightsLoading } from "~/components/blog-states";
import { FeaturedPostCard, PostCard } from "~/components/post-card";
import { ButtonLink } from "~/components/ui/button";
import { Section } from "~/components/ui/section";
import { site } from "~/config/site";
import { BLOG_PATH, HOME_VIEW_ALL_THRESHOLD, isLoadFailed, type LatestInsights as LatestInsightsData, type Loaded } from "~/lib/blog";

function InsightsSection({ children }: { children: ReactNode }) {
  return (
    <Section
      id="latest-insights"
      title="Latest Insights"
      intro="Research, guidance and product news on keeping enterprise AI secure, compliant and under your control."
    >
      {children}
    </Section>
  );
}

/** The home page's blog block (SPEC.md §2): streams in, so the rest of the page never waits for it. */
export function LatestInsights({ insights }: { insights: Loaded<LatestInsightsData> | Promise<LatestInsightsData> }) {
  return (
    <InsightsSection>
      {insights instanceof Promise ? (
        <Suspense fallback={<InsightsLoading />}>
          <Await resolve={insights} errorElement={<BlogLoadError />}>
            {(data) => <InsightsContent data={data} />}
          </Await>
        </Suspense>
      ) : isLoadFailed(insights) ? (
        <BlogLoadError />
      ) : (
        // Data that arrived in time renders outside any Suspense boundary: React would otherwise
        // stream a large completed boundary separately, which needs JavaScript to reveal.
        <InsightsContent data={insights} />
      )}
    </InsightsSection>
  );
}

/** What the home page shows while a client-side navigation to it waits for data. */
export function LatestInsightsPending() {
  return (
    <>
      {/* The page's own hero replaces this as soon as the data arrives; its h1 keeps the outline whole. */}
      <h1 className="sr-only">{site.headline}</h1>
      <InsightsSection>
        <InsightsLoading />
      </InsightsSection>
    </>
  );
}

function InsightsContent({ data }: { data: LatestInsightsData }) {
  if (!data.featured) return <p className="text-muted">No articles have been published yet.</p>;
  return (
    <>
      <FeaturedPostCard post={data.featured} />
      {data.others.length ? (
        <ul className="mt-8 grid gap-6 md:grid-cols-2">
          {data.others.map((post) => (
            <li key={post.id}>
              <PostCard post={post} />
            </li>
          ))}
        </ul>
      ) : null}
      {data.total > HOME_VIEW_ALL_THRESHOLD ? (
        <div className="mt-10 text-center">
          <ButtonLink to={BLOG_PATH} variant="secondary">
            View All Articles
          </ButtonLink>
        </div>
      ) : null}
    </>
  );
}
