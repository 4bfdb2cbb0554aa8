import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { AppLoadContext } from "react-router";
import { ConsoleIllustration } from "~/features/pages/components/console-illustration";
import { HowItWorks } from "~/features/pages/components/deployment-diagram";
import type { VisualName } from "~/features/pages/components/document-visual";
import { ProofPoints } from "~/features/pages/components/proof-points";
import { carriedByDocument } from "~/platform/document-html.server";

// The visuals are static: drawn once per server, then carried by each document's markup (or, on a
// client-side navigation, by the loader's data), never by the page's JavaScript.

const drawings: Record<VisualName, () => ReactElement> = {
  "sentinel-console": () => <ConsoleIllustration />,
  "how-it-works": () => <HowItWorks />,
  "proof-points": () => <ProofPoints />,
};

const drawn = new Map<VisualName, string>();

/** A visual's markup, drawn once per server (a page's blocks carry it inside their own markup). */
export function visualMarkup(name: VisualName): string {
  let html = drawn.get(name);
  if (html === undefined) {
    html = renderToStaticMarkup(drawings[name]());
    drawn.set(name, html);
  }
  return html;
}

/** For a loader: the named visuals' markup, as `<DocumentVisual>` expects it (carried once: ~/platform/document-html.server). */
export function visuals<Name extends VisualName>(context: AppLoadContext, ...names: Name[]): Record<Name, string | undefined> {
  return Object.fromEntries(names.map((name) => [name, carriedByDocument(context, name, visualMarkup(name))])) as Record<
    Name,
    string | undefined
  >;
}
