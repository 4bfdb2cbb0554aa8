// `npm run screenshots -- --out DIR`: full-page PNGs of every public page at 390 and 1440 px wide,
// taken from the production build (run `npm run build` first; BUILD_DIR is honoured) in Debian's
// Chromium, with fonts loaded and entrance animations finished. For people to review; nothing
// compares them.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { chromium, type Page } from "@playwright/test";
import { startBuiltServer } from "./lib/built-server";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "./lib/chromium";

const { values } = parseArgs({ options: { out: { type: "string", default: "screenshots" } } });
const outDir = path.resolve(values.out!);
const buildDir = process.env.BUILD_DIR ?? "build";
if (!existsSync(path.join(buildDir, "server"))) {
  console.error(`No production build in ${buildDir}/: run \`npm run build\` first.`);
  process.exit(1);
}

const widths = [
  { width: 390, height: 844, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
  { width: 1440, height: 900, deviceScaleFactor: 1, isMobile: false, hasTouch: false },
];

/** The sitemap's pages, one blog post standing for all of them, and the not-found page. */
async function publicPaths(siteUrl: string): Promise<string[]> {
  const sitemap = await (await fetch(`${siteUrl}/sitemap.xml`)).text();
  const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
  const isPost = (pathname: string) => /^\/resources\/blog\/[^/]+$/.test(pathname);
  const firstPost = paths.find(isPost);
  return [...paths.filter((pathname) => !isPost(pathname)), ...(firstPost ? [firstPost] : []), "/no-such-page"];
}

/** A file name per page: `home`, `products-sentinel`, `resources-blog-<slug>`… */
const fileStem = (pathname: string) => pathname.replace(/^\/|\/$/g, "").replace(/\//g, "-") || "home";

async function settle(page: Page) {
  await page.evaluate(async () => {
    // Lazy images load as they come into view: scroll through the page once.
    for (let y = 0; y < document.documentElement.scrollHeight; y += window.innerHeight) {
      window.scrollTo(0, y);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    window.scrollTo(0, 0);
    await document.fonts.ready;
    const finite = document.getAnimations().filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity);
    await Promise.all(finite.map((animation) => animation.finished));
  });
  await page.waitForLoadState("networkidle");
}

const dataDir = mkdtempSync(path.join(tmpdir(), "quorvant-screenshots-"));
const server = await startBuiltServer(
  {
    DATABASE_URL: `file:${path.join(dataDir, "site.db")}`,
    LEAD_SPOOL_DIR: path.join(dataDir, "lead-spool"),
    MEDIA_CACHE_DIR: path.join(dataDir, "media-cache"),
    VISIT_COUNTING: "off",
    LOG_LEVEL: "warn",
  },
  { discardStdout: true },
);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
try {
  mkdirSync(outDir, { recursive: true });
  const paths = await publicPaths(server.url);
  for (const { width, height, ...device } of widths) {
    const context = await browser.newContext({
      viewport: { width, height },
      ...device,
      locale: "en-US",
      timezoneId: "UTC",
      colorScheme: "light",
    });
    const page = await context.newPage();
    for (const pathname of paths) {
      await page.goto(`${server.url}${pathname}`, { waitUntil: "load" });
      await settle(page);
      const file = path.join(outDir, `${fileStem(pathname)}-${width}.png`);
      await page.screenshot({ path: file, fullPage: true });
      console.log(path.relative(process.cwd(), file));
    }
    await context.close();
  }
  console.log(
    `${paths.length * widths.length} screenshots of ${paths.length} pages in ${path.relative(process.cwd(), outDir) || "."}/`,
  );
} finally {
  await browser.close();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
