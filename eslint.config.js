import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const relativeImports = {
  regex: "^\\.{1,2}/(?!\\+types/)",
  message: "Inside app/, import modules as ~/… (only a route's ./+types/… is relative).",
};
const uiModules = {
  regex: "^~/(components|routes)/",
  message: "app/lib, app/content and app/config sit below the UI: they must not import components or routes.",
};
const serverModules = {
  regex: "\\.server(\\.tsx?)?$",
  message: "This module reaches the browser: it must not import a *.server module.",
};
const restrictImports = (...patterns) => ({ "no-restricted-imports": ["error", { patterns }] });

export default tseslint.config(
  {
    ignores: [
      "build/",
      "build-*/",
      ".e2e*/",
      ".test-reports/",
      ".react-router/",
      "node_modules/",
      "test-results/",
      "playwright-report/",
      "data/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  // Layers point one way: routes → components → content, config and lib. Code that reaches the
  // browser never imports a *.server module, and app modules are imported one way, as ~/….
  // app/routes.ts is read by the router's build before the ~ alias exists: it keeps ./ imports.
  { files: ["app/**/*.{ts,tsx}"], ignores: ["app/routes.ts"], rules: restrictImports(relativeImports) },
  {
    files: ["app/components/**"],
    ignores: ["**/*.server.ts", "**/*.server.tsx"],
    rules: restrictImports(relativeImports, serverModules),
  },
  { files: ["app/lib/**", "app/content/**", "app/config/**"], rules: restrictImports(relativeImports, uiModules) },
  {
    files: ["app/lib/**", "app/content/**", "app/config/**"],
    ignores: ["**/*.server.ts", "**/*.server.tsx"],
    rules: restrictImports(relativeImports, uiModules, serverModules),
  },
);
