import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "packages/*/test/**/*.test.ts",
      "services/*/test/**/*.test.ts",
      "plugins/**/*.test.ts",
      "apps/*/test/**/*.test.ts",
      "test/**/*.test.ts",
    ],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    // expect.poll waits for what a person would see (a browser repaint, a background job): 1 s is too short on a busy
    // two-core machine; a poll that passes still returns as soon as it passes.
    expect: { poll: { timeout: 15_000 } },
    hookTimeout: 180_000,
    pool: "forks",
    maxWorkers: 2,
  },
});
