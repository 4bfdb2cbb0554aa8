// What a page's data loader found: the one shape for the blog, a post and the legal documents.
// It travels to the browser, so it is plain data.

export type LoadResult<T> =
  | { state: "loaded"; value: T }
  | { state: "not-found" }
  /** The data could not be read (503), or was read but is unusable (500, with the reason to show). */
  | { state: "failed"; status: 500 | 503; reason?: string };

export const loaded = <T>(value: T): LoadResult<T> => ({ state: "loaded", value });
export const notFound = (): LoadResult<never> => ({ state: "not-found" });
export const failed = (status: 500 | 503 = 503, reason?: string): LoadResult<never> =>
  reason ? { state: "failed", status, reason } : { state: "failed", status };

/** The HTTP status a page answers with for a result, so monitors and crawlers see what happened. */
export function statusOf(result: LoadResult<unknown>): number {
  if (result.state === "loaded") return 200;
  return result.state === "not-found" ? 404 : result.status;
}

/**
 * Data that arrived before the page was sent (rendered inline: loaded, or the error text), or that
 * is still on its way (streamed behind the loading state; a rejection shows the error).
 */
export type StreamedLoad<T> = LoadResult<T> | Promise<T>;
