import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream, type RenderToPipeableStreamOptions } from "react-dom/server";
import { ServerRouter, type AppLoadContext, type EntryContext, type HandleErrorFunction } from "react-router";
import stylesheet from "~/app.css?inline";
import stylesheetUrl from "~/app.css?url";
import iconSprite from "~/assets/icons.svg?raw";
import iconSpriteUrl from "~/assets/icons.svg?url";
import { isBackOfficePath } from "~/platform/back-office-path";
import { DocumentHtmlProvider, ICON_SPRITE, STYLESHEET } from "~/platform/document-html";
import { logger } from "~/platform/logger.server";
import { logSafeUrl } from "~/platform/log-safe-url";
import { pageCut, pageCutStream } from "~/platform/page-cut-stream.server";
import { pageIcons } from "~/platform/page-icons.server";
import { pageStylesheets } from "~/platform/page-stylesheet.server";
import { scriptsAfterFirstPaint, type Hydration } from "~/features/site/script-priority.server";
import { NonceProvider } from "~/platform/nonce";

export const streamTimeout = 5_000;

/** Parsed when the server starts, not in a visitor's request. */
const icons = pageIcons(iconSprite);
const cutToPage = pageCut(pageStylesheets(stylesheet), icons);

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce;
  // The stylesheet goes in the head and the icons' symbols in the body: first paint waits for no
  // other request. A public page's copies are cut to the rules and symbols it uses
  // (~/platform/page-stylesheet.server, ~/platform/page-icons.server); the browser keeps the copies in the page.
  const documentHtml = new Map(loadContext.documentHtml).set(STYLESHEET, stylesheet).set(ICON_SPRITE, icons.all);

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    // Crawlers get the whole document at once; people get the shell first, then streamed data.
    const userAgent = request.headers.get("user-agent");
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";

    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <DocumentHtmlProvider value={documentHtml}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </DocumentHtmlProvider>
      </NonceProvider>,
      {
        nonce,
        // A boundary that is complete when it is sent goes inline, whatever its size. React would
        // otherwise send a large one (the page's <main>, app/ui/site-frame.tsx) separately
        // behind a script that reveals it: a page unseen without JavaScript.
        progressiveChunkSize: Infinity,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          // This render carries a per-request nonce: it is for this visitor only. The page cache
          // serves a shareable copy (script hashes instead of the nonce) to everyone else.
          if (!responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", "private, no-cache");
          const hydration = hydrationOf(request, responseStatusCode);
          const html = scriptsAfterFirstPaint(hydration, { stylesheetUrl, iconSpriteUrl });
          html.pipe(body);
          // A page that hydrates at the first input carries only the styles and icons it uses until then.
          if (hydration === "on-first-input") pipe(pageCutStream(cutToPage)).pipe(html);
          else pipe(html);
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) logRenderError(error, loadContext);
        },
      },
    );
  });
}

/**
 * A public page hydrates on the visitor's first input; the back office, an application that is
 * nothing without its scripts, and error pages (a 404 reports its path to the console) as soon as
 * they are drawn.
 */
function hydrationOf(request: Request, status: number): Hydration {
  return isBackOfficePath(new URL(request.url).pathname) || status >= 400 ? "after-first-frame" : "on-first-input";
}

/** Loader, action and render errors: one JSON line with the request id; never shown to visitors. */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  logRenderError(error, context, request);
};

function logRenderError(error: unknown, context: AppLoadContext | undefined, request?: Request) {
  const url = request ? new URL(request.url) : undefined;
  logger.error(
    { requestId: context?.requestId, url: url && logSafeUrl(url.pathname + url.search), err: error },
    "request failed",
  );
}
