// Turns raster images into the responsive variants the site serves (see app/lib/responsive-image.ts):
// AVIF and WebP at the standard widths, plus one fallback in the original's format. File names
// carry a hash of their bytes, so a changed image gets a new URL and every URL can be cached forever.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import sharp, { type Sharp } from "sharp";
import {
  RASTER_EXTENSIONS,
  VARIANTS_PATH,
  variantWidthsFor,
  type ImageFile,
  type ImageManifest,
  type ManifestEntry,
  type VariantType,
} from "../../app/lib/responsive-image";

/** Encoder settings: visually close to the original at a fraction of its bytes. */
const ENCODERS = {
  "image/avif": { extension: "avif", encode: (image: Sharp) => image.avif({ quality: 50, effort: 4 }) },
  "image/webp": { extension: "webp", encode: (image: Sharp) => image.webp({ quality: 72, effort: 4 }) },
  "image/jpeg": { extension: "jpg", encode: (image: Sharp) => image.jpeg({ quality: 75, mozjpeg: true }) },
  "image/png": { extension: "png", encode: (image: Sharp) => image.png({ compressionLevel: 9, palette: false }) },
} as const;

type OutputType = keyof typeof ENCODERS;

/** Changing an encoder setting changes this, so cached outputs made with the old settings are not reused. */
const SETTINGS_VERSION = JSON.stringify({
  v: 1,
  sharp: sharp.versions.sharp,
  encoders: Object.fromEntries(Object.entries(ENCODERS).map(([type, { encode }]) => [type, encode.toString()])),
});

export type VariantOptions = {
  /** Where the variant files are written; they are served at VARIANTS_PATH. */
  outDir: string;
  /** Encoded files by content: a rebuild of an unchanged image reads them instead of encoding again. */
  cacheDir?: string;
};

export type ProcessedImage = { entry: ManifestEntry; fromCache: boolean };

/** Every variant of one source image, written to outDir; the manifest entry describing them. */
export async function processImage(source: Buffer, name: string, options: VariantOptions): Promise<ProcessedImage> {
  const key = createHash("sha256").update(SETTINGS_VERSION).update(source).digest("hex");
  const cached = options.cacheDir ? readCache(options.cacheDir, key) : undefined;
  const outputs = cached ?? (await encodeAll(source));
  if (options.cacheDir && !cached) writeCache(options.cacheDir, key, outputs);

  mkdirSync(options.outDir, { recursive: true });
  const stem = name.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "") || "image";
  const files = outputs.variants.map((variant) => {
    const hash = createHash("sha256").update(variant.data).digest("hex").slice(0, 12);
    const fileName = `${stem}-${variant.width}w.${hash}.${ENCODERS[variant.type].extension}`;
    writeFileSync(path.join(options.outDir, fileName), variant.data);
    const file: ImageFile = {
      src: `${VARIANTS_PATH}/${fileName}`,
      width: variant.width,
      height: variant.height,
      bytes: variant.data.length,
    };
    return { type: variant.type, file };
  });
  const of = (type: VariantType) => files.filter((file) => file.type === type).map((file) => file.file);
  const fallback = files.find((file) => file.type === "image/jpeg" || file.type === "image/png")!;
  return {
    entry: {
      width: outputs.width,
      height: outputs.height,
      variants: { "image/avif": of("image/avif"), "image/webp": of("image/webp") },
      fallback: { ...fallback.file, type: fallback.type as "image/jpeg" | "image/png" },
    },
    fromCache: Boolean(cached),
  };
}

type Encoded = { type: OutputType; width: number; height: number; data: Buffer };
type Outputs = { width: number; height: number; variants: Encoded[] };

async function encodeAll(source: Buffer): Promise<Outputs> {
  // autoOrient applies the camera's EXIF rotation, so width and height are as the picture is seen.
  const metadata = await sharp(source, { autoOrient: true }).metadata();
  const width = metadata.autoOrient?.width ?? metadata.width;
  const height = metadata.autoOrient?.height ?? metadata.height;
  if (!width || !height) throw new Error("not a raster image sharp can read");
  const widths = variantWidthsFor(width);
  const fallbackType: OutputType = metadata.hasAlpha ? "image/png" : "image/jpeg";
  const jobs: { type: OutputType; width: number }[] = [
    ...widths.flatMap((w) => (["image/avif", "image/webp"] as const).map((type) => ({ type, width: w }))),
    { type: fallbackType, width: widths[widths.length - 1]! },
  ];
  const variants: Encoded[] = [];
  for (const job of jobs) {
    // Metadata (EXIF with its GPS position, camera serials) is dropped; colours are converted to sRGB.
    const image = sharp(source, { autoOrient: true }).resize({ width: job.width, withoutEnlargement: true });
    const { data, info } = await ENCODERS[job.type].encode(image).toBuffer({ resolveWithObject: true });
    variants.push({ type: job.type, width: info.width, height: info.height, data });
  }
  return { width, height, variants };
}

function readCache(cacheDir: string, key: string): Outputs | undefined {
  const dir = path.join(cacheDir, key);
  const index = path.join(dir, "index.json");
  if (!existsSync(index)) return undefined;
  try {
    const outputs = JSON.parse(readFileSync(index, "utf8")) as Omit<Outputs, "variants"> & {
      variants: Omit<Encoded, "data">[];
    };
    return {
      ...outputs,
      variants: outputs.variants.map((variant, i) => ({ ...variant, data: readFileSync(path.join(dir, String(i))) })),
    };
  } catch {
    return undefined; // a damaged cache entry is made again
  }
}

function writeCache(cacheDir: string, key: string, outputs: Outputs) {
  const dir = path.join(cacheDir, key);
  mkdirSync(dir, { recursive: true });
  outputs.variants.forEach((variant, i) => writeFileSync(path.join(dir, String(i)), variant.data));
  const index = { ...outputs, variants: outputs.variants.map(({ data: _data, ...rest }) => rest) };
  writeFileSync(path.join(dir, "index.json"), JSON.stringify(index));
}

/** Raster files under a folder, as site paths (`public/images/a.jpg` → `/images/a.jpg`). */
export function rasterFilesUnder(root: string): { file: string; sitePath: string }[] {
  const found: { file: string; sitePath: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (RASTER_EXTENSIONS.some((extension) => entry.name.toLowerCase().endsWith(extension))) {
        found.push({ file, sitePath: `/${path.relative(root, file).split(path.sep).join("/")}` });
      }
    }
  };
  if (existsSync(root)) walk(root);
  return found.sort((a, b) => a.sitePath.localeCompare(b.sitePath));
}

/** Processes every raster file under publicDir; returns the manifest for them. */
export async function buildManifest(
  publicDir: string,
  options: VariantOptions,
  log: (line: string) => void = () => {},
): Promise<ImageManifest> {
  const manifest: ImageManifest = { version: 1, images: {} };
  for (const { file, sitePath } of rasterFilesUnder(publicDir)) {
    const source = readFileSync(file);
    const { entry, fromCache } = await processImage(source, path.basename(file).replace(/\.[^.]+$/, ""), options);
    manifest.images[sitePath] = entry;
    const largest = (type: VariantType) => entry.variants[type].at(-1)?.bytes ?? 0;
    log(
      `${sitePath}: ${entry.width}×${entry.height}, ${source.length} bytes → ` +
        `${entry.variants["image/avif"].length} widths; largest AVIF ${largest("image/avif")}, WebP ${largest("image/webp")}, ` +
        `fallback ${entry.fallback.bytes} bytes${fromCache ? " (cached)" : ""}`,
    );
  }
  return manifest;
}
