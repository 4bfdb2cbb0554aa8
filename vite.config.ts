import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

/**
 * Our shared client code (layout, UI primitives, config, small helpers) is a few kilobytes in
 * a dozen modules; shipped as one chunk it compresses better and costs one request instead of
 * fifteen (DESIGN.md §7 budget). Form code (Conform, Zod, toasts) stays out: only form pages load it.
 */
const SHARED_SITE_CODE = /\/app\/(components\/(?!lead-form|business-contact-fields|career-application|ui\/field|ui\/toast)|config\/|lib\/(seo|dates|blog|nonce)\.tsx?$)/;

export default defineConfig(({ isSsrBuild }) => ({
  build: isSsrBuild
    ? // The server build's entry is our Express app, which imports the router's server build.
      { rollupOptions: { input: "./server/app.ts" } }
    : {
        rollupOptions: {
          output: { manualChunks: (id: string) => (SHARED_SITE_CODE.test(id) ? "site" : undefined) },
        },
      },
  plugins: [tailwindcss(), reactRouter()],
  // `npm run dev` reloads on source changes, not on what tests, builds and the database write.
  server: { watch: { ignored: ["**/.e2e*/**", "**/test-results/**", "**/.test-reports/**", "**/build*/**", "**/data/**"] } },
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
}));
