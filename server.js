// The server's entry: `npm start` (the production build) and `npm run dev`. Everything else lives in
// server/app.ts (compiled into the build by `npm run build`, loaded through Vite in development).
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

// `npm run dev`: the same server, with Vite in middleware mode compiling the source on demand.
if (process.env.NODE_ENV === "development") {
  const { createServer } = await import("vite");
  const vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
  const { startServer } = await vite.ssrLoadModule("./server/app.ts");
  await startServer({ vite });
} else {
  const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
  const entry = path.join(buildDir, "server/index.js");
  if (!existsSync(entry)) {
    process.stderr.write(`No production build at ${entry}: run \`npm run build\` first.\n`);
    process.exit(1);
  }

  // A deployment says NODE_ENV=production and must then name its public origin (SITE_URL).
  // Without NODE_ENV this is someone trying the build on their own machine: it still runs the
  // production build, and describes itself as localhost unless told otherwise.
  if (!process.env.NODE_ENV) {
    process.env.NODE_ENV = "production";
    if (!process.env.SITE_URL) {
      process.env.SITE_URL = `http://localhost:${process.env.PORT || 3000}`;
      process.stderr.write(
        `SITE_URL is not set: this local run uses ${process.env.SITE_URL}. Deployments set NODE_ENV=production and SITE_URL (see docs/operations.md, Deploying).\n`,
      );
    }
  }
  const { startServer } = await import(pathToFileURL(entry).href);
  await startServer();
}
