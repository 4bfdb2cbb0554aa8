import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { AppLoadContext } from "react-router";
import { ConsoleIllustration } from "~/features/pages/components/console-illustration";
import { HowItWorks } from "~/features/pages/components/deployment-diagram";
import type { VisualName } from "~/features/pages/components/document-visual";
import { ProofPoints } from "~/features/pages/components/proof-points";
import { consoleCopy, howItWorksCopy, proofPointsCopy } from "~/features/pages/components/visual-copy.server";
import { carriedByDocument } from "~/platform/document-html.server";

// The visuals are static: drawn once per server, then carried by each document's markup (or, on a
// client-side navigation, by the loader's data), never by the page's JavaScript.

// Each drawn in a page's language: its words come from the message catalogs.
const drawings: Record<VisualName, (locale: string) => ReactElement> = {
  "sentinel-console": (locale) => <ConsoleIllustration {...consoleCopy(locale)} />,
  "how-it-works": (locale) => <HowItWorks {...howItWorksCopy(locale)} />,
  "proof-points": (locale) => <ProofPoints copy={proofPointsCopy(locale)} />,
};

const drawn = new Map<string, string>();

/** A visual's markup in `locale`, drawn once per server (a page's blocks carry it inside their own markup). */
export function visualMarkup(name: VisualName, locale = "en"): string {
  const key = `${locale}\u0000${name}`;
  let html = drawn.get(key);
  if (html === undefined) {
    html = renderToStaticMarkup(drawings[name](locale));
    drawn.set(key, html);
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
