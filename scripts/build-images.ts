// Part of `npm run build`, after `react-router build` (which empties the build folder): every raster
// image under public/ becomes AVIF and WebP variants in BUILD/client/assets/images (served by the
// /assets handler: fingerprinted, immutable) and BUILD/image-manifest.json, which the server reads
// at start to draw those images as <picture>. Encoded files are kept in node_modules/.cache by the
// hash of their source, so an unchanged image is not encoded again on the next build.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { buildManifest } from "./lib/image-variants";

const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
const started = Date.now();
const manifest = await buildManifest(
  path.resolve("public"),
  {
    outDir: path.join(buildDir, "client/assets/images"),
    cacheDir: path.resolve("node_modules/.cache/responsive-images"),
  },
  (line) => console.log(`  ${line}`),
);
writeFileSync(path.join(buildDir, "image-manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
console.log(
  `responsive images: ${Object.keys(manifest.images).length} source images → ${path.relative(process.cwd(), buildDir)}/image-manifest.json (${Date.now() - started} ms)`,
);
