import type { Route } from "./+types/admin.pages.live-preview";
import { requireAdminForm } from "~/features/auth/auth.server";
import { readPageForm, renderPagePreview } from "~/features/pages/page-editor.server";

// The page editor's live preview: the form's page in, its blocks as the public renderer draws them
// out (a block whose fields do not pass yet is replaced by a note). Editors only; it reads and
// writes nothing, so it is not audited.

export async function action({ request }: Route.ActionArgs) {
  const { form } = await requireAdminForm(request, "editor");
  const { html, problems } = renderPagePreview(readPageForm(form));
  return Response.json({ html, problems }, { headers: { "Cache-Control": "no-store" } });
}
