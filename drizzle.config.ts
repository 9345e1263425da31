import { defineConfig } from "drizzle-kit";

// Migrations land in wrangler's migrations_dir; apply them with `wrangler d1 migrations apply DB`.
export default defineConfig({
  dialect: "sqlite",
  schema: "./app/.server/db/schema/index.ts",
  out: "./migrations",
});
