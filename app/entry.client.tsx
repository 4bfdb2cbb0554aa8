import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { retryingBusyNavigations } from "~/platform/busy-retry";

// The router fetches a page's data with the window's fetch: give it one retry on a busy server.
window.fetch = retryingBusyNavigations(window.fetch.bind(window), window.location.origin);

function hydrate() {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
}

// Everything on a public page answers without JavaScript (a menu opens, a link is followed, a form
// posts), so a public page hydrates in a task of its own: a press that came in while the modules were
// evaluated is answered by the browser first, instead of React first hydrating, within that press,
// the part of the page it landed on. The back office's controls need React: React takes such a press.
// (isBackOfficePath, written out: importing it would add a chunk to every page's first load.)
if (/^\/admin(\/|$)/.test(window.location.pathname)) hydrate();
else setTimeout(hydrate);
