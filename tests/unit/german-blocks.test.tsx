import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { LatestInsights } from "~/features/blog/components/latest-insights";
import type { PostSummary } from "~/features/blog/posts";
import { ConsoleIllustration, englishConsoleLabels } from "~/features/pages/components/console-illustration";
import { HowItWorks } from "~/features/pages/components/deployment-diagram";
import { englishProofPoints, ProofPoints } from "~/features/pages/components/proof-points";
import { consoleCopy, howItWorksCopy, proofPointsCopy } from "~/features/pages/components/visual-copy.server";
import { visualMarkup } from "~/features/pages/components/visuals.server";
import { renderBlockHtml, renderSegments, viewEnv } from "~/features/pages/blocks/render.server";
import type { Block } from "~/features/pages/blocks/registry.server";
import { consoleScene } from "~/features/pages/content/sentinel-console";
import { deploymentFlow, sentinelSteps } from "~/features/pages/content/product";
import { CATALOGS } from "~/features/i18n/messages.server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";
import { shellData } from "~/features/i18n/shell.server";

// Blocks whose words are written in code (the proof band, the product pictures, Latest Insights)
// speak the page's language: on a German page none of their English texts or English links is
// left; on an English page they are exactly what they always were.

const en = CATALOGS.get("en")!;
const de = CATALOGS.get("de")!;
const decode = (html: string) =>
  html
    .replaceAll("&amp;", "&")
    .replaceAll("&#x27;", "'")
    .replaceAll("&quot;", '"')
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">");

/** The English block.* texts (of `prefix`) a German page must not show: those German changes (loan words stay). */
const englishTexts = (prefix: string) =>
  Object.entries(en)
    .filter(([key, text]) => key.startsWith(prefix) && !text.includes("{") && !text.startsWith("/"))
    .flatMap(([key, text]) => text.split("|").filter((part) => !de[key]!.split("|").includes(part)));

const german = viewEnv("/de/produkte/sentinel", "");
const blocks: Block[] = [
  { type: "proof-band" },
  { type: "visual", title: "So funktioniert es", visual: "how-it-works" },
  { type: "hero", title: "Sentinel", actions: [], visual: "product-illustration" },
] as unknown as Block[];

describe("blocks with words in code", () => {
  it("draw English pages exactly as before (the English catalog holds today's texts)", () => {
    expect(proofPointsCopy("en")).toEqual(englishProofPoints);
    const console = consoleCopy("en");
    expect(console.scene).toEqual(consoleScene);
    expect({ ...console.labels, detected: console.labels.detected("x") }).toEqual({
      ...englishConsoleLabels,
      detected: englishConsoleLabels.detected("x"),
    });
    expect(howItWorksCopy("en")).toEqual({ flow: deploymentFlow, steps: sentinelSteps });
    expect(visualMarkup("proof-points")).toBe(renderToStaticMarkup(<ProofPoints />));
    expect(visualMarkup("sentinel-console", "en")).toBe(renderToStaticMarkup(<ConsoleIllustration />));
    expect(visualMarkup("how-it-works", "en")).toBe(renderToStaticMarkup(<HowItWorks />));
    expect(viewEnv("/", "").locale).toBe("en");
  });

  it("speak German on a German page, with German links and German numbers", () => {
    expect(german.locale).toBe("de");
    const html = decode(blocks.map((block) => renderBlockHtml(block, german)).join(""));
    for (const text of [
      ...englishTexts("block.proofPoints."),
      ...englishTexts("block.console."),
      ...englishTexts("block.howItWorks."),
    ])
      expect(html, text).not.toContain(text);
    for (const text of [
      "Service, wie veröffentlicht",
      "Rahmenwerke",
      "Live-Prüfung",
      "Erkannt: Bankkontonummer (IBAN)",
      "Ihre Kanäle",
    ])
      expect(html).toContain(text);
    expect(html).toMatch(/99,99\s%/);
    expect(html).toContain("Unter 2 Minuten");
    expect(html).toContain("Konfidenz 0,99");
    expect(html).toContain('href="/de/vertrauen-und-transparenz"');
    expect(html).not.toContain('href="/terms/');
  });

  it("give the Latest Insights block German words and the German blog on a German page", async () => {
    const page = { path: "/de", title: "Start", description: "Start", noindex: false, blocks: [{ type: "latest-insights" }] };
    const [segment] = renderSegments(page as never, "");
    expect(segment?.kind).toBe("latest-insights");
    const texts = segment?.kind === "latest-insights" ? segment.texts : undefined;
    expect(texts?.blogPath).toBe("/de/ressourcen/blog");
    const post = (n: number): PostSummary => ({
      id: `p${n}`,
      href: `/de/ressourcen/blog/beitrag-${n}`,
      title: `Beitrag ${n}`,
      excerpt: "Auszug",
      category: "Sicherheit",
      author: "Ada",
      publishedDate: "2025-01-01T00:00:00.000Z",
      readTime: 3,
      imageUrl: null,
      image: null,
    });
    // Drawn as on a German page: under the root, whose loader sends the frame's German texts.
    const draw = async (value: Parameters<typeof LatestInsights>[0]["insights"]) => {
      const routes = [
        {
          id: "root",
          path: "/*",
          loader: () => ({ shell: shellData({ tag: "de", prefix: "/de" }) }),
          Component: () => <LatestInsights insights={value} texts={texts} />,
        },
      ];
      const handler = createStaticHandler(routes);
      const context = await handler.query(new Request("http://localhost/de"));
      if (context instanceof Response) throw new Error("the root answered with a response");
      const router = createStaticRouter(handler.dataRoutes, context);
      return decode(renderToStaticMarkup(<StaticRouterProvider router={router} context={context} hydrate={false} />));
    };
    const html = await draw({ state: "loaded", value: { featured: post(1), others: [post(2)], total: 9 } });
    for (const text of englishTexts("block.latestInsights.")) expect(html, text).not.toContain(text);
    expect(html).toContain("Neueste Beiträge");
    expect(html).toContain('href="/de/ressourcen/blog"');
    expect(html).toContain("Alle Artikel ansehen");
    for (const text of ["Empfohlen", "Artikel lesen", "3 Min. Lesezeit", "1. Januar 2025"]) expect(html).toContain(text);
    for (const text of ["Featured", "Read Article", "min read", "January"]) expect(html).not.toContain(text);
    expect(await draw({ state: "loaded", value: { featured: null, others: [], total: 0 } })).toContain(
      "Es wurden noch keine Artikel veröffentlicht.",
    );

    const [englishSegment] = renderSegments({ ...page, path: "/" } as never, "");
    expect(englishSegment?.kind === "latest-insights" && englishSegment.texts?.blogPath).toBe("/resources/blog");
  });
});
