import type { AppLoadContext } from "react-router";

/**
 * For a loader: large server-rendered HTML named `id`, carried once. On a whole-document request
 * it goes to the renderer through the load context (~/platform/document-html) and the loader returns
 * none, so the router's hydration data carries no second copy; a client-side navigation gets it
 * as data, its only copy.
 */
export function carriedByDocument(context: AppLoadContext, id: string, html: string): string | undefined {
  if (!context.documentRequest) return html;
  context.documentHtml.set(id, html);
  return undefined;
}
