// Responsive post images: raster files on this site are served as AVIF and WebP variants at a
// few widths (made by `npm run build`, listed in a manifest), plus one fallback in the original's
// format. This module holds the shapes and the pure lookups; it is shared by the build script, the
// server and the components (which import only its types).

/** Variant widths in CSS pixels; no variant is wider than the original. */
export const VARIANT_WIDTHS = [480, 800, 1200, 1600] as const;

/** Modern formats first: a browser takes the first `<source>` whose type it can decode. */
export const VARIANT_TYPES = ["image/avif", "image/webp"] as const;
export type VariantType = (typeof VARIANT_TYPES)[number];

/** Site paths with these extensions are raster files the build turns into variants. */
export const RASTER_EXTENSIONS = [".jpg", ".jpeg", ".png", ".webp"] as const;

/** Where the variants are served from: under /assets, so they are cached as immutable. */
export const VARIANTS_PATH = "/assets/images";

export type ImageFile = { src: string; width: number; height: number; bytes: number };

/** One source image in the manifest: its size, its variants by type, and the fallback. */
export type ManifestEntry = {
  width: number;
  height: number;
  variants: Record<VariantType, ImageFile[]>;
  /** The largest variant width again, in the original's format (JPEG, or PNG for images with transparency). */
  fallback: ImageFile & { type: "image/jpeg" | "image/png" };
};

/** Site path of the source (`/images/photos/x.jpg`) → its entry. */
export type ImageManifest = { version: 1; images: Record<string, ManifestEntry> };

export const EMPTY_MANIFEST: ImageManifest = { version: 1, images: {} };

/** What a page needs to draw a `<picture>`: no manifest, no file sizes, nothing to compute. */
export type ResponsiveImage = {
  /** The fallback `<img src>`. */
  src: string;
  /** Intrinsic size of the fallback, for `width`/`height` (the box is known before the file arrives). */
  width: number;
  height: number;
  sources: { type: VariantType; srcSet: string }[];
};

/**
 * The picture for an image URL, or null when the URL has no variants (a remote URL, an SVG, a
 * file added to the database after the build): those are drawn as a plain `<img>`.
 */
export function responsiveImageFrom(manifest: ImageManifest, url: string | null | undefined): ResponsiveImage | null {
  if (!url || !url.startsWith("/") || url.startsWith("//")) return null;
  const entry = Object.hasOwn(manifest.images, url) ? manifest.images[url] : undefined;
  if (!entry) return null;
  const sources = VARIANT_TYPES.flatMap((type) => {
    const files = entry.variants[type] ?? [];
    return files.length ? [{ type, srcSet: files.map((file) => `${file.src} ${file.width}w`).join(", ") }] : [];
  });
  return { src: entry.fallback.src, width: entry.fallback.width, height: entry.fallback.height, sources };
}

/**
 * The widths to make for an original this wide: the standard widths below it, never an upscale.
 * An original no wider than the largest standard width is also kept at its own width, and a
 * standard width within 10% of it is skipped (it would cost bytes and save none).
 */
export function variantWidthsFor(originalWidth: number): number[] {
  const largest = VARIANT_WIDTHS[VARIANT_WIDTHS.length - 1]!;
  if (originalWidth > largest) return [...VARIANT_WIDTHS];
  return [...VARIANT_WIDTHS.filter((width) => width < originalWidth * 0.9), originalWidth];
}

/** The fallback's format: JPEG, or PNG for an image with transparency. */
export function fallbackTypeFor(hasAlpha: boolean): "image/jpeg" | "image/png" {
  return hasAlpha ? "image/png" : "image/jpeg";
}

/** A site path whose extension says raster (query and fragment ignored, case-insensitive). */
export function isRasterPath(url: string): boolean {
  const pathname = url.split(/[?#]/, 1)[0]!.toLowerCase();
  return RASTER_EXTENSIONS.some((extension) => pathname.endsWith(extension));
}
