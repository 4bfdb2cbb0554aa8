import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { staticPaths } from "~/config/site";
import { describeProblem, internalLinksOf } from "~/features/pages/blocks/registry.server";
import { PAGES_DIR, readPageFiles } from "~/features/pages/page-source.server";
import { failed } from "~/platform/load-result";

// The sample pages (content/pages/*.yaml): each validates, and each links only to pages that exist.

const PAGE_PATHS = [
  "/",
  "/products/sentinel",
  "/company/about",
  "/company/careers",
  "/company/brand",
  "/company/charter",
  "/resources",
  "/resources/documentation",
  "/resources/support",
  "/resources/api",
  "/community",
  "/terms/legal",
  "/terms/trust-transparency",
];

describe("content/pages", () => {
  const files = readPageFiles(PAGES_DIR);

  it("holds every page of the site once", () => {
    expect(files.map((file) => file.path).sort()).toEqual([...PAGE_PATHS].sort());
  });

  for (const file of files) {
    it(`${path.basename(file.file)} validates and links only to pages of the site`, () => {
      expect(file.result.ok ? [] : file.result.problems.map(describeProblem)).toEqual([]);
      if (!file.result.ok) return;
      for (const block of file.result.page.blocks)
        for (const link of internalLinksOf(block))
          expect(staticPaths as readonly string[], `${block.type} → ${link}`).toContain(link);
    });
  }

  it("a file with a bad block is refused with the block's field named", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "pages-"));
    writeFileSync(
      path.join(dir, "bad.yaml"),
      "path: /bad\ntitle: Bad\ndescription: A page with a bad block.\nblocks:\n  - type: item-grid\n    title: Features\n    items:\n      - icon: skull\n        title: One\n",
    );
    writeFileSync(path.join(dir, "broken.yaml"), "path: [unclosed\n");
    const [bad, broken] = readPageFiles(dir);
    expect(bad).toMatchObject({ path: "/bad", result: { ok: false, problems: [{ path: "blocks.0.items.0.icon" }] } });
    expect(broken).toMatchObject({ path: undefined, result: { ok: false } });
  });
});

describe("the page loader", () => {
  it("answers a page whose content fails its schema with the error state (500), not the page", async () => {
    vi.resetModules();
    vi.doMock("~/features/pages/page-source.server", () => ({
      loadPublishedPage: async () => failed(500, "The page's content is not valid."),
    }));
    const { loadPage } = await import("~/features/pages/page-loader.server");
    const context = { documentRequest: false, documentHtml: new Map(), requestId: "test" } as never;
    const result = (await loadPage({ request: new Request("http://localhost/company/about"), context })) as unknown as {
      data: { state: string; segments: { html?: string }[]; meta: unknown };
      init: { status: number };
    };
    expect(result.init.status).toBe(500);
    expect(result.data.meta).toBeNull();
    expect(result.data.segments[0]!.html).toContain("Error Loading Page");
    expect(result.data.segments[0]!.html).toContain('role="alert"');
    vi.doUnmock("~/features/pages/page-source.server");
  });
});
