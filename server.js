// Production entry: `npm start`. Everything else lives in server/app.ts (compiled by `npm run build`).
import path from "node:path";
import { pathToFileURL } from "node:url";

const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
const { startServer } = await import(pathToFileURL(path.join(buildDir, "server/index.js")).href);
await startServer();
