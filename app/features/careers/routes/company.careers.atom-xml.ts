import type { Route } from "./+types/company.careers.atom-xml";
import { positionsAtomResponse } from "~/features/careers/position-feeds.server";
import { dependsOn } from "~/features/cdn/shared-cache.server";
import { POSITION_LIST_KEY } from "~/features/cdn/surrogate-keys";

// Atom 1.0 of the open positions of the address's language, newest first (under each language's careers page).
export function loader({ request, context }: Route.LoaderArgs) {
  dependsOn(context, POSITION_LIST_KEY);
  return positionsAtomResponse(request);
}
