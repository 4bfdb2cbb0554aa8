import type { Route } from "./+types/company.careers.atom-xml";
import { positionsAtomResponse } from "~/features/careers/position-feeds.server";

// Atom 1.0 of the open positions of the address's language, newest first (under each language's careers page).
export function loader({ request }: Route.LoaderArgs) {
  return positionsAtomResponse(request);
}
