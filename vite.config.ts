import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { localeChunks } from "./app/locales/chunks.vite.ts";
import { shellChunk } from "./app/shell-chunk.vite.ts";

export default defineConfig({
  plugins: [cloudflare({ viteEnvironment: { name: "ssr" } }), tailwindcss(), reactRouter(), localeChunks()],
  resolve: { tsconfigPaths: true },
  environments: {
    // The libraries every page runs (React, React Router, i18next) in one browser chunk: gzipped together they
    // are 3.2 kB smaller than as the six chunks the automatic split made (first-load JS, BENCHMARKS.md). The
    // app modules every page runs (the root's and the client entry's static imports) in another: 1.4 kB.
    client: {
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                { name: "framework", test: /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler|i18next|react-i18next)[\\/]/ },
                { name: shellChunk(["app/root.tsx", "app/entry.client.tsx"]) },
              ],
            },
          },
        },
      },
    },
    // One server module: workerd tests load the built worker, and chunk imports between build files
    // do not resolve there (DECISIONS.md, 2026-11-21).
    ssr: { build: { rolldownOptions: { output: { codeSplitting: false } } } },
  },
});
