import { gunzipSync } from "node:zlib";
import { expect, login, registerUser, test } from "./fixtures";
import { rawGet } from "./raw-http";

test("the home page loads", async ({ page }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  expect(response?.headers()["content-type"]).toContain("text/html");
});

test("GET /api/config answers JSON with a title", async ({ request }) => {
  const response = await request.get("/api/config");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("application/json");
  const body = (await response.json()) as { title?: unknown };
  expect(typeof body.title).toBe("string");
});

test("GET /api/config says the server's time of each answer, the kept copy's too", async ({ request }) => {
  const timeOf = async () => Number((await request.get("/api/config")).headers()["x-server-time"]);
  // Any write drops the kept copy: the next read is the app's, and is kept for a second.
  await request.post("/api/account/logout");
  const first = await timeOf();
  await new Promise((resolve) => setTimeout(resolve, 300));
  const before = Date.now();
  const second = await timeOf();
  // The second is answered from the copy kept for a second; its time is still the moment of answering.
  expect(second - first).toBeGreaterThanOrEqual(250);
  expect(Math.abs(second - before)).toBeLessThan(250);
});

test("GET /api/config from the kept copy answers the app's body and headers, each time afresh", async ({ request }) => {
  // Last-Modified appears once the config is 1 s old: a copy kept past its second is the app's again, and may
  // carry it where the first answer did not.
  const headersOf = (response: { headers(): Record<string, string> }) => {
    const { date: _date, "x-server-time": _time, "last-modified": _lastModified, ...rest } = response.headers();
    return rest;
  };
  await request.post("/api/account/logout");
  const fromApp = await request.get("/api/config");
  const copies = [await request.get("/api/config"), await request.get("/api/config")];
  expect(headersOf(fromApp)["content-security-policy"]).toBeTruthy();
  for (const copy of copies) {
    expect(copy.status()).toBe(200);
    expect(await copy.text()).toBe(await fromApp.text());
    expect(headersOf(copy)).toEqual(headersOf(fromApp));
    // One clock per answer: the copy's own, never the kept one's plus another.
    expect(copy.headers()["x-server-time"]).toMatch(/^\d+$/);
  }
});

test("GET /api/config answers 304 to its ETag, and shows a settings change at once", async ({ page, adminCredentials }) => {
  await login(page, adminCredentials.userName, adminCredentials.password);
  const first = await page.request.get("/api/config");
  const before = (await first.json()) as { slogan: string | null };
  const etag = first.headers()["etag"]!;
  // Served from the app isolate's copy within its second (workers/local-server.ts): the same validator answers 304.
  expect((await page.request.get("/api/config", { headers: { "if-none-match": etag } })).status()).toBe(304);
  const slogan = `Slogan ${Date.now()}`;
  expect((await page.request.put("/api/admin/config", { data: { globalConfig: { slogan } } })).status()).toBe(200);
  try {
    const after = await page.request.get("/api/config", { headers: { "if-none-match": etag } });
    expect(after.status()).toBe(200);
    expect(((await after.json()) as { slogan: string }).slogan).toBe(slogan);
  } finally {
    await page.request.put("/api/admin/config", { data: { globalConfig: { slogan: before.slogan ?? "" } } });
  }
});

test("GET /api/config answers 304 to If-Modified-Since from its Last-Modified, from the local copy too", async ({ page, request, adminCredentials }) => {
  await login(page, adminCredentials.userName, adminCredentials.password);
  // Last-Modified appears once the app isolate has served this config for 1 s (app/core/http/conditional.ts).
  let lastModified = "";
  await expect
    .poll(async () => (lastModified = (await request.get("/api/config")).headers()["last-modified"] ?? ""), { timeout: 10_000 })
    .toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
  // Right after a full answer, the local copy of workers/local-server.ts answers (within its second).
  const full = await request.get("/api/config");
  const etag = full.headers()["etag"]!;
  const same = await request.get("/api/config", { headers: { "if-modified-since": lastModified } });
  expect(same.status()).toBe(304);
  expect(same.headers()).toMatchObject({ etag, "last-modified": lastModified, "cache-control": "no-cache" });
  // If-None-Match decides alone.
  expect((await request.get("/api/config", { headers: { "if-none-match": 'W/"stale"', "if-modified-since": lastModified } })).status()).toBe(200);
  const before = (await full.json()) as { slogan: string | null };
  expect((await page.request.put("/api/admin/config", { data: { globalConfig: { slogan: `Slogan ${Date.now()}` } } })).status()).toBe(200);
  try {
    const after = await request.get("/api/config", { headers: { "if-modified-since": lastModified } });
    expect(after.status()).toBe(200);
    expect(after.headers()["etag"]).not.toBe(etag);
  } finally {
    await page.request.put("/api/admin/config", { data: { globalConfig: { slogan: before.slogan ?? "" } } });
  }
});

test("built client files are served with their type and a long cache", async ({ page, request }) => {
  const scripts: string[] = [];
  const codings: (string | undefined)[] = [];
  page.on("response", (response) => {
    if (new URL(response.url()).pathname.startsWith("/assets/") && response.url().endsWith(".js")) {
      scripts.push(response.url());
      codings.push(response.headers()["content-encoding"]);
    }
  });
  await page.goto("/");
  // The framework chunk (React, React Router, i18next: ≈ 400 kB; vite.config.ts): the page's first script
  // response may be a chunk under the 1 KiB below which files are sent as they are
  // (scripts/lib/static-files.mjs GZIP_MIN_BYTES), without Vary — the entry script itself is now one.
  const entryIndex = () => scripts.findIndex((url) => /\/framework-[\w-]+\.js$/.test(url));
  await expect.poll(entryIndex).toBeGreaterThanOrEqual(0);
  const index = entryIndex();
  const script = scripts[index]!;
  const asset = await request.get(script);
  expect(asset.status()).toBe(200);
  expect(asset.headers()["content-type"]).toContain("javascript");
  expect(asset.headers()["cache-control"]).toContain("immutable");

  // Gzipped to a client that accepts it (the browser did), as is to one that does not; each copy has
  // its own ETag and revalidates to 304.
  const plain = await rawGet(script, {});
  expect(plain.status).toBe(200);
  expect(plain.headers["content-encoding"]).toBeUndefined();
  expect(plain.headers.vary).toMatch(/accept-encoding/i);
  const zipped = await rawGet(script, { "accept-encoding": "gzip, deflate, br" });
  expect(zipped.status).toBe(200);
  expect(zipped.headers["content-encoding"]).toBe("gzip");
  expect(zipped.headers.vary).toMatch(/accept-encoding/i);
  expect(Number(zipped.headers["content-length"])).toBe(zipped.body.length);
  expect(zipped.body.length).toBeLessThan(plain.body.length / 2);
  expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
  expect(zipped.headers.etag).not.toBe(plain.headers.etag);
  const again = await rawGet(script, { "accept-encoding": "gzip", "if-none-match": zipped.headers.etag! });
  expect(again.status).toBe(304);
  expect((await rawGet(script, { "if-none-match": zipped.headers.etag! })).status).toBe(200);
  expect(codings[index]).toBe("gzip");
});

test("the local server records the socket's address, not a client's claim of another", async ({ page, adminCredentials }) => {
  // npm start listens on loopback only, so every peer is 127.0.0.1; a forged CF-Connecting-IP or
  // X-Real-IP would otherwise land in the logs and the per-address rate limits.
  const ghost = `ghost${Date.now()}`;
  const failed = await page.request.post("/api/account/login", {
    data: { userName: ghost, password: "Wrong-password-1" },
    headers: { "cf-connecting-ip": "203.0.113.9", "x-real-ip": "198.51.100.4" },
  });
  expect(failed.status()).toBe(401);
  await login(page, adminCredentials.userName, adminCredentials.password);
  await expect
    .poll(async () => {
      const records = (await (await page.request.get("/api/admin/logs?count=50")).json()) as { name: string | null; ip: string | null }[];
      return records.find((r) => r.name === ghost)?.ip ?? null;
    })
    .toBe("127.0.0.1");
});

test("the bootstrapped admin signs in", async ({ page, adminCredentials }) => {
  await login(page, adminCredentials.userName, adminCredentials.password);
  const profile = await page.request.get("/api/account/profile");
  expect(profile.status()).toBe(200);
  expect(await profile.json()).toMatchObject({ userName: adminCredentials.userName, role: "Admin" });
});

test("a registered user can sign in from a fresh browser context", async ({ browser, request }) => {
  const user = await registerUser(request);
  const context = await browser.newContext();
  const page = await context.newPage();
  await login(page, user.userName, user.password);
  const profile = await page.request.get("/api/account/profile");
  expect(profile.status()).toBe(200);
  expect(await profile.json()).toMatchObject({ userName: user.userName, email: user.email });
  await context.close();
});
