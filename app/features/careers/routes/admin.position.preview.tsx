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
import { POSITION_TEXT_KEYS } from "~/features/careers/careers-texts";
import { routeTexts } from "~/features/i18n/shell.server";

// A position's saved draft as visitors will see it, in the public site's frame, without the
// application form (nobody applies to a draft).

/** The back office's layout draws the public frame around this page instead of its own. */
export const handle = { publicFrame: true };

export async function loader({ request, params }: Route.LoaderArgs) {
  const { user } = await requireRole(request, POSITION_ROLE);
  await requireContentLocale(user, "document", params.positionId);
  const position = await findPositionForEditor(getDb(), params.positionId);
  if (!position) throw data({ message: "There is no such position." }, { status: 404 });
  // In the position's language, as its page will be.
  return {
    ...positionDraftView(position.draft, position.id, position.locale),
    texts: routeTexts({ tag: position.locale }, POSITION_TEXT_KEYS),
  };
}

export const meta: Route.MetaFunction = ({ data: loaded }) => [
  { title: `Preview: ${loaded?.position.title ?? "position"} | ${site.company} back office` },
  { name: "robots", content: "noindex, nofollow" },
];

export default function PositionPreview({ loaderData }: Route.ComponentProps) {
  return (
    <PositionArticle
      position={loaderData.position}
      descriptionHtml={loaderData.descriptionHtml}
      texts={loaderData.texts}
      application={null}
      preview
    />
  );
}
