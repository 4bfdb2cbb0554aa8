import { readFileSync } from "node:fs";
import nodePath from "node:path";
import { z } from "zod";
import { logger } from "~/platform/logger.server";
import {
  EMPTY_MANIFEST,
  VARIANTS_PATH,
  responsiveImageFrom,
  type ImageManifest,
  type ResponsiveImage,
} from "~/features/media/responsive-image";

// The manifest of responsive image variants that `npm run build` wrote beside the build. The
// production server loads it once at start; without one (development, or a build made without
// images) every image is drawn as a plain <img>, exactly as its URL says.

const file = z.object({
  // Only our own variant folder: a manifest edited by hand cannot point pictures elsewhere.
  src: z.string().regex(new RegExp(`^${VARIANTS_PATH}/[A-Za-z0-9_.-]+$`)),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  bytes: z.number().int().nonnegative(),
});

const manifestSchema = z.object({
  version: z.literal(1),
  images: z.record(
    z.string(),
    z.object({
      width: z.number().int().positive(),
      height: z.number().int().positive(),
      variants: z.object({ "image/avif": z.array(file), "image/webp": z.array(file) }),
      fallback: file.extend({ type: z.enum(["image/jpeg", "image/png"]) }),
    }),
  ),
});

let manifest: ImageManifest = EMPTY_MANIFEST;
/** The build's client folder, where the manifest's files are (`/assets/images/x.jpg` → CLIENT/assets/images/x.jpg). */
let clientDir: string | undefined;

/**
 * Reads the manifest at `path`. A missing or unreadable one is logged and leaves images plain:
 * pages never fail over an image.
 */
export function loadImageManifest(path: string): void {
  try {
    manifest = manifestSchema.parse(JSON.parse(readFileSync(path, "utf8")));
    clientDir = nodePath.join(nodePath.dirname(path), "client");
    logger.info({ images: Object.keys(manifest.images).length }, "responsive image manifest loaded");
  } catch (error) {
    manifest = EMPTY_MANIFEST;
    clientDir = undefined;
    logger.warn(
      { path, reason: error instanceof Error ? error.message.slice(0, 200) : String(error) },
      "no responsive image manifest: post images are served as they are",
    );
  }
}

/** The file on disk of a built-in image's fallback (JPEG or PNG at its largest width), if the build made one. */
export function builtImageFile(url: string): string | undefined {
  const entry = Object.hasOwn(manifest.images, url) ? manifest.images[url] : undefined;
  return entry && clientDir ? nodePath.join(clientDir, entry.fallback.src) : undefined;
}

/** The `<picture>` data for an image URL, or null to draw it as a plain `<img>`. */
export function responsiveImage(url: string | null | undefined): ResponsiveImage | null {
  return responsiveImageFrom(manifest, url);
}
