import { data } from "react-router";
import type { Route } from "./+types/admin.position.preview";
import { site } from "~/config/site";
import { requireRole } from "~/features/auth/auth.server";
import { requireContentLocale } from "~/features/auth/locales.server";
import { getDb } from "~/db/index.server";
import { PositionArticle } from "~/features/careers/components/position-page";
import { findPositionForEditor } from "~/features/careers/position-documents.server";
import { POSITION_ROLE } from "~/features/careers/position-editor.server";
import { positionDraftView } from "~/features/careers/position-page.server";

// A position's saved draft as visitors will see it, in the public site's frame, without the
// application form (nobody applies to a draft).

/** The back office's layout draws the public frame around this page instead of its own. */
export const handle = { publicFrame: true };

export async function loader({ request, params }: Route.LoaderArgs) {
  const { user } = await requireRole(request, POSITION_ROLE);
  await requireContentLocale(user, "document", params.positionId);
  const position = await findPositionForEditor(getDb(), params.positionId);
  if (!position) throw data({ message: "There is no such position." }, { status: 404 });
  return positionDraftView(position.draft, position.id);
}

export const meta: Route.MetaFunction = ({ data: loaded }) => [
  { title: `Preview: ${loaded?.position.title ?? "position"} | ${site.company} back office` },
  { name: "robots", content: "noindex, nofollow" },
];

export default function PositionPreview({ loaderData }: Route.ComponentProps) {
  return (
    <PositionArticle position={loaderData.position} descriptionHtml={loaderData.descriptionHtml} application={null} preview />
  );
}
