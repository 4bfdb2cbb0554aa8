import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { PostImage } from "~/features/blog/components/post-card";
import type { PostSummary } from "~/features/blog/posts";
import { loadImageManifest, responsiveImage } from "~/features/media/image-manifest.server";
import { renderMarkup } from "~/features/blog/markup.server";
import { responsiveImageFrom, variantWidthsFor, type ImageManifest } from "~/features/media/responsive-image";
import { buildManifest, processImage } from "../../scripts/lib/image-variants";

const temp = mkdtempSync(path.join(tmpdir(), "responsive-images-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const file = (name: string, width: number, height: number) => ({ src: `/assets/images/${name}`, width, height, bytes: 100 });

const manifest: ImageManifest = {
  version: 1,
  images: {
    "/images/photo.jpg": {
      width: 2400,
      height: 1350,
      variants: {
        "image/avif": [file("photo-480w.aaa.avif", 480, 270), file("photo-1600w.bbb.avif", 1600, 900)],
        "image/webp": [file("photo-480w.ccc.webp", 480, 270), file("photo-1600w.ddd.webp", 1600, 900)],
      },
      fallback: { ...file("photo-1600w.eee.jpg", 1600, 900), type: "image/jpeg" },
    },
  },
};

describe("variant widths", () => {
  it("are the standard widths below a large original, never wider than it", () => {
    expect(variantWidthsFor(2400)).toEqual([480, 800, 1200, 1600]);
    expect(variantWidthsFor(1600)).toEqual([480, 800, 1200, 1600]);
  });

  it("keep a smaller original at its own width and skip a standard width within 10% of it", () => {
    expect(variantWidthsFor(1000)).toEqual([480, 800, 1000]);
    expect(variantWidthsFor(850)).toEqual([480, 850]);
    expect(variantWidthsFor(300)).toEqual([300]);
  });
});

describe("the manifest lookup", () => {
  it("gives AVIF then WebP srcsets with width descriptors and the fallback's intrinsic size", () => {
    expect(responsiveImageFrom(manifest, "/images/photo.jpg")).toEqual({
      src: "/assets/images/photo-1600w.eee.jpg",
      width: 1600,
      height: 900,
      sources: [
        {
          type: "image/avif",
          srcSet: "/assets/images/photo-480w.aaa.avif 480w, /assets/images/photo-1600w.bbb.avif 1600w",
        },
        {
          type: "image/webp",
          srcSet: "/assets/images/photo-480w.ccc.webp 480w, /assets/images/photo-1600w.ddd.webp 1600w",
        },
      ],
    });
  });

  it("has nothing for remote URLs, SVGs, unknown files or inherited keys", () => {
    for (const url of [
      "https://cdn.example.com/images/photo.jpg",
      "//images/photo.jpg",
      "/images/diagram.svg",
      "/images/other.jpg",
      "__proto__",
      "/constructor",
      "",
      null,
      undefined,
    ]) {
      expect(responsiveImageFrom(manifest, url), String(url)).toBeNull();
    }
  });
});

describe("the server's manifest", () => {
  it("leaves every image plain when the manifest is missing", () => {
    loadImageManifest(path.join(temp, "missing.json"));
    expect(responsiveImage("/images/photo.jpg")).toBeNull();
  });

  it("refuses a manifest whose files point outside the variant folder", () => {
    const bad = structuredClone(manifest);
    bad.images["/images/photo.jpg"]!.fallback.src = "https://evil.example/x.jpg";
    const manifestPath = path.join(temp, "bad.json");
    writeFileSync(manifestPath, JSON.stringify(bad));
    loadImageManifest(manifestPath);
    expect(responsiveImage("/images/photo.jpg")).toBeNull();
  });

  it("serves the lookups from a valid manifest", () => {
    const manifestPath = path.join(temp, "good.json");
    writeFileSync(manifestPath, JSON.stringify(manifest));
    loadImageManifest(manifestPath);
    expect(responsiveImage("/images/photo.jpg")?.src).toBe("/assets/images/photo-1600w.eee.jpg");
    expect(responsiveImage("/images/other.png")).toBeNull();
  });
});

describe("post markup images", () => {
  const lookup = (url: string) => responsiveImageFrom(manifest, url);

  it("become a picture with both sources, the article's sizes and a lazy, sized fallback", () => {
    const html = renderMarkup('![A "quoted" <photo>](/images/photo.jpg)', { responsiveImage: lookup });
    expect(html).toBe(
      '<figure class="my-8"><picture class="contents">' +
        '<source type="image/avif" srcset="/assets/images/photo-480w.aaa.avif 480w, /assets/images/photo-1600w.bbb.avif 1600w" ' +
        'sizes="(min-width: 768px) 720px, (min-width: 640px) calc(100vw - 3rem), calc(100vw - 2rem)">' +
        '<source type="image/webp" srcset="/assets/images/photo-480w.ccc.webp 480w, /assets/images/photo-1600w.ddd.webp 1600w" ' +
        'sizes="(min-width: 768px) 720px, (min-width: 640px) calc(100vw - 3rem), calc(100vw - 2rem)">' +
        '<img src="/assets/images/photo-1600w.eee.jpg" alt="A &quot;quoted&quot; &lt;photo&gt;" loading="lazy" decoding="async" ' +
        'width="1600" height="900" class="aspect-video w-full bg-slate-100 object-contain rounded-xl"></picture></figure>\n',
    );
  });

  it("stay a plain img when they have no variants (remote, SVG, unknown, or no manifest at all)", () => {
    for (const url of ["https://cdn.example.com/a.jpg", "/images/diagram.svg", "/images/other.jpg"]) {
      const html = renderMarkup(`![x](${url})`, { responsiveImage: lookup });
      expect(html).not.toContain("<picture");
      expect(html).toContain(`<img src="${url}" alt="x" loading="lazy"`);
    }
    expect(renderMarkup("![x](/images/photo.jpg)")).toContain('<img src="/images/photo.jpg"');
  });
});

describe("the post image component", () => {
  const post: PostSummary = {
    id: "1",
    href: "/resources/blog/a",
    title: "A",
    excerpt: "",
    category: "News",
    author: "Ada",
    publishedDate: "2025-01-01T00:00:00.000Z",
    readTime: 3,
    imageUrl: "/images/photo.jpg",
    image: responsiveImageFrom(manifest, "/images/photo.jpg"),
  };

  function render(props: { post: PostSummary; priority?: boolean }) {
    const Stub = createRoutesStub([{ path: "/", Component: () => <PostImage {...props} sizes="100vw" /> }]);
    return renderToStaticMarkup(<Stub />);
  }

  it("draws a picture of the variants; lazy by default", () => {
    const html = render({ post });
    expect(html).toMatch(/<picture class="contents"><source type="image\/avif" srcSet="[^"]+480w[^"]+" sizes="100vw"\/>/i);
    expect(html).toContain('<source type="image/webp"');
    expect(html).toMatch(/<img src="\/assets\/images\/photo-1600w\.eee\.jpg" alt="" width="1600" height="900" loading="lazy"/);
    expect(html).not.toMatch(/fetchpriority/i);
  });

  it("fetches the priority image at once and first", () => {
    expect(render({ post, priority: true })).toMatch(/loading="eager" fetchPriority="high"/i);
  });

  it("keeps an image without variants as a plain img", () => {
    const html = render({ post: { ...post, imageUrl: "https://cdn.example.com/a.jpg", image: null }, priority: true });
    expect(html).not.toContain("<picture");
    expect(html).toMatch(
      /<img src="https:\/\/cdn\.example\.com\/a\.jpg" alt="" width="1600" height="900" loading="eager" fetchPriority="high"/i,
    );
  });
});

describe("making variants with sharp", () => {
  /** A grainy test card: large as a JPEG, as a camera file is. */
  async function photo(width: number, height: number, alpha = false) {
    const channels = alpha ? 4 : 3;
    const pixels = Buffer.alloc(width * height * channels);
    let seed = 7;
    for (let i = 0; i < pixels.length; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      pixels[i] = alpha && i % 4 === 3 ? 128 : (i % 251) + (seed % 32);
    }
    const image = sharp(pixels, { raw: { width, height, channels } });
    return alpha ? image.png().toBuffer() : image.jpeg({ quality: 95 }).toBuffer();
  }

  it("writes AVIF and WebP at each width plus a JPEG fallback, named by their bytes' hash", async () => {
    const outDir = path.join(temp, "out");
    const source = await photo(820, 240);
    const { entry, fromCache } = await processImage(source, "test card", { outDir });
    expect(fromCache).toBe(false);
    expect([entry.width, entry.height]).toEqual([820, 240]);
    expect(entry.variants["image/avif"].map((f) => [f.width, f.height])).toEqual([
      [480, 140],
      [820, 240],
    ]);
    expect(entry.variants["image/webp"].map((f) => f.width)).toEqual([480, 820]);
    expect(entry.fallback).toMatchObject({ type: "image/jpeg", width: 820, height: 240 });
    const all = [...entry.variants["image/avif"], ...entry.variants["image/webp"], entry.fallback];
    expect(readdirSync(outDir).sort()).toEqual(all.map((f) => path.basename(f.src)).sort());
    for (const variant of all) {
      expect(variant.src).toMatch(/^\/assets\/images\/test-card-\d+w\.[0-9a-f]{12}\.(avif|webp|jpg)$/);
      const bytes = readFileSync(path.join(outDir, path.basename(variant.src)));
      expect(bytes.length).toBe(variant.bytes);
      const meta = await sharp(bytes).metadata();
      expect(meta.width).toBe(variant.width);
      expect({ heif: "avif", webp: "webp", jpeg: "jpg" }[meta.format as string]).toBe(variant.src.split(".").pop());
    }
    for (const avif of entry.variants["image/avif"]) expect(avif.bytes).toBeLessThan(source.length);
  });

  it("falls back to PNG for an image with transparency, and reuses cached encodes", async () => {
    const cacheDir = path.join(temp, "cache");
    const source = await photo(200, 100, true);
    const first = await processImage(source, "logo", { outDir: path.join(temp, "png"), cacheDir });
    expect(first.entry.fallback).toMatchObject({ type: "image/png", width: 200, height: 100 });
    expect(first.entry.variants["image/avif"].map((f) => f.width)).toEqual([200]);
    const again = await processImage(source, "logo", { outDir: path.join(temp, "png-again"), cacheDir });
    expect(again.fromCache).toBe(true);
    expect(again.entry).toEqual(first.entry);
  });

  it("builds a manifest keyed by site path from every raster file under a public folder, skipping SVGs", async () => {
    const publicDir = path.join(temp, "public");
    mkdirSync(path.join(publicDir, "images/photos"), { recursive: true });
    writeFileSync(path.join(publicDir, "images/photos/a.jpg"), await photo(300, 200));
    writeFileSync(path.join(publicDir, "images/diagram.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
    const built = await buildManifest(publicDir, { outDir: path.join(temp, "built") });
    expect(Object.keys(built.images)).toEqual(["/images/photos/a.jpg"]);
    expect(responsiveImageFrom(built, "/images/photos/a.jpg")?.sources.map((s) => s.type)).toEqual(["image/avif", "image/webp"]);
  });
});
