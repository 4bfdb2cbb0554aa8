import type { Route } from "./+types/page-card";
import { pageCardResponse } from "~/features/pages/page-card.server";

// A page's social card (og:image): a 1200×630 PNG of its section, title and description, at
// /social-cards/pages/<page id>.png.
export function loader({ request, params, context }: Route.LoaderArgs) {
  return pageCardResponse(request, params.file, context.requestId);
}
