import { createContext, useContext, useState, type ReactNode } from "react";

// Large server-rendered HTML (a post's article) belongs in the document once. A loader hands it to
// the renderer through the request's load context instead of returning it as data, so the router's
// hydration data does not carry a second copy; in the browser, hydration reuses the markup already
// in the page. A client-side navigation gets the HTML as loader data, its only copy.

const DocumentHtml = createContext<ReadonlyMap<string, string>>(new Map());

export function DocumentHtmlProvider({ value, children }: { value: ReadonlyMap<string, string>; children: ReactNode }) {
  return <DocumentHtml.Provider value={value}>{children}</DocumentHtml.Provider>;
}

/** The element holding the HTML named `id`. */
export const documentHtmlElementId = (id: string) => `document-html-${id}`;

/** The site's stylesheet, inlined in every document's head by the server renderer. */
export const STYLESHEET = "stylesheet";

/** The icon sprite's symbols, in every document's body (app/platform/page-icons.server.ts). */
export const ICON_SPRITE = "icons";

/**
 * Marks an inline stylesheet cut to its page's own rules (app/platform/page-stylesheet.server.ts), or
 * the icon sprite cut to its page's own symbols (app/platform/page-icons.server.ts).
 */
export const PAGE_ONLY_ATTRIBUTE = "data-page-only";

/**
 * The HTML named `id`: from loader data when it came that way (client navigation), else the
 * server's copy while rendering the document, else, when hydrating, the markup already in the page.
 */
export function useDocumentHtml(id: string, fromLoader: string | undefined): string {
  const fromServer = useContext(DocumentHtml).get(id);
  const [inPage] = useState(() =>
    typeof document === "undefined" ? undefined : document.getElementById(documentHtmlElementId(id))?.innerHTML,
  );
  return fromLoader ?? fromServer ?? inPage ?? "";
}
