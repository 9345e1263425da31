import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // FLAGSTAFF_BUILD_DIR lets parallel work (or a second checkout's tests) build without replacing build/.
  buildDirectory: process.env.FLAGSTAFF_BUILD_DIR ?? "build",
} satisfies Config;
