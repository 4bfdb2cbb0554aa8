import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { staticPaths } from "~/config/site";
import { describeProblem, internalLinksOf } from "~/features/pages/blocks/registry.server";
import { validatePageDocument } from "~/features/pages/page-document.server";
import { checkPageFiles, readPageFiles } from "~/features/pages/page-documents.server";
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

/** Each page file of `dir`, parsed and checked by the block registry. */
function checkedFiles(dir: string) {
  const { files, problems } = readPageFiles(dir);
  return [
    ...files.map((file) => {
      const value = file.value as { path?: unknown } | null;
      return {
        file: file.path,
        path: typeof value?.path === "string" ? value.path : undefined,
        result: validatePageDocument(file.value),
      };
    }),
    ...problems.map((problem) => ({ file: problem.path, path: undefined, result: { ok: false as const, problems: [] } })),
  ];
}

describe("content/pages", () => {
  const files = checkedFiles(path.resolve("content", "pages"));

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
    const [bad, broken] = checkedFiles(dir);
    expect(bad).toMatchObject({ path: "/bad", result: { ok: false, problems: [{ path: "blocks.0.items.0.icon" }] } });
    expect(broken).toMatchObject({ path: undefined, result: { ok: false } });
    // The import refuses it too, naming the file and the field, and writes nothing.
    expect(checkPageFiles(readPageFiles(dir).files).problems).toContainEqual(
      expect.objectContaining({ path: "bad.yaml", field: "blocks.0.items.0.icon" }),
    );
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
