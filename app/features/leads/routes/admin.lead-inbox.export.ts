import type { Route } from "./+types/admin.lead-inbox.export";
import { exportInbox } from "~/features/leads/pages.server";

// An inbox's current view as CSV (mounted under both lead desks); audited with its filters.

export function loader({ request, context }: Route.LoaderArgs) {
  return exportInbox(request, context);
}
