import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { retryingBusyNavigations } from "~/lib/busy-retry";

// The router fetches a page's data with the window's fetch: give it one retry on a busy server.
window.fetch = retryingBusyNavigations(window.fetch.bind(window), window.location.origin);

// Hydrated in a task of its own, after any input that came in while the modules were evaluated: the
// browser answers that input itself (a menu opens, a field takes focus) instead of React first
// hydrating, in the same task, the part of the page it landed on.
setTimeout(() => {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
});
