import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadContent } from "~/features/content/content-files.server";
import { internalLinksOf } from "~/features/pages/blocks/registry.server";
import { isSitePath, markupLinks } from "~/features/pages/blocks/fields.server";
import { validatePageDocument } from "~/features/pages/page-document.server";
import { checkPageFiles, readPageFiles } from "~/features/pages/page-documents.server";
import { LOCALIZED_FILES, LOCALIZED_ROUTES, type LocalizedRouteName } from "~/features/i18n/route-paths";
import { localizedPath } from "~/features/i18n/route-paths.server";
import type { PageSnapshot } from "~/features/content/content-types";

// The German sample content (content/pages/de, content/posts/de): every page and post links, on this
// site, only to German addresses that exist: a German page or post, or a route's German address.

const GERMAN = { tag: "de", prefix: "/de" };
const CONTENT = path.resolve("content");

function germanContent() {
  const pages = checkPageFiles(readPageFiles(path.join(CONTENT, "pages"), CONTENT, { translations: true }).files).pages.filter(
    (entry) => entry.page.path.startsWith("/de"),
  );
  const posts = loadContent(CONTENT).posts.filter((entry) => entry.value.locale === "de");
  return { pages, posts };
}

/** Where German visitors can go: the German pages and posts, and every route's German address. */
function germanAddresses(pages: readonly PageSnapshot[], postSlugs: readonly string[]): Set<string> {
  const blog = localizedPath("blog", GERMAN);
  return new Set([
    ...pages.map((page) => page.path),
    ...postSlugs.map((slug) => `${blog}/${slug}`),
    ...(Object.keys(LOCALIZED_ROUTES) as LocalizedRouteName[]).map((name) => localizedPath(name, GERMAN)),
    ...LOCALIZED_FILES.map((file) => `${GERMAN.prefix}/${file.path}`),
  ]);
}

/** Each link of a page's blocks, or of a post's text, to this site that leads to no German address. */
function brokenLinks(
  pages: readonly { file: string; page: PageSnapshot }[],
  posts: readonly { path: string; content: string }[],
  addresses: ReadonlySet<string>,
): string[] {
  const broken: string[] = [];
  for (const { file, page } of pages) {
    const checked = validatePageDocument(page);
    if (!checked.ok) {
      broken.push(`${file}: does not validate`);
      continue;
    }
    for (const block of checked.page.blocks)
      for (const link of internalLinksOf(block)) if (!addresses.has(link)) broken.push(`${file}: ${block.type} → ${link}`);
  }
  for (const post of posts)
    for (const href of markupLinks(post.content).filter(isSitePath)) {
      const link = href.replace(/[?#].*$/, "") || "/";
      if (!addresses.has(link)) broken.push(`${post.path}: → ${link}`);
    }
  return broken;
}

describe("the German sample content", () => {
  const { pages, posts } = germanContent();
  const addresses = germanAddresses(
    pages.map((entry) => entry.page),
    posts.map((entry) => entry.value.slug!),
  );

  it("has a German translation of every English page, and three German posts", () => {
    const english = readPageFiles(path.join(CONTENT, "pages")).files.map((file) => (file.value as { path: string }).path);
    expect(pages.map((entry) => entry.translationOf).sort()).toEqual([...english].sort());
    expect(posts.map((entry) => entry.value.translation_of).sort()).toEqual([
      "ai-governance-operating-model",
      "data-residency-for-ai-workloads",
      "eu-ai-act-readiness-checklist",
    ]);
  });

  it("links only to German addresses of the site", () => {
    expect(addresses).toContain("/de/ressourcen/blog");
    expect(
      brokenLinks(
        pages,
        posts.map((entry) => ({ path: entry.path, content: entry.value.content })),
        addresses,
      ),
    ).toEqual([]);
  });

  it("reports a link to an English address or to no German page", () => {
    const home = pages.find((entry) => entry.page.path === "/de")!;
    const page: PageSnapshot = {
      ...home.page,
      blocks: [
        {
          type: "cta-band",
          title: "Jetzt testen",
          intro: "Lesen Sie [den Leitfaden](/de/leitfaeden/fehlt).",
          actions: [{ label: "Demo anfordern", href: "/request-demo", style: "primary" }],
        },
      ],
    };
    const post = {
      path: "posts/de/x.md",
      content: "Siehe [Produkt](/products/sentinel#features) und [Blog](/de/ressourcen/blog).",
    };
    expect(brokenLinks([{ file: "pages/de/x.yaml", page }], [post], addresses).sort()).toEqual(
      [
        "pages/de/x.yaml: cta-band → /request-demo",
        "pages/de/x.yaml: cta-band → /de/leitfaeden/fehlt",
        "posts/de/x.md: → /products/sentinel",
      ].sort(),
    );
  });
});
