import type { Route } from "./+types/admin.posts.new";
import { PageHeading } from "~/ui/admin/page-heading";
import { PostEditor } from "~/features/blog/admin/post-editor";
import { site } from "~/config/site";
import { requireAdminForm, requireRole } from "~/features/auth/auth.server";
import { requireLocale } from "~/features/auth/locales.server";
import { CATALOGS, SOURCE_LOCALE } from "~/features/i18n/messages.server";
import { editorPageData, postEditorAction } from "~/features/blog/post-editor-page.server";

// A new post (editors): the same editor as a post's page; the first save creates the post and
// leads to its page.

export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireRole(request, "editor");
  return editorPageData(request, undefined, user);
}

export async function action({ request, context }: Route.ActionArgs) {
  const submitted = await requireAdminForm(request, "editor");
  // A new post is English unless its form names another language.
  const named = String(submitted.form.get("locale") ?? "");
  requireLocale(submitted.user, CATALOGS.has(named) ? named : SOURCE_LOCALE);
  return postEditorAction(submitted, context, undefined);
}

export const meta: Route.MetaFunction = () => [{ title: `New post | ${site.company} back office` }];

export default function NewPost({ loaderData, actionData }: Route.ComponentProps) {
  const page = { ...loaderData, ...actionData };
  return (
    <>
      <PageHeading title="New post">Save it as a draft, publish it now or schedule it.</PageHeading>
      <PostEditor key={loaderData.values.timeZone} {...page} />
    </>
  );
}
