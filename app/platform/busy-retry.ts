// A client-side navigation that meets a busy server (503, ./server/load-shedding) asks once more
// after the server's Retry-After (at most MAX_WAIT_MS) before the router shows its error screen:
// a moment's overload should cost a visitor a pause, not an error page. Only the router's data
// requests (GET of `*.data` on this site) are asked again; form posts never are.

const MAX_WAIT_MS = 2_000;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function isNavigationData(input: RequestInfo | URL, init: RequestInit | undefined, origin: string): boolean {
  const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
  if (method !== "GET") return false;
  const url = new URL(input instanceof Request ? input.url : String(input), origin);
  return url.origin === origin && url.pathname.endsWith(".data");
}

/** `fetchOnce` with one more try for a navigation's data answered 503 by the site at `origin`. */
export function retryingBusyNavigations(fetchOnce: typeof fetch, origin: string, wait = pause): typeof fetch {
  return async (input, init) => {
    const response = await fetchOnce(input, init);
    if (response.status !== 503 || !isNavigationData(input, init, origin)) return response;
    const seconds = Number(response.headers.get("retry-after"));
    await response.body?.cancel();
    await wait(Math.min(MAX_WAIT_MS, Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000));
    return fetchOnce(input, init);
  };
}
