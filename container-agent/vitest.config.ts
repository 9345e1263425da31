import { defineConfig } from "vitest/config";

// Agent suite: a real Docker engine (DOCKER_HOST, default the private test engine) and images built from a
// local root filesystem by scripts/test-image.sh.
export default defineConfig({
  test: {
    root: import.meta.dirname,
    environment: "node",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The Docker tests share one engine on small machines: one file at a time keeps timings predictable.
    fileParallelism: false,
  },
});
