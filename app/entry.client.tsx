import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import stylesheetUrl from "~/app.css?url";
import { retryingBusyNavigations } from "~/lib/busy-retry";
import { documentHtmlElementId, PAGE_ONLY_ATTRIBUTE, STYLESHEET } from "~/lib/document-html";

// The router fetches a page's data with the window's fetch: give it one retry on a busy server.
window.fetch = retryingBusyNavigations(window.fetch.bind(window), window.location.origin);

/**
 * A public page's inline stylesheet holds only the rules its own markup uses (app/entry.server.tsx);
 * what renders once hydrated (a validation message, the next page) may need any other. The whole
 * stylesheet, fetched with the page's modules, is in place before React renders anything.
 */
function wholeStylesheet(): Promise<void> {
  if (!document.getElementById(documentHtmlElementId(STYLESHEET))?.hasAttribute(PAGE_ONLY_ATTRIBUTE)) return Promise.resolve();
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = stylesheetUrl;
  return new Promise((resolve) => {
    // A sheet that fails to load leaves the page as it was drawn: hydrating still beats not.
    link.onload = link.onerror = () => resolve();
    document.head.append(link);
  });
}

void wholeStylesheet().then(() =>
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  }),
);
