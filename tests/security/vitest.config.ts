import { defineConfig } from "vitest/config";

// The security and durability suite in Node: instrumented unit checks (tests/security) and the crash
// test that drives the real `npm start` server (tests/durability, needs a build). See SECURITY.md.
export default defineConfig({
  root: new URL("../..", import.meta.url).pathname,
  resolve: { tsconfigPaths: true },
  test: {
    environment: "node",
    include: ["tests/security/**/*.test.ts", "tests/durability/**/*.test.mjs"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
