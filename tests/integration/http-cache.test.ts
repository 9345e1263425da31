import { describe, expect, it } from "vitest";
import type { PostDetail } from "~/core/schemas/post";
import type { ScoreboardModel } from "~/core/scoring/scoreboard";
import { createGame, newAdmin, room, seedPlayers, updateGame } from "./game-helpers";
import { Client, unique } from "./helpers";

/**
 * api.md §1 HTTP caching: Last-Modified and If-Modified-Since beside the ETag. The rule
 * (app/core/http/conditional.ts): Last-Modified only once the representation is 1 s old, 304 iff
 * floor(t) ≤ the date, and If-None-Match decides alone when present.
 */

const IMF_FIXDATE = /^(Sun|Mon|Tue|Wed|Thu|Fri|Sat), \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function read(client: Client, path: string, headers: Record<string, string> = {}) {
  const res = await client.fetch(path, { headers });
  const text = await res.text();
  return { status: res.status, text, etag: res.headers.get("etag"), lastModified: res.headers.get("last-modified"), cacheControl: res.headers.get("cache-control") };
}

/**
 * The whole contract for one resource, ending with `change`: returns the Last-Modified handed out and
 * the first read after the change (sent with that date).
 */
async function expectConditionalGet(client: Client, path: string, change: () => Promise<void>, opts: { cacheControl?: string } = {}) {
  const fresh = await read(client, path);
  expect(fresh.status).toBe(200);
  expect(fresh.etag).toMatch(/^W\//);
  expect(fresh.cacheControl).toBe(opts.cacheControl ?? "no-cache");

  await sleep(1100);
  const aged = await read(client, path);
  expect(aged.status).toBe(200);
  expect(aged.etag).toBe(fresh.etag);
  expect(aged.lastModified).toMatch(IMF_FIXDATE);
  const lastModified = aged.lastModified!;

  // The date handed out answers 304, with the headers the 200 has.
  const same = await read(client, path, { "if-modified-since": lastModified });
  expect(same).toMatchObject({ status: 304, text: "", etag: aged.etag, lastModified, cacheControl: aged.cacheControl });
  // A date a second earlier, or not a date at all, gets the body.
  expect((await read(client, path, { "if-modified-since": new Date(Date.parse(lastModified) - 1000).toUTCString() })).status).toBe(200);
  expect((await read(client, path, { "if-modified-since": "yesterday" })).status).toBe(200);
  // If-None-Match decides alone: a stale tag with a matching date is a 200, a matching tag with an old date a 304.
  expect((await read(client, path, { "if-none-match": 'W/"stale"', "if-modified-since": lastModified })).status).toBe(200);
  expect((await read(client, path, { "if-none-match": aged.etag!, "if-modified-since": "Thu, 01 Jan 1970 00:00:00 GMT" })).status).toBe(304);

  await change();
  const after = await read(client, path, { "if-modified-since": lastModified });
  expect(after.status).toBe(200);
  expect(after.etag).not.toBe(aged.etag);
  return { lastModified, after };
}

/**
 * A board read now, under 1 s after its version was made, has no Last-Modified; one that has it names the
 * version's second. Checked against the board's own time, so a slow machine cannot fail it.
 */
function expectBoardDate(lastModified: string | null, board: ScoreboardModel) {
  if (Date.now() - board.updateTimeUtc < 1000) expect(lastModified).toBeNull();
  if (lastModified !== null) expect(lastModified).toBe(new Date(Math.floor(board.updateTimeUtc / 1000) * 1000).toUTCString());
}

/** A running game with one enabled challenge (flag `flag{lm}`) and one accepted player. */
async function gameWithPlayer() {
  const { client: admin } = await newAdmin();
  const game = await createGame(admin);
  const created = await admin.json<{ id: number }>(`/api/edit/games/${game.id}/challenges`, { method: "POST", body: { title: unique("c"), category: "Web", type: "StaticAttachment" } });
  const cid = created.body.id;
  expect((await admin.json(`/api/edit/games/${game.id}/challenges/${cid}/flags`, { method: "POST", body: [{ flag: "flag{lm}" }] })).status).toBe(200);
  expect((await admin.json(`/api/edit/games/${game.id}/challenges/${cid}`, { method: "PUT", body: { isEnabled: true } })).status).toBe(200);
  const [seeded] = await seedPlayers(game.id, 1);
  const player = seeded!.client;
  const solve = async () => {
    expect((await player.json(`/api/game/${game.id}/challenges/${cid}`, { method: "POST", body: { flag: "flag{lm}" } })).status).toBe(200);
    await room(game.id).settle(game.id);
  };
  return { admin, gameId: game.id, player, solve };
}

describe("Last-Modified and If-Modified-Since (api.md §1)", () => {
  it("scoreboard: the board version's time, 1 s after it was made; a new solve is a 200", async () => {
    const { gameId, solve } = await gameWithPlayer();
    const anon = new Client();
    const path = `/api/game/${gameId}/scoreboard`;
    const board = JSON.parse((await read(anon, path)).text) as ScoreboardModel;
    const { lastModified, after } = await expectConditionalGet(anon, path, solve);
    expect(lastModified).toBe(new Date(Math.floor(board.updateTimeUtc / 1000) * 1000).toUTCString());
    // The new version has no Last-Modified while under 1 s old, and a later second once it has one.
    const next = JSON.parse(after.text) as ScoreboardModel;
    expect(next.updateTimeUtc).toBeGreaterThan(board.updateTimeUtc);
    expectBoardDate(after.lastModified, next);
    if (after.lastModified !== null) expect(Date.parse(after.lastModified)).toBeGreaterThan(Date.parse(lastModified));
    // Pages of the board share the version's validators: a date in the version's own second is a 304 (a
    // date later than the server's clock would be ignored, RFC 7232 §3.3).
    const page = await read(anon, `${path}?count=1`, { "if-modified-since": new Date(next.updateTimeUtc).toUTCString() });
    expect(page.status).toBe(304);
    const future = await read(anon, `${path}?count=1`, { "if-modified-since": new Date(Date.now() + 3_600_000).toUTCString() });
    expect(future.status).toBe(200);
  });

  it("scoreboard: a board made less than 1 s ago has no Last-Modified", async () => {
    const { gameId, solve } = await gameWithPlayer();
    await solve();
    const r = await read(new Client(), `/api/game/${gameId}/scoreboard`);
    expectBoardDate(r.lastModified, JSON.parse(r.text) as ScoreboardModel);
  });

  it("player details (private): a new solve is a 200", async () => {
    const { gameId, player, solve } = await gameWithPlayer();
    const { after } = await expectConditionalGet(player, `/api/game/${gameId}/details`, solve, { cacheControl: "private, no-cache" });
    // The isolate saw this representation just now: no date yet, whatever the clock's second.
    expect(after.lastModified).toBeNull();
  });

  it("game details (private): an edit is a 200", async () => {
    const { admin, gameId, player } = await gameWithPlayer();
    const { after } = await expectConditionalGet(player, `/api/game/${gameId}`, async () => {
      expect((await updateGame(admin, gameId, { content: unique("rules") })).status).toBe(200);
    }, { cacheControl: "private, no-cache" });
    expect(after.lastModified).toBeNull();
  });

  it("notices: a new notice is a 200", async () => {
    const { admin, gameId } = await gameWithPlayer();
    const { after } = await expectConditionalGet(new Client(), `/api/game/${gameId}/notices`, async () => {
      expect((await admin.json(`/api/edit/games/${gameId}/notices`, { method: "POST", body: { content: unique("n") } })).status).toBe(200);
    });
    expect(after.lastModified).toBeNull();
  });

  it("posts: a new post changes the lists, an edit the post", async () => {
    const { client: admin } = await newAdmin();
    const newPost = async () => (await admin.json<PostDetail>("/api/edit/posts", { method: "POST", body: { title: unique("post") } })).body;
    const post = await newPost();
    const anon = new Client();
    for (const path of ["/api/posts/latest", "/api/posts"]) {
      const { after } = await expectConditionalGet(anon, path, async () => void (await newPost()));
      expect(after.lastModified).toBeNull();
    }
    const { after } = await expectConditionalGet(anon, `/api/posts/${post.id}`, async () => {
      expect((await admin.json(`/api/edit/posts/${post.id}`, { method: "PUT", body: { content: unique("c") } })).status).toBe(200);
    });
    expect(after.lastModified).toBeNull();
  });

  it("config and captcha: a settings change is a 200", async () => {
    // Settings are global to this file's storage: put back what changed.
    const { client: admin } = await newAdmin();
    const before = (await admin.json<{ accountPolicy: { useCaptcha: boolean }; globalConfig: { slogan: string } }>("/api/admin/config")).body;
    const put = async (body: unknown) => expect((await admin.json("/api/admin/config", { method: "PUT", body })).status).toBe(200);
    try {
      const anon = new Client();
      await put({ globalConfig: { slogan: unique("slogan") } });
      const config = await expectConditionalGet(anon, "/api/config", () => put({ globalConfig: { slogan: unique("slogan") } }));
      expect(config.after.lastModified).toBeNull();
      const captcha = await expectConditionalGet(anon, "/api/captcha", () => put({ accountPolicy: { useCaptcha: !before.accountPolicy.useCaptcha } }));
      expect(captcha.after.lastModified).toBeNull();
    } finally {
      await put({ accountPolicy: before.accountPolicy, globalConfig: { slogan: before.globalConfig.slogan } });
    }
  });
});

describe("the server's clock on every answer", () => {
  it("sends X-Server-Time on answers built by the cache (200 and 304) and by the game room, as on the others", async () => {
    const { client: admin } = await newAdmin();
    const game = await createGame(admin);
    const before = Date.now();
    const fresh = await admin.fetch(`/api/game/${game.id}`);
    const etag = fresh.headers.get("etag");
    expect(etag).toBeTruthy();
    const cached = await admin.fetch(`/api/game/${game.id}`, { headers: { "if-none-match": etag! } });
    expect(cached.status).toBe(304);
    const board = await new Client().fetch(`/api/game/${game.id}/scoreboard`);
    const refused = await new Client().fetch("/api/account/profile");
    for (const res of [fresh, cached, board, refused]) {
      const time = Number(res.headers.get("x-server-time"));
      expect(time).toBeGreaterThanOrEqual(before);
      expect(time).toBeLessThanOrEqual(Date.now());
    }
  });
});
