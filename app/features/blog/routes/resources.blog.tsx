import { Suspense } from "react";
import { Await, Link, redirect } from "react-router";
import type { Route } from "./+types/resources.blog";
import { BlogListSkeleton, BlogLoadError } from "~/features/blog/components/blog-states";
import { FeaturedPostCard, PostCard } from "~/features/blog/components/post-card";
import { ButtonLink, buttonClasses } from "~/ui/button";
import { PageHero } from "~/ui/section";
import { site } from "~/config/site";
import { BLOG_PATH, blogListPath, type BlogList, type BlogListQuery } from "~/features/blog/posts";
import { loadBlogList, parseBlogListQuery, publishedCategory } from "~/features/blog/posts.server";
import { blogPathOf } from "~/features/blog/blog-paths.server";
import { routeLocale } from "~/features/i18n/request-locale.server";
import { inlineIfQuick } from "~/platform/streaming.server";
import { pageMeta } from "~/features/site/seo";
import { textsOf } from "~/ui/route-texts";
import { routeTexts } from "~/features/i18n/shell.server";
import { BLOG_LIST_TEXT_KEYS, type BlogListTexts } from "~/features/blog/blog-texts";
import { dependsOn } from "~/features/cdn/shared-cache.server";
import { POST_LIST_KEY } from "~/features/cdn/surrogate-keys";

// The blog's list in each language the site has (/resources/blog, /de/ressourcen/blog): that
// language's posts only, in its words.

export async function loader({ request, context }: Route.LoaderArgs) {
  const locale = routeLocale(request);
  dependsOn(context, POST_LIST_KEY);
  const blog = blogPathOf(locale.tag);
  const url = new URL(request.url);
  let query = parseBlogListQuery(url);
  // A category no published post has, or spelled otherwise (" Guides"), leads to the list it
  // means: the All view, or the category as written; one address per list. When the database
  // cannot say, the address stays (a retry may show the category) and the page names none.
  const given = url.searchParams.get("category");
  if (given !== null) {
    const category = await publishedCategory(query.category, context.requestId, locale.tag).catch(() => null);
    if (category === null) query = { ...query, category: undefined };
    else if (given !== (category ?? "")) throw redirect(blogListPath({ category, page: query.page }, blog), 302);
  }
  // Slow posts stream: the page shell is sent with its skeleton while they load.
  const { data: list } = await inlineIfQuick(loadBlogList(query, context.requestId, locale.tag));
  return { query, list, blog, texts: routeTexts(locale, BLOG_LIST_TEXT_KEYS) };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  const t = textsOf(loaderData?.texts);
  const query = loaderData?.query;
  const blog = loaderData?.blog ?? BLOG_PATH;
  const filtered = query?.category ? ` — ${query.category}` : "";
  const paged = query && query.page > 1 ? ` ${t("shell.blog.metaPage", { page: query.page })}` : "";
  return pageMeta(matches, {
    title: `${t("shell.blog.title")}${filtered}${paged}`,
    description: t("shell.blog.metaDescription", { company: site.company, product: site.product.name }),
    path: query ? blogListPath(query, blog) : blog,
    feeds: { category: query?.category },
  });
};

export default function BlogPage({ loaderData }: Route.ComponentProps) {
  const { query, list, blog, texts } = loaderData;
  const t = textsOf(texts);
  return (
    <>
      <PageHero eyebrow={t("shell.blog.eyebrow")} title={t("shell.blog.title")}>
        {t("shell.blog.intro")}
      </PageHero>
      <div className="mx-auto max-w-6xl px-4 pb-16 sm:px-6">
        {list instanceof Promise ? (
          <Suspense fallback={<BlogListSkeleton />}>
            <Await resolve={list} errorElement={<BlogLoadError retry />}>
              {(data) => <BlogListContent data={data} query={query} blog={blog} texts={texts} />}
            </Await>
          </Suspense>
        ) : list.state === "loaded" ? (
          // Arrived in time: rendered inline, outside a Suspense boundary (see inlineIfQuick).
          <BlogListContent data={list.value} query={query} blog={blog} texts={texts} />
        ) : (
          <BlogLoadError retry />
        )}
        <Newsletter texts={texts} />
      </div>
    </>
  );
}

function BlogListContent({
  data,
  query,
  blog,
  texts,
}: {
  data: BlogList;
  query: BlogListQuery;
  blog: string;
  texts: BlogListTexts;
}) {
  const t = textsOf(texts);
  const showFeatured = data.featured && query.page === 1;
  return (
    <>
      {showFeatured ? (
        <section aria-labelledby="featured-heading" className="mb-12">
          <h2 id="featured-heading" className="sr-only">
            {t("shell.blog.featuredHeading")}
          </h2>
          <FeaturedPostCard post={data.featured!} priority />
        </section>
      ) : null}
      <section aria-labelledby="articles-heading">
        <h2 id="articles-heading" className="text-2xl font-bold tracking-tight">
          {query.category ? t("shell.blog.categoryArticles", { category: query.category }) : t("shell.blog.allArticles")}
        </h2>
        <CategoryChips categories={data.categories} selected={query.category} blog={blog} texts={texts} />
        {data.posts.length ? (
          <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {data.posts.map((post, index) => (
              <li key={post.id}>
                {/* Above the fold when there is no featured post: load the first image at once. */}
                <PostCard post={post} priority={!showFeatured && index === 0} />
              </li>
            ))}
          </ul>
        ) : (
          <div className="mt-8 rounded-2xl border border-dashed border-slate-300 p-10 text-center">
            <p className="text-muted">{t("shell.blog.empty")}</p>
            <ButtonLink to={blog} variant="secondary" className="mt-4">
              {t("shell.blog.viewAll")}
            </ButtonLink>
          </div>
        )}
        <Pagination query={query} pageCount={data.pageCount} blog={blog} texts={texts} />
      </section>
    </>
  );
}

/** Links, not buttons: the chosen category lives in the URL, works without JavaScript and can be shared. */
function CategoryChips({
  categories,
  selected,
  blog,
  texts,
}: {
  categories: string[];
  selected?: string;
  blog: string;
  texts: BlogListTexts;
}) {
  const t = textsOf(texts);
  const chips = [
    { label: t("shell.blog.allCategories"), category: undefined },
    ...categories.map((category) => ({ label: category, category })),
  ];
  return (
    <nav aria-label={t("shell.blog.categories")} className="mt-4">
      <ul className="flex flex-wrap gap-2">
        {chips.map((chip) => {
          const current = chip.category === selected;
          return (
            <li key={chip.label}>
              <Link
                to={blogListPath({ category: chip.category }, blog)}
                aria-current={current ? "page" : undefined}
                preventScrollReset
                className={`inline-block rounded-full border px-4 py-1.5 text-sm font-medium ${
                  current
                    ? "border-brand-700 bg-brand-700 text-white"
                    : "border-slate-300 bg-white text-ink hover:border-brand-600"
                }`}
              >
                {chip.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function Pagination({
  query,
  pageCount,
  blog,
  texts,
}: {
  query: BlogListQuery;
  pageCount: number;
  blog: string;
  texts: BlogListTexts;
}) {
  const t = textsOf(texts);
  if (pageCount <= 1 && query.page === 1) return null;
  const previous =
    query.page > 1 ? blogListPath({ category: query.category, page: Math.min(query.page - 1, pageCount) }, blog) : undefined;
  const next = query.page < pageCount ? blogListPath({ category: query.category, page: query.page + 1 }, blog) : undefined;
  return (
    <nav aria-label={t("shell.blog.pagination")} className="mt-10 flex items-center justify-between gap-4">
      {previous ? (
        <Link to={previous} rel="prev" className={buttonClasses("secondary")}>
          {t("shell.blog.previousPage")}
        </Link>
      ) : (
        <span />
      )}
      <p className="text-sm text-muted">{t("shell.blog.pageOf", { page: query.page, pageCount })}</p>
      {next ? (
        <Link to={next} rel="next" className={buttonClasses("secondary")}>
          {t("shell.blog.nextPage")}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}

/** The Subscribe button deliberately does nothing (no newsletter service yet). */
function Newsletter({ texts }: { texts: BlogListTexts }) {
  const t = textsOf(texts);
  return (
    <section aria-labelledby="newsletter-heading" className="mt-16 rounded-2xl bg-brand-900 p-8 text-white sm:p-12">
      <h2 id="newsletter-heading" className="text-2xl font-bold tracking-tight">
        {t("shell.blog.newsletterHeading")}
      </h2>
      <p className="mt-2 text-brand-100">{t("shell.blog.newsletterText", { company: site.company })}</p>
      <div className="mt-6 flex max-w-xl flex-col gap-3 sm:flex-row">
        <label htmlFor="newsletter-email" className="sr-only">
          {t("shell.blog.emailLabel")}
        </label>
        <input
          id="newsletter-email"
          type="email"
          name="email"
          autoComplete="email"
          placeholder={t("shell.blog.emailPlaceholder")}
          className="flex-1 rounded-lg border border-white/30 bg-white px-4 py-2.5 text-ink placeholder:text-slate-500"
        />
        <button type="button" className={buttonClasses("inverse")}>
          {t("shell.blog.subscribe")}
        </button>
      </div>
    </section>
  );
}
