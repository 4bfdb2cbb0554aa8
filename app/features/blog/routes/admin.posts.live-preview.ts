import type { Route } from "./+types/admin.posts.live-preview";
import { requireAdminForm } from "~/features/auth/auth.server";
import { previewOf } from "~/features/blog/post-editor-page.server";

// The editor's live preview: a post body in, the public renderer's HTML and the markup problems
// out. Editors only; it reads and writes nothing, so it is not audited.

export async function action({ request }: Route.ActionArgs) {
  const { form } = await requireAdminForm(request, "editor");
  const content = String(form.get("content") ?? "");
  const { previewHtml, markupProblems } = await previewOf(content);
  return Response.json({ html: previewHtml, problems: markupProblems }, { headers: { "Cache-Control": "no-store" } });
}
