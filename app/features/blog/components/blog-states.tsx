import type { ReactNode } from "react";
import { useLocation } from "react-router";
import { Button } from "~/ui/button";
import { PageHero, Section } from "~/ui/section";
import { BLOG_SKELETON_COUNT } from "~/features/blog/posts";
import { keptQuery } from "~/features/site/query-params";
import { useShellText } from "~/ui/shell-text";

/** Home block while its posts stream in: "Loading our latest articles...". */
export function InsightsLoading({ text }: { text: string }) {
  return (
    <div
      aria-busy="true"
      aria-live="polite"
      className="rounded-2xl border border-dashed border-slate-300 p-10 text-center text-muted"
    >
      <p>{text}</p>
    </div>
  );
}

/** Blog list while its posts stream in: exactly six placeholder cards. */
export function BlogListSkeleton() {
  const { t } = useShellText();
  return (
    <div aria-busy="true" aria-live="polite">
      <p className="sr-only">{t("blog.loading")}</p>
      <ul aria-label={t("blog.loadingList")} className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {Array.from({ length: BLOG_SKELETON_COUNT }, (_, index) => (
          <li key={index} className="overflow-hidden rounded-2xl border border-slate-200 bg-white motion-safe:animate-pulse">
            <div className="aspect-video bg-slate-200" />
            <div className="space-y-3 p-6">
              <div className="h-3 w-1/4 rounded bg-slate-200" />
              <div className="h-5 w-3/4 rounded bg-slate-200" />
              <div className="h-4 rounded bg-slate-100" />
              <div className="h-4 w-5/6 rounded bg-slate-100" />
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The load failure text; the blog list adds a Retry button that reloads the page. */
export function BlogLoadError({ retry = false, text }: { retry?: boolean; text?: string }) {
  const { t } = useShellText();
  return (
    <div role="alert" className="rounded-2xl border border-red-200 bg-red-50 p-8 text-center">
      <p className="text-red-800">{text ?? t("blog.loadError")}</p>
      {retry ? <RetryButton /> : null}
    </div>
  );
}

/**
 * Reloads the page. Without JavaScript the same button submits a GET form to the current URL,
 * which is a reload too.
 */
function RetryButton() {
  const location = useLocation();
  const { t } = useShellText();
  const params = [...new URLSearchParams(keptQuery(location.pathname, location.search))];
  return (
    <form
      method="get"
      action={location.pathname}
      className="mt-4"
      onSubmit={(event) => {
        event.preventDefault();
        window.location.reload();
      }}
    >
      {params.map(([name, value], index) => (
        <input key={`${name}-${index}`} type="hidden" name={name} value={value} />
      ))}
      <Button type="submit" variant="secondary">
        {t("blog.retry")}
      </Button>
    </form>
  );
}

/** The home page's Latest Insights section around whatever state it is in. */
export function InsightsSection({ children, title, intro }: { children: ReactNode; title: string; intro: string }) {
  return (
    <Section id="latest-insights" title={title} intro={intro}>
      {children}
    </Section>
  );
}

/** What the home page shows while a client-side navigation to it waits for data, in the frame's language. */
export function LatestInsightsPending() {
  const { t } = useShellText();
  return (
    <>
      {/* The page's own hero replaces this as soon as the data arrives; its h1 keeps the outline whole. */}
      <h1 className="sr-only">{t("home.headline")}</h1>
      <InsightsSection title={t("insights.title")} intro={t("insights.intro")}>
        <InsightsLoading text={t("insights.loading")} />
      </InsightsSection>
    </>
  );
}

/** What the blog list shows while a client-side navigation to it waits for data. */
export function BlogListPending() {
  const { t } = useShellText();
  return (
    <>
      <PageHero eyebrow={t("blog.eyebrow")} title={t("blog.title")} />
      <div className="mx-auto max-w-6xl px-4 pb-16 sm:px-6">
        <BlogListSkeleton />
      </div>
    </>
  );
}
