import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const relativeImports = {
  regex: "^\\.{1,2}/(?!\\+types/)",
  message: "Inside app/, import modules as ~/… (only a route's ./+types/… is relative).",
};
const featureModules = {
  regex: "^~/(features/|jobs\\.server)",
  message: "app/platform, app/config, app/db and app/ui sit below the features: they must not import a feature.",
};
const uiModules = {
  regex: "^~/ui/",
  message: "app/platform, app/config and app/db sit below the UI: they must not import components.",
};
const dbModules = {
  regex: "^~/db/",
  message: "app/platform, app/config and app/ui must not reach the database: a feature's server code does.",
};
const routeModules = {
  regex: "^~/(features/[^/]+/routes/|root$|routes$)",
  message: "Route modules are the top: only app/routes.ts names them, and nothing imports them.",
};
const serverModules = {
  regex: "\\.server(\\.tsx?)?$",
  message: "This module reaches the browser: it must not import a *.server module.",
};
const restrictImports = (...patterns) => ({ "no-restricted-imports": ["error", { patterns }] });

// What each layer may not import, bottom to top: platform and config (and the icon names), then the
// data layer, the shared UI, then the features (which may use each other's modules, never their
// route modules).
const layers = [
  {
    files: ["app/platform/**", "app/config/**", "app/assets/**"],
    forbidden: [featureModules, uiModules, dbModules, routeModules],
  },
  { files: ["app/db/**"], forbidden: [featureModules, uiModules, routeModules] },
  { files: ["app/ui/**"], forbidden: [featureModules, dbModules, routeModules] },
  { files: ["app/features/**", "app/*.{ts,tsx}"], forbidden: [routeModules] },
];
// Route modules (their loaders and actions are stripped from the browser build), the app's server
// entry and *.server modules may import server code; every other app module reaches the browser.
const serverSide = ["**/*.server.ts", "**/*.server.tsx", "app/features/*/routes/**", "app/root.tsx", "app/entry.server.tsx"];

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
  // Layers point one way, and app modules are imported one way, as ~/…. app/routes.ts is read by
  // the router's build before the ~ alias exists: it keeps ./ imports.
  ...layers.flatMap(({ files, forbidden }) => [
    { files, ignores: ["app/routes.ts"], rules: restrictImports(relativeImports, ...forbidden) },
    { files, ignores: ["app/routes.ts", ...serverSide], rules: restrictImports(relativeImports, ...forbidden, serverModules) },
  ]),
);
