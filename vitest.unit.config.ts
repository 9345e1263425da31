import { defineConfig } from "vitest/config";

// Pure code in Node: tests beside the code in app/ and workers/, plus the launcher's own helpers.
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    environment: "node",
    include: ["app/**/*.test.ts", "workers/**/*.test.ts", "scripts/**/*.test.mjs", "bench/**/*.test.mjs"],
    exclude: ["**/node_modules/**", "build/**", "tests/**", "**/*.integration.test.ts"],
  },
});
