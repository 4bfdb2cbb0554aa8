import { failed, loaded, type LoadResult, type StreamedLoad } from "~/platform/load-result";

/**
 * Streaming needs JavaScript: React reveals streamed content with an inline script. So data that
 * arrives within a short grace period is sent inline with the page (visitors without JavaScript
 * see it too); only slower data streams behind its loading state. A quick failure is sent as a
 * value the page renders as its error text; a slow one rejects into the <Await> errorElement.
 * Pages render a settled value outside any Suspense boundary: React streams a large completed
 * boundary separately ("outlining"), which would again need JavaScript to show.
 */
export async function inlineIfQuick<T>(promise: Promise<T>, graceMs = 100): Promise<{ data: StreamedLoad<T> }> {
  const pending = Symbol("pending");
  let timer: ReturnType<typeof setTimeout> | undefined;
  const winner = await Promise.race([
    promise.then(loaded, (): LoadResult<T> => failed()),
    new Promise<typeof pending>((resolve) => (timer = setTimeout(() => resolve(pending), graceMs))),
  ]);
  clearTimeout(timer);
  return { data: winner === pending ? promise : winner };
}
