// Production entry: `npm start`. Everything else lives in server/app.ts (compiled by `npm run build`).
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
const entry = path.join(buildDir, "server/index.js");
if (!existsSync(entry)) {
  process.stderr.write(`No production build at ${entry}: run \`npm run build\` first.\n`);
  process.exit(1);
}
const { startServer } = await import(pathToFileURL(entry).href);
await startServer();
