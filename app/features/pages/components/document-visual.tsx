import { documentHtmlElementId, useDocumentHtml } from "~/platform/document-html";

/** The pictures and bands drawn once on the server (app/features/pages/components/visuals.server.tsx). */
export type VisualName = "sentinel-console" | "how-it-works" | "proof-points";

/**
 * A visual's markup, carried by the document rather than by the page's JavaScript: the first
 * load downloads no code for it, and hydration reuses the markup already in the page. `html`
 * is the loader's copy, present on client-side navigations only.
 */
export function DocumentVisual({ name, html, className }: { name: VisualName; html: string | undefined; className?: string }) {
  const markup = useDocumentHtml(name, html);
  // Trusted: rendered on the server from our own components and content modules.
  return <div id={documentHtmlElementId(name)} className={className} dangerouslySetInnerHTML={{ __html: markup }} />;
}
