import path from "node:path";
import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

/**
 * Our shared client code (the root route, layout, UI primitives, config, small helpers, the visit
 * every page records, the languages' links and suggestion, the gone page both page routes draw) is
 * a few kilobytes in a dozen modules; shipped as one chunk it compresses better and costs one request instead of
 * fifteen, which keeps first-load JavaScript on / and on a post under 105 KB (brotli). What only
 * some pages use stays out: the lead forms (and with them Conform, Zod, toasts), the post and legal
 * page bodies (each shared by a page and its preview or earlier-version page), the home page's
 * latest insights (1 KB that no other page uses), and the back office.
 */
const SHARED_SITE_CODE = new RegExp(
  `/app/(${[
    "root\\.tsx$",
    "ui/(?!admin/)",
    "config/site\\.ts$",
    "features/i18n/components/",
    "platform/page-languages\\.ts$",
    "features/redirects/(components/gone-page\\.tsx|gone-meta\\.ts)$",
    "platform/(dates|nonce|document-html)\\.tsx?$",
    "features/site/(seo\\.ts|pending-states\\.tsx)$",
    "features/leads/visit-memory\\.ts$",
    "features/blog/components/(back-button|blog-states|post-card)\\.tsx$",
    "features/legal/components/legal-skeleton\\.tsx$",
    "features/media/components/responsive-picture\\.tsx$",
    "features/pages/components/(console-illustration|deployment-diagram|document-visual|proof-points)\\.tsx$",
  ].join("|")})`,
);

/**
 * react-dom's own entry (portals, flushSync; its client renderer is the entry chunk's) with its module wrapper, and React's
 * CommonJS entry, and the JSX runtime (with the wrappers that load it as a module, or it lands in
 * whichever chunk Rollup meets first, the back office's included): every page loads them, the entry chunk and the form code import them. In the
 * shared chunk they save two requests and the better part of a kilobyte.
 */
const REACT_DOM_SHARED =
  /\/node_modules\/(react-dom\/(index\.js(\?commonjs-[a-z-]+)?|cjs\/react-dom\.production\.js)|react\/index\.js|react\/(jsx-runtime\.js|cjs\/react-jsx-runtime\.production\.js)(\?commonjs-[a-z-]+)?)$/;

/**
 * The back office's browser code (each feature's admin/ folder, what they share in app/ui/admin, the
 * roles, the passkey library): one chunk no public page loads.
 */
const BACK_OFFICE_CODE =
  /\/app\/(ui\/admin\/|features\/[^/]+\/admin\/|config\/roles\.ts$)|\/node_modules\/@simplewebauthn\/browser\//;

/**
 * Rollup moves what a manual chunk's modules import into that chunk when no other manual chunk
 * claims it: a public module the back office also imports (the post body, whose classes the post
 * editor shares) would land in the admin chunk, and its public page would load the whole back
 * office (CodeMirror included, 164 KB) with it. Such a module gets a chunk of its own instead.
 */
function chunkFor(id: string, getModuleInfo: (id: string) => { importers: readonly string[] } | null) {
  if (BACK_OFFICE_CODE.test(id)) return "admin";
  if (SHARED_SITE_CODE.test(id) || REACT_DOM_SHARED.test(id)) return "site";
  // Vite's helper for dynamic imports: the back office's and the form pages' own small chunk (the
  // admin chunk would take it otherwise, and the shared one would carry it to every page).
  if (id.includes("vite/preload-helper")) return "dynamic-import";
  const importers = getModuleInfo(id)?.importers ?? [];
  // Named by its path under app/, so two modules of the same file name never share a chunk.
  if (id.includes("/app/") && importers.some((importer) => BACK_OFFICE_CODE.test(importer)))
    return path
      .relative(APP_DIR, id)
      .replace(/\.[^.]+$/, "")
      .replaceAll(path.sep, "-");
  return undefined;
}

const APP_DIR = fileURLToPath(new URL("./app", import.meta.url));

const REACT_ROUTER_PRODUCTION = (file: string) =>
  fileURLToPath(new URL(`./node_modules/react-router/dist/production/${file}`, import.meta.url));

export default defineConfig(({ isSsrBuild, command }) => ({
  build: isSsrBuild
    ? // The server build's entry is our Express app, which imports the router's server build.
      { rollupOptions: { input: "./server/app.ts" } }
    : {
        rollupOptions: {
          output: {
            manualChunks: (id, { getModuleInfo }) => chunkFor(id, getModuleInfo),
          },
        },
      },
  plugins: [tailwindcss(), reactRouter()],
  // `npm run dev` reloads on source changes, not on what tests, builds and the database write.
  server: { watch: { ignored: ["**/.e2e*/**", "**/test-results/**", "**/.test-reports/**", "**/build*/**", "**/data/**"] } },
  resolve: {
    alias: {
      "~": fileURLToPath(new URL("./app", import.meta.url)),
      // React Router's package exports only its development build, whose one difference is that
      // its development warnings are on. The browser gets the
      // production build; the server keeps the one its adapter (@react-router/node) imports.
      ...(isSsrBuild || command !== "build"
        ? {}
        : {
            "react-router/dom": REACT_ROUTER_PRODUCTION("dom-export.mjs"),
            "react-router": REACT_ROUTER_PRODUCTION("index.mjs"),
          }),
    },
  },
}));
