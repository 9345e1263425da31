import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { localeChunks } from "./app/locales/chunks.vite.ts";

export default defineConfig({
  plugins: [cloudflare({ viteEnvironment: { name: "ssr" } }), tailwindcss(), reactRouter(), localeChunks()],
  resolve: { tsconfigPaths: true },
  environments: {
    // One server module: workerd tests load the built worker, and chunk imports between build files
    // do not resolve there (DECISIONS.md, 2026-11-21).
    ssr: { build: { rolldownOptions: { output: { codeSplitting: false } } } },
  },
});
