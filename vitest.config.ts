import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    include: ["tests/unit/**/*.test.{ts,tsx}", "tests/data/**/*.test.ts"],
    environment: "node",
    // More files than cores: the data tests mostly wait on their databases (each file makes its
    // own), so a third file at once fills the cores' idle time (on two cores: 124 s against 138 s).
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
