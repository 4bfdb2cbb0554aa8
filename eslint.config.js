import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/", "build-*/", ".e2e*/", ".test-reports/", ".react-router/", "node_modules/", "test-results/", "playwright-report/", "data/"] },
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
  {
    // Layers point one way: app/lib (schemas, data, server code) never imports from app/components.
    files: ["app/lib/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ["~/components/*", "**/components/*"], message: "app/lib must not import from app/components." }] }],
    },
  },
);
