import type { HeadersArgs } from "react-router";

/** A form route's answer to a post carries the action's headers (no-store, Retry-After). */
export function formRouteHeaders({ actionHeaders, loaderHeaders }: HeadersArgs) {
  return actionHeaders.has("Cache-Control") ? actionHeaders : loaderHeaders;
}
