import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    include: ["tests/unit/**/*.test.{ts,tsx}", "tests/data/**/*.test.ts"],
    environment: "node",
    // Both cores: Vitest's default leaves one idle for the watcher, and the data tests mostly wait on
    // their databases (each file makes its own), so two files at once halve the stage.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
