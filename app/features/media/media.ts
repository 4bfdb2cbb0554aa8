import { fallbackTypeFor, variantWidthsFor, type ResponsiveImage, type VariantType } from "~/features/media/responsive-image";

// Images uploaded in the back office: their limits, their public URLs and their `<picture>`.
// Shared by the server and the back office's pages (nothing here touches the database).
//
// URLs, under MEDIA_PATH, each naming the image's id (a UUID that is never reused, whose bytes
// never change, so every URL is cached as immutable):
//   /media/<id>/<name>.<ext>           the stored image, in its own format (post image_url, markup)
//   /media/<id>/<name>.<width>w.<ext>  a responsive variant: AVIF, WebP, or the JPEG/PNG fallback
// <name> is made of letters, digits and hyphens only, so the two never meet.

export const MEDIA_PATH = "/media";

/** The largest file accepted, in bytes (10 MB). */
export const MAX_UPLOAD_BYTES = 10_000_000;
/** The most pixels an uploaded image may have: decoding one costs about 4 bytes a pixel. */
export const MAX_UPLOAD_PIXELS = 40_000_000;
/** The longest side accepted: WebP and AVIF encoders stop at 16,383 pixels. */
export const MAX_UPLOAD_SIDE = 16_000;
/** Alt text: required, and one or two sentences at most. */
export const MAX_ALT_LENGTH = 300;

/** The formats accepted, by what the file's content is (never its name). */
export const MEDIA_TYPES = {
  "image/jpeg": { extension: "jpg", label: "JPEG" },
  "image/png": { extension: "png", label: "PNG" },
  "image/webp": { extension: "webp", label: "WebP" },
  "image/avif": { extension: "avif", label: "AVIF" },
} as const;

export type MediaType = keyof typeof MEDIA_TYPES;

const ACCEPTED = Object.values(MEDIA_TYPES)
  .map((type) => type.label)
  .join(", ");

/** The messages an upload can be refused with, each telling what to do. */
export const UPLOAD_MESSAGES = {
  missing: "Choose an image file to upload.",
  empty: "The file is empty.",
  tooLarge: `The file is larger than ${formatBytes(MAX_UPLOAD_BYTES)}. Make it smaller (export it at a lower quality or size) and upload it again.`,
  notImage: `This file is not an image the site can use: upload a ${ACCEPTED} file.`,
  svg: `SVG images are not accepted: they can carry scripts. Export the image as PNG and upload that.`,
  otherFormat: (format: string) => `${format.toUpperCase()} images are not accepted: upload a ${ACCEPTED} file.`,
  tooManyPixels: (width: number, height: number) =>
    `This image is ${width.toLocaleString("en-US")} × ${height.toLocaleString("en-US")} pixels; the limit is ${MAX_UPLOAD_PIXELS / 1_000_000} megapixels. Scale it down and upload it again.`,
  tooLong: `An image may be at most ${MAX_UPLOAD_SIDE.toLocaleString("en-US")} pixels wide or high. Scale it down and upload it again.`,
  damaged: "The image is damaged or incomplete (perhaps cut off while copying). Export it again and upload the new file.",
} as const;

export const ALT_MESSAGES = {
  missing: "Describe the image for people who cannot see it (alt text is required).",
  tooLong: `Alt text is at most ${MAX_ALT_LENGTH} characters: describe the image in a sentence or two.`,
} as const;

const VARIANT_EXTENSIONS = { "image/avif": "avif", "image/webp": "webp", "image/jpeg": "jpg", "image/png": "png" } as const;
export type MediaVariantType = keyof typeof VARIANT_EXTENSIONS;

/** What drawing an uploaded image needs: its id, URL name and size. */
export type MediaDimensions = {
  id: string;
  fileName: string;
  contentType: MediaType;
  width: number;
  height: number;
  hasAlpha: boolean;
};

/** An image as a post uses it: `url` goes in a post's image_url or in `![alt](url)`. */
export type StoredImage = { id: string; url: string; width: number; height: number; alt: string };

/** An image as the library and the picker show it. */
export type MediaItem = StoredImage & {
  fileName: string;
  originalName: string;
  /** JPEG, PNG, WebP or AVIF. */
  type: string;
  /** The stored file's size, for people ("1.2 MB"). */
  size: string;
  /** Its responsive variants, drawn with ResponsivePicture (thumbnails take the smallest). */
  picture: ResponsiveImage;
  uploadedAt: string;
  /** The posts whose image_url, body or revisions use it: while there are any, it cannot be deleted. */
  usedBy: { id: string; title: string; href: string; published: boolean; onlyInRevisions: boolean }[];
};

/** A file name for URLs: the uploaded name's letters, digits and hyphens ("Team photo (1).JPG" → "team-photo-1"). */
export function mediaFileName(uploadedName: string): string {
  const stem = uploadedName
    .replace(/\.[A-Za-z0-9]{1,8}$/, "")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "");
  const cleaned = stem
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return cleaned || "image";
}

/** The stored image's URL: what a post's image_url or `![alt](url)` uses. */
export function mediaUrl(image: Pick<MediaDimensions, "id" | "fileName" | "contentType">): string {
  return `${MEDIA_PATH}/${image.id}/${image.fileName}.${MEDIA_TYPES[image.contentType].extension}`;
}

export function mediaVariantUrl(image: Pick<MediaDimensions, "id" | "fileName">, type: MediaVariantType, width: number): string {
  return `${MEDIA_PATH}/${image.id}/${image.fileName}.${width}w.${VARIANT_EXTENSIONS[type]}`;
}

export type MediaPath =
  | { kind: "original"; id: string; fileName: string; extension: string }
  | { kind: "variant"; id: string; fileName: string; width: number; type: MediaVariantType };

/** An image's id in its URLs: a lower-case UUID. */
const MEDIA_ID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const MEDIA_PATH_PATTERN = new RegExp(`^${MEDIA_PATH}/(${MEDIA_ID})/([a-z0-9-]+)(?:\\.(\\d{1,5})w)?\\.([a-z]+)$`);
const MEDIA_REFERENCE = new RegExp(`${MEDIA_PATH}/(${MEDIA_ID})/`, "g");

/** The ids of uploaded images that URLs or texts (a post's body) refer to. */
export function mediaIdsIn(texts: readonly (string | null | undefined)[]): string[] {
  const ids = new Set<string>();
  for (const text of texts) for (const match of (text ?? "").matchAll(MEDIA_REFERENCE)) ids.add(match[1]!);
  return [...ids];
}

/** What a site path under /media names, or undefined when it is no media URL (query and fragment ignored). */
export function parseMediaPath(url: string): MediaPath | undefined {
  const match = MEDIA_PATH_PATTERN.exec(url.split(/[?#]/, 1)[0]!);
  if (!match) return undefined;
  const [, id, fileName, width, extension] = match as unknown as [string, string, string, string | undefined, string];
  if (width === undefined) return { kind: "original", id, fileName, extension };
  const type = (Object.keys(VARIANT_EXTENSIONS) as MediaVariantType[]).find((key) => VARIANT_EXTENSIONS[key] === extension);
  return type ? { kind: "variant", id, fileName, width: Number(width), type } : undefined;
}

/** The `<picture>` of an uploaded image: the same shape the build's manifest gives built-in images. */
export function mediaPicture(image: MediaDimensions): ResponsiveImage {
  const widths = variantWidthsFor(image.width);
  const largest = widths[widths.length - 1]!;
  const sources = (["image/avif", "image/webp"] as const satisfies readonly VariantType[]).map((type) => ({
    type,
    srcSet: widths.map((width) => `${mediaVariantUrl(image, type, width)} ${width}w`).join(", "),
  }));
  return {
    src: mediaVariantUrl(image, fallbackTypeFor(image.hasAlpha), largest),
    width: largest,
    height: Math.max(1, Math.round((image.height * largest) / image.width)),
    sources,
  };
}

/** "1.2 MB", "340 KB": a file size for people. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1_000_000) return `${(bytes / 1_000_000).toFixed(1).replace(/\.0$/, "")} MB`;
  return `${Math.max(1, Math.round(bytes / 1000))} KB`;
}
