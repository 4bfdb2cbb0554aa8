import { positionsAtomResponse } from "~/features/careers/position-feeds.server";

// Atom 1.0 of the open positions, newest first.
export function loader() {
  return positionsAtomResponse();
}
