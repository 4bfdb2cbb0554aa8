import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The import rules of eslint.config.js, tried on sources that break them (and on ones that don't).

const eslint = new ESLint();

async function importProblems(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === "no-restricted-imports")
    .map((message) => message.message);
}

const importing = (name: string, from: string) => `import { ${name} } from "${from}";\nexport { ${name} };\n`;

describe("layering", () => {
  it("the data layer imports no feature and no component", async () => {
    expect(await importProblems("app/db/example.server.ts", importing("recordAudit", "~/features/audit/audit.server"))).toEqual([
      expect.stringContaining("must not import a feature"),
    ]);
    expect(await importProblems("app/db/example.ts", importing("leadFormList", "~/features/leads/registry"))).toHaveLength(1);
    expect(await importProblems("app/db/example.server.ts", importing("Button", "~/ui/button"))).toEqual([
      expect.stringContaining("must not import components"),
    ]);
    // It may use the platform below it.
    expect(await importProblems("app/db/example.server.ts", importing("logger", "~/platform/logger.server"))).toEqual([]);
  });

  it("the platform and config sit below everything else", async () => {
    expect(await importProblems("app/platform/example.ts", importing("BLOG_PATH", "~/features/blog/posts"))).toHaveLength(1);
    expect(await importProblems("app/platform/example.server.ts", importing("getDb", "~/db/index.server"))).toEqual([
      expect.stringContaining("must not reach the database"),
    ]);
    expect(await importProblems("app/config/example.ts", importing("Icon", "~/ui/icon"))).toHaveLength(1);
  });

  it("the shared UI imports no feature and no database code", async () => {
    expect(await importProblems("app/ui/example.tsx", importing("PostCard", "~/features/blog/components/post-card"))).toEqual([
      expect.stringContaining("must not import a feature"),
    ]);
    expect(await importProblems("app/ui/example.server.tsx", importing("getDb", "~/db/index.server"))).toHaveLength(1);
    expect(await importProblems("app/ui/example.tsx", importing("Icon", "~/ui/icon"))).toEqual([]);
  });

  it("features use the layers below and each other, never a route module", async () => {
    expect(await importProblems("app/features/blog/example.server.ts", importing("getDb", "~/db/index.server"))).toEqual([]);
    expect(
      await importProblems(
        "app/features/blog/example.server.ts",
        importing("describeStoredImage", "~/features/media/media.server"),
      ),
    ).toEqual([]);
    expect(
      await importProblems("app/features/blog/example.server.ts", importing("loader", "~/features/pages/routes/home")),
    ).toEqual([expect.stringContaining("Route modules are the top")]);
    expect(await importProblems("app/ui/example.tsx", importing("loader", "~/features/pages/routes/home"))).toHaveLength(2);
  });

  it("code that reaches the browser never imports a *.server module", async () => {
    expect(await importProblems("app/ui/example.tsx", importing("logger", "~/platform/logger.server"))).toEqual([
      expect.stringContaining("must not import a *.server module"),
    ]);
    expect(
      await importProblems("app/features/blog/components/example.tsx", importing("getDb", "~/db/index.server")),
    ).toHaveLength(1);
    expect(
      await importProblems("app/features/blog/admin/example.tsx", importing("savePost", "~/features/blog/post-editor.server")),
    ).toHaveLength(1);
    // Server modules and route modules (whose loaders the build strips from the browser) may.
    expect(await importProblems("app/features/blog/example.server.ts", importing("getDb", "~/db/index.server"))).toEqual([]);
    expect(await importProblems("app/features/blog/routes/example.tsx", importing("getDb", "~/db/index.server"))).toEqual([]);
  });

  it("app modules are imported as ~/…, a route's ./+types excepted", async () => {
    expect(await importProblems("app/db/example.server.ts", importing("logger", "../platform/logger.server"))).toEqual([
      expect.stringContaining("import modules as ~/"),
    ]);
    expect(
      await importProblems(
        "app/features/blog/routes/example.tsx",
        'import type { Route } from "./+types/example";\nexport type { Route };\n',
      ),
    ).toEqual([]);
  });
});
