import { Hono } from "hono";
import { z } from "zod";
import { deleteAsset, storeAssets } from "~/.server/storage/files";
import type { ApiEnv } from "./context";
import { defineRoute } from "./registry";

/** Assets (api.md §8). GET /assets/{hash}/{name} is served outside /api (workers/app.ts). */
export const assets = new Hono<ApiEnv>();
const tag = "Assets";

const uploadQuerySchema = z.object({ filename: z.string().max(255).optional() });

defineRoute(assets, { method: "POST", path: "/assets", auth: "Admin", tag, summary: "Upload one or more files (multipart `files`)", query: uploadQuerySchema, rawBody: "multipart", fileField: "files", upload: "attachments" }, async (c, { query }) => {
  const form = await c.req.formData().catch(() => null);
  const uploads = form ? form.getAll("files") : [];
  return c.json(await storeAssets({ db: c.get("db"), bucket: c.env.FILES, now: c.get("now") }, uploads, query.filename));
});

defineRoute(assets, { method: "DELETE", path: "/assets/:hash", auth: "Admin", tag, summary: "Release a file (removed with its last reference)" }, async (c) => {
  const { gone } = await deleteAsset({ db: c.get("db"), bucket: c.env.FILES }, c.req.param("hash") ?? "");
  return c.json({ title: c.get("t")(gone ? "asset.deleted" : "asset.released"), status: 200 });
});
