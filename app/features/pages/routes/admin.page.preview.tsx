import { data } from "react-router";
import type { Route } from "./+types/admin.page.preview";
import { site } from "~/config/site";
import { requireRole } from "~/features/auth/auth.server";
import { requireContentLocale } from "~/features/auth/locales.server";
import { getDb } from "~/db/index.server";
import { findPageForEditor } from "~/features/pages/page-documents.server";
import { renderPagePreview, type PageDraft } from "~/features/pages/page-editor.server";

// A page's saved draft as visitors will see it: the public site's frame and the public renderer's
// blocks, for the editor's preview pane. The editor puts a freshly drawn version of the form's
// blocks into #page-preview-blocks as the editor types (./admin.pages.live-preview).

/** The back office's layout draws the public frame around this page instead of its own. */
export const handle = { publicFrame: true };

export async function loader({ request, params }: Route.LoaderArgs) {
  const { user } = await requireRole(request, "editor");
  await requireContentLocale(user, "document", params.pageId);
  const page = await findPageForEditor(getDb(), params.pageId);
  if (!page) throw data({ message: "There is no such page." }, { status: 404 });
  const draft = page.draft as PageDraft;
  return { title: draft.title, ...renderPagePreview(draft) };
}

export const meta: Route.MetaFunction = ({ data: loaded }) => [
  { title: `Preview: ${loaded?.title ?? "page"} | ${site.company} back office` },
  { name: "robots", content: "noindex, nofollow" },
];

export default function PagePreview({ loaderData }: Route.ComponentProps) {
  // Trusted: drawn on the server by the blocks' own views from checked blocks.
  return <div id="page-preview-blocks" dangerouslySetInnerHTML={{ __html: loaderData.html }} />;
}
