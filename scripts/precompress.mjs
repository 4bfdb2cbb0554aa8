// After `react-router build`: write a .br (brotli, max quality) and .gz copy of every text asset,
// so the server sends precompressed files instead of compressing on each request.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const root = path.resolve(process.env.BUILD_DIR ?? "build", "client");
const compressible = /\.(js|mjs|css|svg|json|txt|xml|html)$/;
let count = 0;

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) walk(file);
    else if (compressible.test(name)) {
      const source = readFileSync(file);
      // Every file a smaller copy helps, however small (the root route's module is a few lines).
      const brotli = brotliCompressSync(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
      if (brotli.length >= source.length) continue;
      writeFileSync(`${file}.br`, brotli);
      const gzip = gzipSync(source, { level: 9 });
      if (gzip.length < source.length) writeFileSync(`${file}.gz`, gzip);
      count += 1;
    }
  }
}

walk(root);
console.log(`precompressed ${count} assets (brotli + gzip)`);
