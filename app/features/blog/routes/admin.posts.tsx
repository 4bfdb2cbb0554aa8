import { data, Form, Link } from "react-router";
import type { Route } from "./+types/admin.posts";
import { Notice, PageHeading } from "~/ui/admin/page-heading";
import { buttonClasses } from "~/ui/button";
import { site } from "~/config/site";
import { requireAdminForm, requireRole } from "~/features/auth/auth.server";
import { canEditLocale } from "~/features/auth/locales.server";
import { formatDateTime } from "~/ui/admin/format";
import { timeZoneOf } from "~/ui/admin/time-zone";
import { isPostState, POST_STATES, postStateOf } from "~/features/blog/post-state";
import { getDb } from "~/db/index.server";
import { listAllCategories, listPostsForEditors } from "~/features/blog/db/post-editing.server";
import { getEnv } from "~/env.server";
import { translationOfCell } from "~/features/content/translation-editor.server";
import { SOURCE_LOCALE } from "~/features/content/document-locale";
import { summarizeTranslations, translationLocales, translationStates } from "~/features/content/translations.server";
import { startTranslationFromList } from "~/features/content/translation-start.server";
import { START_TRANSLATION_INTENT, TranslationsCell } from "~/features/content/admin/translations";

// Posts (editors): every post whatever its state, newest change first, searchable by title and
// narrowed by state and category. The filters are a GET form, so a filtered list is a link. A
// missing translation can be started here, by whoever may edit its language (a translator who may
// not open the English post).

export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireRole(request, "editor");
  const url = new URL(request.url);
  const search = (url.searchParams.get("q") ?? "").trim().slice(0, 200);
  const stateParam = url.searchParams.get("state") ?? "";
  const state = isPostState(stateParam) ? stateParam : undefined;
  const category = (url.searchParams.get("category") ?? "").slice(0, 100);
  const zone = timeZoneOf(request);
  const [posts, categories] = await Promise.all([
    listPostsForEditors(getDb(), { search: search || undefined, state, category: category || undefined }),
    listAllCategories(getDb()),
  ]);
  // Each English post's translations into the site's other languages (none on an English-only site).
  const locales = translationLocales(getEnv().SITE_LOCALES);
  const sources = posts.filter((post) => post.locale === SOURCE_LOCALE && !post.translation_of).map((post) => post.id);
  const translations = await translationStates(getDb(), "post", sources, locales);
  return {
    translating: locales.length > 0,
    posts: posts.map((post) => ({
      translations: summarizeTranslations(translations.get(post.id), (locale) => canEditLocale(user, locale)),
      translationOf: translationOfCell(
        user,
        { locale: post.locale, translationOf: post.translation_of },
        (id) => `/admin/posts/${id}`,
      ),
      id: post.id,
      title: post.title,
      slug: post.slug,
      category: post.category,
      author: post.author,
      featured: post.featured,
      state: POST_STATES[postStateOf(post)],
      publishedDate: formatDateTime(post.published_date, zone),
      updatedAt: formatDateTime(post.updated_at, zone),
    })),
    categories,
    values: { q: search, state: state ?? "", category },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user, form } = await requireAdminForm(request, "editor");
  if (form.get("intent") !== START_TRANSLATION_INTENT) return data({ problem: "Unknown action." }, { status: 400 });
  return startTranslationFromList("post", user, form, { actor: { id: user.id, email: user.email }, ip: context.clientIp });
}

export const meta: Route.MetaFunction = () => [{ title: `Posts | ${site.company} back office` }];

const cell = "border-b border-slate-100 px-3 py-2 text-left align-top";
const control = "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm";

export default function Posts({ loaderData, actionData }: Route.ComponentProps) {
  const { posts, categories, values } = loaderData;
  const problem = (actionData as { problem?: string } | undefined)?.problem;
  const filtered = Boolean(values.q || values.state || values.category);
  return (
    <>
      <PageHeading
        title="Posts"
        actions={
          <Link to="/admin/posts/new" className={buttonClasses()}>
            New post
          </Link>
        }
      >
        Drafts, scheduled and published posts. Times are in your time zone.
      </PageHeading>
      {problem ? <Notice tone="error">{problem}</Notice> : null}
      <Form
        method="get"
        role="search"
        aria-label="Posts"
        className="mb-6 grid gap-4 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-4"
      >
        <div className="sm:col-span-2">
          <label htmlFor="posts-q" className="text-sm font-medium">
            Title contains
          </label>
          <input id="posts-q" name="q" type="search" defaultValue={values.q} maxLength={200} className={control} />
        </div>
        <div>
          <label htmlFor="posts-state" className="text-sm font-medium">
            State
          </label>
          <select id="posts-state" name="state" defaultValue={values.state} className={control}>
            <option value="">Any state</option>
            {Object.entries(POST_STATES).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="posts-category" className="text-sm font-medium">
            Category
          </label>
          <select id="posts-category" name="category" defaultValue={values.category} className={control}>
            <option value="">Any category</option>
            {categories.map((category) => (
              <option key={category}>{category}</option>
            ))}
          </select>
        </div>
        <div className="flex gap-2 sm:col-span-4">
          <button type="submit" className={buttonClasses("secondary")}>
            Show posts
          </button>
          {filtered ? (
            <Link to="/admin/posts" className={buttonClasses("ghost")}>
              Clear filters
            </Link>
          ) : null}
        </div>
      </Form>
      <p className="mb-2 text-sm text-muted" role="status">
        {posts.length} {posts.length === 1 ? "post" : "posts"}
        {filtered ? " match" : ""}
      </p>
      <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
        <table className="w-full text-sm">
          <caption className="sr-only">Posts</caption>
          <thead>
            <tr className="text-muted">
              {[
                "Title",
                "State",
                "Category",
                "Author",
                "Publication date",
                "Last change",
                ...(loaderData.translating ? ["Translations"] : []),
              ].map((heading) => (
                <th key={heading} scope="col" className={cell}>
                  {heading}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {posts.map((post) => (
              <tr key={post.id}>
                <td className={cell}>
                  <Link to={`/admin/posts/${post.id}`} className="font-medium text-brand-700 underline">
                    {post.title}
                  </Link>
                  {post.featured ? (
                    <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900">Featured</span>
                  ) : null}
                  <span className="block text-xs text-muted">{post.slug ? `/${post.slug}` : "linked by its id"}</span>
                </td>
                <td className={cell}>{post.state}</td>
                <td className={cell}>{post.category}</td>
                <td className={cell}>{post.author}</td>
                <td className={cell}>{post.publishedDate}</td>
                <td className={cell}>{post.updatedAt}</td>
                {loaderData.translating ? <TranslationsCell row={post} noun="post" className={cell} /> : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
