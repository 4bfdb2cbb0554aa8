// Turns raster images into the responsive variants the site serves (see app/features/media/responsive-image.ts):
// AVIF and WebP at the standard widths, plus one fallback in the original's format. File names
// carry a hash of their bytes, so a changed image gets a new URL and every URL can be cached forever.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import {
  ENCODER_SETTINGS_VERSION,
  ENCODERS,
  encodeVariant,
  variantJobs,
  type EncodedVariant,
} from "../../app/features/media/image-encoding.server";
import {
  RASTER_EXTENSIONS,
  VARIANTS_PATH,
  type ImageFile,
  type ImageManifest,
  type ManifestEntry,
  type VariantType,
} from "../../app/features/media/responsive-image";

export type VariantOptions = {
  /** Where the variant files are written; they are served at VARIANTS_PATH. */
  outDir: string;
  /** Encoded files by content: a rebuild of an unchanged image reads them instead of encoding again. */
  cacheDir?: string;
};

export type ProcessedImage = { entry: ManifestEntry; fromCache: boolean };

/** Every variant of one source image, written to outDir; the manifest entry describing them. */
export async function processImage(source: Buffer, name: string, options: VariantOptions): Promise<ProcessedImage> {
  const key = createHash("sha256").update(ENCODER_SETTINGS_VERSION).update(source).digest("hex");
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

type Outputs = { width: number; height: number; variants: EncodedVariant[] };

async function encodeAll(source: Buffer): Promise<Outputs> {
  // autoOrient applies the camera's EXIF rotation, so width and height are as the picture is seen.
  const metadata = await sharp(source, { autoOrient: true }).metadata();
  const width = metadata.autoOrient?.width ?? metadata.width;
  const height = metadata.autoOrient?.height ?? metadata.height;
  if (!width || !height) throw new Error("not a raster image sharp can read");
  const variants: EncodedVariant[] = [];
  for (const job of variantJobs(width, Boolean(metadata.hasAlpha))) variants.push(await encodeVariant(source, job));
  return { width, height, variants };
}

function readCache(cacheDir: string, key: string): Outputs | undefined {
  const dir = path.join(cacheDir, key);
  const index = path.join(dir, "index.json");
  if (!existsSync(index)) return undefined;
  try {
    const outputs = JSON.parse(readFileSync(index, "utf8")) as Omit<Outputs, "variants"> & {
      variants: Omit<EncodedVariant, "data">[];
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
