import { eq } from "drizzle-orm";
import { env } from "cloudflare:workers";
import { afterAll, describe, expect, it } from "vitest";
import { files } from "~/.server/db/schema";
import { blobKey } from "~/.server/storage/files";
import { DEFAULT_BRAND } from "~/core/colour";
import type { ClientConfig } from "~/core/schemas/config";
import { Client, db, newUser } from "./helpers";
import { newAdmin, png, sha256 } from "./content-helpers";
import type { ErrorBody } from "./game-helpers";

type Settings = {
  accountPolicy: Record<string, unknown>;
  globalConfig: { title: string; slogan: string; description: string; footerInfo: string; customTheme: string; logoHash: string | null; faviconHash: string | null };
  containerPolicy: Record<string, unknown>;
};

function logoForm(bytes: Uint8Array<ArrayBuffer> | null) {
  const f = new FormData();
  if (bytes) f.append("file", new File([bytes], "logo.png", { type: "image/png" }));
  return f;
}

// Settings are global: every test restores what it changed.
let restore: Settings | null = null;
afterAll(async () => {
  if (!restore) return;
  const { client: admin } = await newAdmin();
  const { logoHash: _l, faviconHash: _f, ...global } = restore.globalConfig;
  await admin.json("/api/admin/config", { method: "PUT", body: { ...restore, globalConfig: global } });
  await admin.json("/api/admin/config/logo", { method: "DELETE" });
});

describe("branding (api.md §7, rules.md §16)", () => {
  it("updates the platform section partially and GET /api/config reflects it at once", async () => {
    const { client: admin } = await newAdmin();
    restore = (await admin.json<Settings>("/api/admin/config")).body;
    const anon = new Client();
    const before = await anon.fetch("/api/config");
    const etag = before.headers.get("etag")!;
    await before.text();

    const put = await admin.json<{ title: string; status: number }>("/api/admin/config", {
      method: "PUT",
      body: { globalConfig: { title: "Brand CTF", slogan: "Hack", footerInfo: "**Footer**", description: "# About" } },
    });
    expect(put.status).toBe(200);
    const config = await anon.json<ClientConfig>("/api/config", { headers: { "if-none-match": etag } });
    expect(config.status).toBe(200);
    expect(config.body).toMatchObject({ title: "Brand CTF", slogan: "Hack", footerInfo: "**Footer**" });
    expect(config.res.headers.get("etag")).not.toBe(etag);
    const same = await anon.fetch("/api/config", { headers: { "if-none-match": config.res.headers.get("etag")! } });
    expect(same.status).toBe(304);

    // Omitted and null fields stay; other sections untouched.
    await admin.json("/api/admin/config", { method: "PUT", body: { globalConfig: { slogan: null, title: "Brand CTF 2" }, containerPolicy: null } });
    const settings = (await admin.json<Settings>("/api/admin/config")).body;
    expect(settings.globalConfig).toMatchObject({ title: "Brand CTF 2", slogan: "Hack", description: "# About", footerInfo: "**Footer**" });
    expect(settings.accountPolicy).toEqual(restore.accountPolicy);
    expect(settings.containerPolicy).toEqual(restore.containerPolicy);

    // The About page reads the description from the server.
    const about = await anon.fetch("/about");
    expect(about.status).toBe(200);
    expect(await about.text()).toContain("<h2>About</h2>");
  });

  it("normalises the colour: 7-character hex or brand, anything else cleared", async () => {
    const { client: admin } = await newAdmin();
    const anon = new Client();
    const set = async (customTheme: string) => {
      expect((await admin.json("/api/admin/config", { method: "PUT", body: { globalConfig: { customTheme } } })).status).toBe(200);
      return (await anon.json<ClientConfig>("/api/config")).body.customTheme;
    };
    expect(await set("#12ab3C")).toBe("#12ab3C");
    expect(await set("brand")).toBe("brand");
    expect(await set("#fff")).toBe("");
    expect(await set("#12ab3c")).toBe("#12ab3c");
    expect(await set("red")).toBe("");
    expect(await set("#12345678")).toBe("");
    // Anything else, too long or not a string, clears it (api.md §7).
    expect(await set("x".repeat(33))).toBe("");

    // The page applies the colour as the primary palette, with readable text on it.
    await set("#ffee00");
    const page = await (await anon.fetch("/")).text();
    expect(page).toMatch(/--brand:\s*#ffee00/);
    expect(page).toMatch(/--on-primary-500:\s*#09090b/);
  });

  it("validates the other sections", async () => {
    const { client: admin } = await newAdmin();
    expect((await admin.json("/api/admin/config", { method: "PUT", body: { containerPolicy: { defaultLifetime: 0 } } })).status).toBe(400);
    expect((await admin.json("/api/admin/config", { method: "PUT", body: { containerPolicy: { renewalWindow: 361 } } })).status).toBe(400);
    expect((await admin.json("/api/admin/config", { method: "PUT", body: { globalConfig: { title: "" } } })).status).toBe(400);
    const ok = await admin.json("/api/admin/config", { method: "PUT", body: { containerPolicy: { defaultLifetime: 90, autoDestroyOnLimitReached: true, extraFlagEnvNames: ["MY_FLAG"] }, accountPolicy: { emailDomainList: "example.com" } } });
    expect(ok.status).toBe(200);
    const settings = (await admin.json<Settings>("/api/admin/config")).body;
    expect(settings.containerPolicy).toMatchObject({ defaultLifetime: 90, autoDestroyOnLimitReached: true, extraFlagEnvNames: ["MY_FLAG"] });
    expect(settings.accountPolicy).toMatchObject({ emailDomainList: "example.com" });
    expect((await new Client().json<ClientConfig>("/api/config")).body.defaultLifetime).toBe(90);
    // A whitelist entry that is not a domain is refused by name, in the admin's language; the list is kept.
    const ja = new Client({ lang: "ja-JP" });
    ja.cookie = admin.cookie;
    const bad = await ja.json<ErrorBody>("/api/admin/config", { method: "PUT", body: { accountPolicy: { emailDomainList: "example.org, bad domain!!" } } });
    expect(bad.status).toBe(400);
    expect(bad.body.title).toBe("メールドメインの許可リスト：「bad domain!!」はドメイン名ではありません");
    expect((await admin.json<Settings>("/api/admin/config")).body.accountPolicy.emailDomainList).toBe("example.com");
    await admin.json("/api/admin/config", { method: "PUT", body: { accountPolicy: { emailDomainList: "" } } });
  });

  it("uploads and resets the logo, which is also the favicon, releasing the old file", async () => {
    const { client: admin } = await newAdmin();
    const anon = new Client();
    const first = png(`logo-1-${Date.now()}`);
    const r = await admin.json<string>("/api/admin/config/logo", { method: "POST", raw: logoForm(first) });
    expect(r.status).toBe(200);
    const hash = await sha256(first);
    expect(r.body).toBe(`/assets/${hash}/logo`);
    expect((await anon.json<ClientConfig>("/api/config")).body.logoUrl).toBe(`/assets/${hash}/logo`);
    const settings = (await admin.json<Settings>("/api/admin/config")).body;
    expect(settings.globalConfig).toMatchObject({ logoHash: hash, faviconHash: hash });
    const served = await anon.fetch(`/assets/${hash}/logo`);
    expect(served.headers.get("content-type")).toBe("image/png");
    await served.arrayBuffer();
    const page = await (await anon.fetch("/")).text();
    expect(page).toContain(`href="/assets/${hash}/logo"`);

    // A new logo replaces and releases the old one.
    const second = png(`logo-2-${Date.now()}`);
    const r2 = await admin.json<string>("/api/admin/config/logo", { method: "POST", raw: logoForm(second) });
    const hash2 = await sha256(second);
    expect(r2.body).toBe(`/assets/${hash2}/logo`);
    expect(await db().select().from(files).where(eq(files.hash, hash)).get()).toBeUndefined();
    expect(await env.FILES.head(blobKey(hash))).toBeNull();

    const reset = await admin.json<{ status: number }>("/api/admin/config/logo", { method: "DELETE" });
    expect(reset.status).toBe(200);
    expect((await anon.json<ClientConfig>("/api/config")).body.logoUrl).toBeNull();
    expect((await admin.json<Settings>("/api/admin/config")).body.globalConfig).toMatchObject({ logoHash: null, faviconHash: null });
    expect(await env.FILES.head(blobKey(hash2))).toBeNull();
    // Resetting twice is fine.
    expect((await admin.json("/api/admin/config/logo", { method: "DELETE" })).status).toBe(200);
  });

  it("draws the default favicon in the admin's colour, and the logo replaces it", async () => {
    const { client: admin } = await newAdmin();
    const anon = new Client();
    const icons = async () => [...(await (await anon.fetch("/")).text()).matchAll(/<link rel="icon" href="([^"]*)"/g)].map((m) => m[1]!);
    const fillOf = (href: string) => {
      expect(href.startsWith("data:image/svg+xml,")).toBe(true);
      return /<rect [^>]*fill="([^"]+)"/.exec(decodeURIComponent(href.slice("data:image/svg+xml,".length)))?.[1];
    };
    const setColour = async (customTheme: string) => expect((await admin.json("/api/admin/config", { method: "PUT", body: { globalConfig: { customTheme } } })).status).toBe(200);

    await setColour("#e11d48");
    const custom = await icons();
    expect(custom).toHaveLength(1);
    expect(fillOf(custom[0]!)).toBe("#e11d48");

    const logo = png(`favicon-${Date.now()}`);
    expect((await admin.json("/api/admin/config/logo", { method: "POST", raw: logoForm(logo) })).status).toBe(200);
    expect(await icons()).toEqual([`/assets/${await sha256(logo)}/logo`]);
    expect((await admin.json("/api/admin/config/logo", { method: "DELETE" })).status).toBe(200);

    await setColour("");
    const plain = await icons();
    expect(plain).toHaveLength(1);
    expect(fillOf(plain[0]!)).toBe(DEFAULT_BRAND);
  });

  it("saves only the fields changed: a save from a stale copy of the settings keeps another's change", async () => {
    const { client: admin } = await newAdmin();
    const put = (globalConfig: Record<string, unknown>) => admin.json("/api/admin/config", { method: "PUT", body: { globalConfig } });
    expect((await put({ slogan: "before" })).status).toBe(200);
    // This isolate now holds the settings in its cache; another isolate (or a logo upload) saves the
    // slogan and the logo meanwhile, straight in the database.
    expect((await admin.json("/api/admin/config")).status).toBe(200);
    await env.DB.prepare("UPDATE config SET value = json_set(value, '$.slogan', 'elsewhere', '$.logoHash', 'abc', '$.faviconHash', 'abc') WHERE key = 'globalConfig'").run();
    expect((await put({ title: "Stale copy" })).status).toBe(200);
    const stored = JSON.parse((await env.DB.prepare("SELECT value FROM config WHERE key = 'globalConfig'").first<{ value: string }>())!.value);
    expect(stored).toMatchObject({ title: "Stale copy", slogan: "elsewhere", logoHash: "abc", faviconHash: "abc" });
    await env.DB.prepare("UPDATE config SET value = json_set(value, '$.logoHash', NULL, '$.faviconHash', NULL) WHERE key = 'globalConfig'").run();
  });

  it("refuses a logo that is missing, empty or not an image", async () => {
    const { client: admin } = await newAdmin();
    const missing = await admin.json<{ title: string }>("/api/admin/config/logo", { method: "POST", raw: logoForm(null) });
    expect(missing.status).toBe(400);
    expect(missing.body.title).toBe("Please check file format and size");
    expect((await admin.json("/api/admin/config/logo", { method: "POST", raw: logoForm(new Uint8Array(0)) })).status).toBe(400);
    expect((await admin.json("/api/admin/config/logo", { method: "POST", raw: logoForm(new TextEncoder().encode("not an image")) })).status).toBe(400);
  });

  it("is for admins only", async () => {
    const { client: user } = await newUser();
    expect((await user.json("/api/admin/config")).status).toBe(403);
    expect((await user.json("/api/admin/config", { method: "PUT", body: { globalConfig: { title: "x" } } })).status).toBe(403);
    expect((await user.json("/api/admin/config/logo", { method: "POST", raw: logoForm(png("u")) })).status).toBe(403);
    expect((await user.json("/api/admin/config/logo", { method: "DELETE" })).status).toBe(403);
  });
});
