import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { retryingBusyNavigations } from "~/lib/busy-retry";

// The router fetches a page's data with the window's fetch: give it one retry on a busy server.
window.fetch = retryingBusyNavigations(window.fetch.bind(window), window.location.origin);

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter />
    </StrictMode>,
  );
});
