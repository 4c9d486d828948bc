import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "packages/*/test/**/*.test.ts",
      "services/*/test/**/*.test.ts",
      "plugins/**/*.test.ts",
      "test/**/*.test.ts",
    ],
    testTimeout: 30_000,
    hookTimeout: 180_000,
    pool: "forks",
    maxWorkers: 2,
  },
});
