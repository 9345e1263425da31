import { defineConfig } from "vitest/config";

// Pure code in Node: tests beside the code in app/ and workers/, plus the launcher's own helpers.
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    environment: "node",
    // Files share their workers' module graph instead of importing it again each (84 files: 41 → 11 s, 50 →
    // 13 CPU-s, DECISIONS.md); files that stub globals, timers or mocks undo it in afterEach.
    isolate: false,
    include: ["app/**/*.test.ts", "workers/**/*.test.ts", "scripts/**/*.test.mjs", "bench/**/*.test.mjs"],
    exclude: ["**/node_modules/**", "build/**", "tests/**", "**/*.integration.test.ts"],
  },
});
