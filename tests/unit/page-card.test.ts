import { describe, expect, it } from "vitest";
import {
  MAX_DESCRIPTION_CHARS,
  pageCardPath,
  pageCardSource,
  pageCardText,
  pageShareImage,
  sectionOf,
} from "~/features/pages/page-card.server";
import { pagePathProblem } from "~/features/pages/page-editor.server";
import { pageRouteMeta } from "~/features/pages/page-meta";
import { cardVersion } from "~/features/social-cards/cards.server";
import { coverageFromUnicodeRanges } from "~/features/social-cards/layout";

// A page's social card: what it draws of the page, when it is a new version, what the page's meta
// tags say of it, and the address no page may take.

const ID = "3f2b8c1e-5d4a-4b6f-9c2d-1e0f7a8b9c0d";
const about = {
  id: ID,
  path: "/company/about",
  title: "About Us",
  description: "Why Quorvant was founded in 2024, the team behind Sentinel, and the mission, vision and values that guide us.",
};
const graphemeCount = (value: string) => [...new Intl.Segmenter("en", { granularity: "grapheme" }).segment(value)].length;

describe("a page's card text", () => {
  it("shows the page's section, title and description", () => {
    expect(pageCardText(about)).toMatchObject({
      label: "",
      kicker: "Company",
      title: "About Us",
      byline: about.description,
      bylineMaxLines: 2,
    });
  });

  it("takes the section from the path's first segment, none for a top-level page", () => {
    expect(sectionOf("/")).toBe("");
    expect(sectionOf("/community")).toBe("");
    expect(sectionOf("/products/sentinel")).toBe("Products");
    expect(sectionOf("/financial-services/retail-banks")).toBe("Financial services");
  });

  it("shortens a long description at a word, and falls back to the company's name for an undrawable title", () => {
    const long = pageCardText({ ...about, description: "Governance for every model in production. ".repeat(20) });
    expect(graphemeCount(long.byline)).toBeLessThanOrEqual(MAX_DESCRIPTION_CHARS);
    expect(long.byline.endsWith("…")).toBe(true);
    const latinOnly = coverageFromUnicodeRanges(["U+0000-00FF"]);
    expect(pageCardText({ ...about, title: "שלום עולם" }, latinOnly).title).toBe("Quorvant");
  });
});

describe("a page's card version", () => {
  const version = (page: Partial<Parameters<typeof pageCardSource>[0]>) => cardVersion(pageCardSource({ ...about, ...page }));

  it("changes with what the card draws, and with nothing else", () => {
    const base = version({});
    expect(version({})).toBe(base);
    for (const change of [
      { title: "About Quorvant" },
      { description: "Something else." },
      { path: "/about" },
      { image: "/images/photos/aurora-over-ridge.jpg" },
      { id: "0d9c8b7a-f0e1-4d2c-8b6f-4a5d1e8c2b3f" },
    ])
      expect(version(change), JSON.stringify(change)).not.toBe(base);
    // An image elsewhere is never drawn: the card is the same as without one.
    expect(version({ image: "https://cdn.example.com/card.png" })).toBe(base);
    // Fields the card does not show (the blocks, noindex) are no part of it.
    expect(cardVersion(pageCardSource({ ...about, noindex: true, blocks: [] } as never))).toBe(base);
  });
});

describe("a page's meta tags", () => {
  const matches = [{ id: "root", data: { siteUrl: "https://quorvant.com" } }];
  const tags = (image?: string) =>
    pageRouteMeta(matches, {
      state: "loaded",
      meta: { ...about, image: pageShareImage({ ...about, image }), noindex: false, feeds: false, jsonLd: [] },
    });
  const value = (list: ReturnType<typeof tags>, key: string) =>
    list.find((tag) => ("property" in tag && tag.property === key) || ("name" in tag && tag.name === key)) as
      { content: string } | undefined;

  it("name the page's card, its size and text alternative, as a large summary card", () => {
    for (const image of [undefined, "/media/3f2b8c1e-5d4a-4b6f-9c2d-1e0f7a8b9c0d/team.jpg"]) {
      const list = tags(image);
      const card = `https://quorvant.com/social-cards/pages/${ID}.png`;
      expect(pageCardPath(ID)).toBe(`/social-cards/pages/${ID}.png`);
      expect(value(list, "og:image")?.content).toBe(card);
      expect(value(list, "twitter:image")?.content).toBe(card);
      expect(value(list, "og:image:width")?.content).toBe("1200");
      expect(value(list, "og:image:height")?.content).toBe("630");
      expect(value(list, "og:image:alt")?.content).toBe("About Us, Quorvant");
      expect(value(list, "twitter:image:alt")?.content).toBe("About Us, Quorvant");
      expect(value(list, "twitter:card")?.content).toBe("summary_large_image");
    }
  });

  it("name an image elsewhere that the editor picked as it is", () => {
    const list = tags("https://cdn.example.com/card.png");
    expect(value(list, "og:image")?.content).toBe("https://cdn.example.com/card.png");
    expect(value(list, "og:image:width")).toBeUndefined();
  });
});

describe("the cards' addresses", () => {
  it("are not free for a page", async () => {
    for (const path of ["/social-cards", "/social-cards/pages", `/social-cards/pages/${ID}.png`, "/social-cards/anything"])
      expect(await pagePathProblem(undefined as never, path), path).toMatch(/not free.*\/social-cards/);
    expect(await pagePathProblem(undefined as never, "/social")).toBeUndefined();
  });
});
