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

describe("layering", () => {
  it("app/lib and app/content never import components or routes", async () => {
    expect(
      await importProblems("app/lib/example.ts", 'import { Button } from "~/components/ui/button";\nexport { Button };\n'),
    ).toEqual([expect.stringContaining("must not import components")]);
    expect(
      await importProblems("app/content/example.ts", 'import { Icon } from "~/components/ui/icon";\nexport { Icon };\n'),
    ).toHaveLength(1);
    expect(
      await importProblems("app/lib/example.server.ts", 'import { loader } from "~/routes/home";\nexport { loader };\n'),
    ).toHaveLength(1);
  });

  it("code that reaches the browser never imports a *.server module", async () => {
    expect(
      await importProblems("app/components/example.tsx", 'import { logger } from "~/lib/logger.server";\nexport { logger };\n'),
    ).toEqual([expect.stringContaining("must not import a *.server module")]);
    expect(
      await importProblems("app/lib/example.ts", 'import { getDb } from "~/lib/db/index.server";\nexport { getDb };\n'),
    ).toHaveLength(1);
    // Server modules and route modules (whose loaders the build strips from the browser) may.
    expect(
      await importProblems("app/lib/example.server.ts", 'import { getDb } from "~/lib/db/index.server";\nexport { getDb };\n'),
    ).toEqual([]);
    expect(
      await importProblems("app/routes/example.tsx", 'import { getDb } from "~/lib/db/index.server";\nexport { getDb };\n'),
    ).toEqual([]);
  });

  it("app modules are imported as ~/…, a route's ./+types excepted", async () => {
    expect(
      await importProblems("app/lib/db/example.server.ts", 'import { logger } from "../logger.server";\nexport { logger };\n'),
    ).toEqual([expect.stringContaining("import modules as ~/")]);
    expect(
      await importProblems("app/routes/example.tsx", 'import type { Route } from "./+types/example";\nexport type { Route };\n'),
    ).toEqual([]);
  });
});
