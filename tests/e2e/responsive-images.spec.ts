import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { withDatabase } from "./support/database";
import { expect, test } from "./support/fixtures";
import { startPrivateServer, type RunningServer } from "./support/server";

// A raster image of the site is served as AVIF and WebP variants at several widths, each
// fingerprinted and cached for a year, drawn as <picture> with a sized <img> fallback. The sample
// content has two 2400 px JPEG photographs: one on the featured post, one on the data residency
// post (whose body also shows the other one inline).

const PHOTO_POST = "/resources/blog/data-residency-for-ai-workloads";
const HERO_ORIGINAL = "/images/photos/city-lights-at-dusk.jpg";
const INLINE_ORIGINAL = "/images/photos/aurora-over-ridge.jpg";
const IMMUTABLE = "public, max-age=31536000, immutable";

type PictureInfo = {
  sources: { type: string | null; srcset: string | null; sizes: string | null }[];
  img: {
    src: string | null;
    alt: string | null;
    width: string | null;
    height: string | null;
    loading: string | null;
    fetchpriority: string | null;
  };
};

async function pictureInfo(picture: Locator): Promise<PictureInfo> {
  return picture.evaluate((element) => ({
    sources: [...element.querySelectorAll("source")].map((source) => ({
      type: source.getAttribute("type"),
      srcset: source.getAttribute("srcset"),
      sizes: source.getAttribute("sizes"),
    })),
    img: (() => {
      const img = element.querySelector("img")!;
      const attr = (name: string) => img.getAttribute(name);
      return {
        src: attr("src"),
        alt: attr("alt"),
        width: attr("width"),
        height: attr("height"),
        loading: attr("loading"),
        fetchpriority: attr("fetchpriority"),
      };
    })(),
  }));
}

/** `url 480w, url 800w` → the URLs and widths, in order. */
function candidates(srcset: string | null): { url: string; width: number }[] {
  return (srcset ?? "").split(",").map((candidate) => {
    const [url, descriptor] = candidate.trim().split(/\s+/);
    expect(descriptor, `srcset candidate "${candidate}"`).toMatch(/^\d+w$/);
    return { url: url!, width: Number.parseInt(descriptor!, 10) };
  });
}

/** The file's real format, from its first bytes (not from what the server says). */
function sniff(body: Buffer): string {
  if (body.subarray(4, 12).toString("latin1") === "ftypavif") return "image/avif";
  if (body.subarray(0, 4).toString("latin1") === "RIFF" && body.subarray(8, 12).toString("latin1") === "WEBP")
    return "image/webp";
  if (body[0] === 0xff && body[1] === 0xd8) return "image/jpeg";
  if (body.subarray(1, 4).toString("latin1") === "PNG") return "image/png";
  return "unknown";
}

/** Every file a picture offers answers 200 with its type, is cached as immutable and is smaller than the original. */
async function expectServedVariants(request: APIRequestContext, info: PictureInfo, original: string) {
  const originalResponse = await request.get(original);
  expect(originalResponse.status()).toBe(200);
  const originalBytes = (await originalResponse.body()).length;
  expect(originalBytes, "the sample photograph is a large original").toBeGreaterThan(500_000);

  const files = [
    ...info.sources.flatMap((source) => candidates(source.srcset).map(({ url }) => ({ url, type: source.type! }))),
    { url: info.img.src!, type: "image/jpeg" },
  ];
  for (const { url, type } of files) {
    // Fingerprinted: the name carries a hash of the bytes.
    expect(url).toMatch(/^\/assets\/images\/[\w-]+-\d+w\.[0-9a-f]{12}\.(avif|webp|jpg)$/);
    const response = await request.get(url);
    expect(response.status(), url).toBe(200);
    expect(response.headers()["content-type"], url).toBe(type);
    expect(response.headers()["cache-control"], url).toBe(IMMUTABLE);
    const body = await response.body();
    expect(sniff(body), `${url} is really ${type}`).toBe(type);
    expect(body.length, `${url} is smaller than the ${originalBytes}-byte original`).toBeLessThan(originalBytes / 5);
  }
}

/** The offered widths, by type: AVIF and WebP, in that order, at the same ascending widths. */
function expectAvifThenWebp(info: PictureInfo, sizes: string) {
  expect(info.sources.map((source) => source.type)).toEqual(["image/avif", "image/webp"]);
  const avif = candidates(info.sources[0]!.srcset).map((candidate) => candidate.width);
  const webp = candidates(info.sources[1]!.srcset).map((candidate) => candidate.width);
  expect(avif).toEqual([480, 800, 1200, 1600]);
  expect(webp).toEqual(avif);
  for (const source of info.sources) expect(source.sizes).toBe(sizes);
}

/** The img's intrinsic size is the file's: the box is reserved with the right shape before it loads. */
function expectIntrinsicSize(info: PictureInfo, width: number, height: number) {
  expect(Number(info.img.width)).toBe(width);
  expect(Number(info.img.height)).toBe(height);
}

async function decodedFrom(page: Page, picture: Locator) {
  const img = picture.locator("img");
  await img.scrollIntoViewIfNeeded();
  await expect.poll(() => img.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0)).toBe(true);
  return img.evaluate((element: HTMLImageElement) => new URL(element.currentSrc).pathname);
}

test.describe("the photograph post", () => {
  test("offers AVIF and WebP at four widths with a sized fallback, for its hero and its inline photo", async ({
    page,
    request,
  }) => {
    await page.goto(PHOTO_POST);
    const article = page.getByRole("article");
    const pictures = article.locator("picture");
    await expect(pictures).toHaveCount(2);

    const hero = await pictureInfo(pictures.nth(0));
    expectAvifThenWebp(hero, "(min-width: 768px) 720px, (min-width: 640px) calc(100vw - 3rem), calc(100vw - 2rem)");
    // 2400 × 1600 original; the fallback is the 1600 px JPEG.
    expectIntrinsicSize(hero, 1600, 1067);
    // The largest image above the fold: fetched at once, ahead of the others.
    expect(hero.img.loading).toBe("eager");
    expect(hero.img.fetchpriority).toBe("high");
    await expectServedVariants(request, hero, HERO_ORIGINAL);

    const inline = await pictureInfo(pictures.nth(1));
    expectAvifThenWebp(inline, hero.sources[0]!.sizes!);
    expectIntrinsicSize(inline, 1600, 900);
    expect(inline.img.alt).toBe("Soft bands of green light over a dark ridge at night");
    expect(inline.img.loading).toBe("lazy");
    expect(inline.img.fetchpriority).toBeNull();
    await expectServedVariants(request, inline, INLINE_ORIGINAL);

    // Chromium decodes AVIF, so that is what it fetches: never the original.
    expect(await decodedFrom(page, pictures.nth(0))).toMatch(/\.avif$/);
    expect(await decodedFrom(page, pictures.nth(1))).toMatch(/\.avif$/);
  });

  test("a phone fetches a narrow variant", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    await page.goto(`${baseURL}${PHOTO_POST}`);
    // calc(100vw - 2rem) = 358 px at 1x: the 480 px file is the smallest that is sharp enough.
    expect(await decodedFrom(page, page.getByRole("article").locator("picture").first())).toMatch(/-480w\.[0-9a-f]{12}\.avif$/);
    await context.close();
  });
});

test.describe("the featured post's card", () => {
  for (const path of ["/", "/resources/blog"]) {
    test(`on ${path} is a picture fetched first; the other cards load lazily`, async ({ page }) => {
      await page.goto(path);
      const featured = page.getByRole("article").filter({ hasText: "Featured" }).first();
      const info = await pictureInfo(featured.locator("picture"));
      expectAvifThenWebp(info, "(min-width: 1200px) 552px, (min-width: 1024px) calc(50vw - 1.5rem), calc(100vw - 2rem)");
      expectIntrinsicSize(info, 1600, 900);
      expect(info.img.loading).toBe("eager");
      expect(info.img.fetchpriority).toBe("high");
      // Exactly one image on the page asks to be fetched first; every other one waits to be scrolled to.
      await expect(page.locator('img[fetchpriority="high"]')).toHaveCount(1);
      const others = await page.locator('main img:not([fetchpriority="high"])').all();
      expect(others.length).toBeGreaterThan(0);
      for (const img of others) await expect(img).toHaveAttribute("loading", "lazy");
    });
  }

  test("the photograph post's card in the blog list is a picture with list-card sizes", async ({ page }) => {
    await page.goto("/resources/blog");
    const card = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: /Data Residency/ }) });
    const info = await pictureInfo(card.locator("picture"));
    expect(info.sources.map((source) => source.type)).toEqual(["image/avif", "image/webp"]);
    expect(info.sources[0]!.sizes).toContain("352px");
    expectIntrinsicSize(info, 1600, 1067);
    expect(info.img.loading).toBe("lazy");
  });
});

test.describe("images without variants", () => {
  test.describe.configure({ mode: "serial" });
  let server: RunningServer;

  test.beforeAll(async () => {
    server = await startPrivateServer();
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test("a remote URL, an SVG and a site file the build never saw stay plain img, and the page still renders", async ({
    request,
  }) => {
    const slug = "data-residency-for-ai-workloads";
    const cases = [
      { imageUrl: "https://images.example.com/photo.jpg", inline: "https://images.example.com/inline.png" },
      { imageUrl: "/images/eu-ai-act-timeline.svg", inline: "/images/sentinel-architecture.svg" },
      { imageUrl: "/images/photos/added-after-the-build.jpg", inline: "/images/photos/also-unknown.webp" },
    ];
    for (const { imageUrl, inline } of cases) {
      withDatabase(server.databasePath, (db) =>
        db
          .prepare("UPDATE blog_posts SET image_url = ?, content = ?, updated_at = ? WHERE slug = ?")
          .run(imageUrl, `Before.\n\n![An inline image](${inline})\n\nAfter.`, new Date().toISOString(), slug),
      );
      // Pages are cached for a second at most.
      await expect
        .poll(
          async () => {
            const response = await request.get(`${server.url}/resources/blog/${slug}`);
            expect(response.status()).toBe(200);
            return response.text();
          },
          { intervals: [300] },
        )
        .toContain(`src="${inline}"`);
      const html = await (await request.get(`${server.url}/resources/blog/${slug}`)).text();
      const article = html.slice(html.indexOf("<article"), html.indexOf("</article>"));
      expect(article).not.toContain("<picture");
      expect(article).toMatch(new RegExp(`<img src="${imageUrl.replace(/[.]/g, "\\.")}"[^>]*fetchPriority="high"`, "i"));
      expect(article).toMatch(/<img src="[^"]+" alt="An inline image" loading="lazy"/);
    }
  });
});
