import sharp, { type Sharp } from "sharp";
import { fallbackTypeFor, VARIANT_TYPES, variantWidthsFor, type VariantType } from "~/features/media/responsive-image";

// How the site encodes responsive image variants, shared by the build (images under public/) and
// the server (uploaded images, encoded on their first request): AVIF and WebP at the standard
// widths plus one fallback in JPEG, or PNG for images with transparency.

/** Encoder settings: visually close to the original at a fraction of its bytes. */
export const ENCODERS = {
  "image/avif": { extension: "avif", encode: (image: Sharp) => image.avif({ quality: 50, effort: 4 }) },
  "image/webp": { extension: "webp", encode: (image: Sharp) => image.webp({ quality: 72, effort: 4 }) },
  "image/jpeg": { extension: "jpg", encode: (image: Sharp) => image.jpeg({ quality: 75, mozjpeg: true }) },
  "image/png": { extension: "png", encode: (image: Sharp) => image.png({ compressionLevel: 9, palette: false }) },
} as const;

export type OutputType = keyof typeof ENCODERS;

/** Changing an encoder setting changes this, so outputs cached with the old settings are not reused. */
export const ENCODER_SETTINGS_VERSION = JSON.stringify({
  v: 1,
  sharp: sharp.versions.sharp,
  encoders: Object.fromEntries(Object.entries(ENCODERS).map(([type, { encode }]) => [type, encode.toString()])),
});

export type VariantJob = { type: OutputType; width: number };

/** Every variant of an image this wide: each width in AVIF and WebP, then the fallback at the largest. */
export function variantJobs(width: number, hasAlpha: boolean): VariantJob[] {
  const widths = variantWidthsFor(width);
  return [
    ...widths.flatMap((w) => VARIANT_TYPES.map((type: VariantType) => ({ type, width: w }))),
    { type: fallbackTypeFor(hasAlpha), width: widths[widths.length - 1]! },
  ];
}

export type EncodedVariant = { type: OutputType; width: number; height: number; data: Buffer };

/**
 * One variant of `source`. The camera's EXIF rotation is applied first; metadata (EXIF with its
 * GPS position, camera serials) is dropped and colours are converted to sRGB. `limitInputPixels`
 * bounds what the decoder will take.
 */
export async function encodeVariant(
  source: Buffer,
  job: VariantJob,
  limitInputPixels: number | false = false,
): Promise<EncodedVariant> {
  const image = sharp(source, { autoOrient: true, limitInputPixels }).resize({ width: job.width, withoutEnlargement: true });
  const { data, info } = await ENCODERS[job.type].encode(image).toBuffer({ resolveWithObject: true });
  return { type: job.type, width: info.width, height: info.height, data };
}
