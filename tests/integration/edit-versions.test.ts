import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Db } from "~/.server/db/client";
import { updateChallenge } from "~/.server/services/challenges";
import { updateGame } from "~/.server/services/games";
import type { ChallengeEditDetail } from "~/core/schemas/challenge";
import type { GameInfo, GameNoticeInfo } from "~/core/schemas/game";
import { createGame, type ErrorBody, newAdmin } from "./game-helpers";
import { type Client, landingAfterRead, unique } from "./helpers";

// Optimistic concurrency on the two edit resources: GET and PUT answer with a strong ETag naming the stored
// version; a PUT with a stale `If-Match` is refused with 412 and changes nothing; without the header a PUT
// behaves as it always did.

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89]);
const STRONG = /^"[1-9]\d*"$/;

const gameUrl = (id: number) => `/api/edit/games/${id}`;
const challengeUrl = (gameId: number, cid: number) => `/api/edit/games/${gameId}/challenges/${cid}`;

async function read<T>(client: Client, url: string) {
  const r = await client.json<T>(url);
  expect(r.status).toBe(200);
  return { body: r.body, etag: r.res.headers.get("etag")! };
}

const put = <T>(client: Client, url: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  client.json<T & ErrorBody>(url, { method: "PUT", body, headers });

async function newChallenge(admin: Client, gameId: number): Promise<ChallengeEditDetail> {
  const r = await admin.json<ChallengeEditDetail>(`/api/edit/games/${gameId}/challenges`, { method: "POST", body: { title: unique("c"), category: "Web", type: "StaticAttachment" } });
  expect(r.status).toBe(200);
  return r.body;
}

const run = (sql: string, ...params: unknown[]) => () => env.DB.prepare(sql).bind(...params).run();

describe("a save landing between the version check and the write", () => {
  it("is never overwritten by a game PUT: the write itself refuses, fields and division lists alike", async () => {
    const { client } = await newAdmin();
    const game = await createGame(client, { divisions: [{ name: "A" }] });
    const { etag } = await read<GameInfo>(client, gameUrl(game.id));
    const version = Number(JSON.parse(etag));

    const theirs = run("UPDATE games SET summary = 'theirs', version = version + 1 WHERE id = ?", game.id);
    const fields = updateGame({ db: landingAfterRead(1, theirs), now: Date.now() }, game.id, { summary: "mine" }, [version]);
    await expect(fields).rejects.toMatchObject({ status: 412, code: "common.changed_elsewhere" });
    expect((await read<GameInfo>(client, gameUrl(game.id))).body.summary).toBe("theirs");

    const current = await read<GameInfo>(client, gameUrl(game.id));
    const theirList = run("UPDATE games SET title = 'theirs', version = version + 1 WHERE id = ?", game.id);
    const lists = updateGame({ db: landingAfterRead(1, theirList), now: Date.now() }, game.id, { summary: "mine", divisions: [{ name: "B" }] }, [
      Number(JSON.parse(current.etag)),
    ]);
    await expect(lists).rejects.toMatchObject({ status: 412 });
    const after = await read<GameInfo>(client, gameUrl(game.id));
    expect([after.body.title, after.body.summary, after.body.divisions.map((d) => d.name)]).toEqual(["theirs", "theirs", ["A"]]);
  });

  it("is never overwritten by a challenge PUT", async () => {
    const { client } = await newAdmin();
    const game = await createGame(client);
    const c = await newChallenge(client, game.id);
    const url = challengeUrl(game.id, c.id);
    const { etag } = await read<ChallengeEditDetail>(client, url);
    const deps = (database: Db) => ({ db: database, now: Date.now(), bucket: env.FILES, publish: async () => undefined });
    // The challenge is the call's second read (after its game's).
    const theirs = run("UPDATE challenges SET title = 'theirs', version = version + 1 WHERE id = ?", c.id);
    const save = updateChallenge(deps(landingAfterRead(2, theirs)), game.id, c.id, { title: "mine", hints: ["mine"] }, [Number(JSON.parse(etag))]);
    await expect(save).rejects.toMatchObject({ status: 412, code: "common.changed_elsewhere" });
    const after = await read<ChallengeEditDetail>(client, url);
    expect([after.body.title, after.body.hints]).toEqual(["theirs", []]);
  });
});

describe("game edit versions (PUT edit/games/{id} with If-Match)", () => {
  it("names the stored version in a strong ETag on GET and PUT; each write moves it", async () => {
    const { client } = await newAdmin();
    const game = await createGame(client);
    const first = await read<GameInfo>(client, gameUrl(game.id));
    expect(first.etag).toMatch(STRONG);
    expect((await read<GameInfo>(client, gameUrl(game.id))).etag).toBe(first.etag);
    const saved = await put<GameInfo>(client, gameUrl(game.id), { summary: "one" });
    expect(saved.status).toBe(200);
    const next = saved.res.headers.get("etag");
    expect(next).toMatch(STRONG);
    expect(next).not.toBe(first.etag);
    expect((await read<GameInfo>(client, gameUrl(game.id))).etag).toBe(next);
  });

  it("refuses a stale If-Match with a localised 412 and changes nothing; a fresh one saves", async () => {
    const { client } = await newAdmin();
    const game = await createGame(client, { divisions: [{ name: "A" }] });
    const stale = await read<GameInfo>(client, gameUrl(game.id));
    // Another tab saves meanwhile (no If-Match: it works as it always did).
    expect((await put(client, gameUrl(game.id), { title: "Theirs", divisions: [...stale.body.divisions, { name: "B" }] })).status).toBe(200);
    const before = await read<GameInfo>(client, gameUrl(game.id));

    const refused = await put(client, gameUrl(game.id), { title: "Mine", summary: "mine", divisions: [{ name: "C" }] }, { "if-match": stale.etag });
    expect(refused.status).toBe(412);
    expect(refused.body).toEqual({ title: "This was changed elsewhere after it was loaded, so nothing was saved. Reload it and try again.", status: 412 });
    const ja = await put(client, gameUrl(game.id), { title: "Mine" }, { "if-match": stale.etag, "accept-language": "ja-JP" });
    expect(ja.body).toEqual({ title: "読み込んだ後に別の場所で変更されたため、何も保存されませんでした。再読み込みしてもう一度お試しください。", status: 412 });
    const after = await read<GameInfo>(client, gameUrl(game.id));
    expect(after.body).toEqual(before.body);
    expect(after.etag).toBe(before.etag);

    // A weak tag never matches (strong comparison), `*` matches any stored version.
    expect((await put(client, gameUrl(game.id), { summary: "weak" }, { "if-match": `W/${before.etag}` })).status).toBe(412);
    expect((await put(client, gameUrl(game.id), { summary: "any" }, { "if-match": "*" })).status).toBe(200);

    const fresh = await read<GameInfo>(client, gameUrl(game.id));
    const saved = await put<GameInfo>(client, gameUrl(game.id), { summary: "mine", divisions: [...fresh.body.divisions, { name: "C" }] }, { "if-match": fresh.etag });
    expect(saved.status).toBe(200);
    expect(saved.body.summary).toBe("mine");
    expect(saved.body.divisions.map((d) => d.name)).toEqual(["A", "B", "C"]);
    expect(saved.res.headers.get("etag")).not.toBe(fresh.etag);
  });

  it("lets exactly one of several PUTs racing on the same If-Match through, fields and division lists alike", async () => {
    const { client } = await newAdmin();
    const game = await createGame(client, { divisions: [{ name: "A" }] });
    const base = await read<GameInfo>(client, gameUrl(game.id));
    const fields = await Promise.all(["a", "b", "c", "d"].map((s) => put<GameInfo>(client, gameUrl(game.id), { summary: s }, { "if-match": base.etag })));
    expect(fields.map((r) => r.status).sort()).toEqual([200, 412, 412, 412]);
    const winner = fields.find((r) => r.status === 200)!;
    expect((await read<GameInfo>(client, gameUrl(game.id))).body.summary).toBe(winner.body.summary);

    const again = await read<GameInfo>(client, gameUrl(game.id));
    const lists = await Promise.all(
      ["B", "C", "D", "E"].map((name) => put<GameInfo>(client, gameUrl(game.id), { divisions: [...again.body.divisions, { name }] }, { "if-match": again.etag })),
    );
    expect(lists.map((r) => r.status).sort()).toEqual([200, 412, 412, 412]);
    const won = lists.find((r) => r.status === 200)!;
    const stored = await read<GameInfo>(client, gameUrl(game.id));
    expect(stored.body.divisions).toEqual(won.body.divisions);
    expect(stored.body.divisions).toHaveLength(2);
  });

  it("moves the version on the other writes a stale editor must notice: poster, a deleted challenge's division configs", async () => {
    const { client } = await newAdmin();
    const game = await createGame(client);
    const start = (await read<GameInfo>(client, gameUrl(game.id))).etag;
    const form = new FormData();
    form.append("file", new Blob([PNG], { type: "image/png" }), "p.png");
    expect((await client.json(`/api/edit/games/${game.id}/poster`, { method: "PUT", raw: form })).status).toBe(200);
    const afterPoster = await read<GameInfo>(client, gameUrl(game.id));
    expect(afterPoster.etag).not.toBe(start);
    expect((await put(client, gameUrl(game.id), { summary: "x" }, { "if-match": start })).status).toBe(412);

    // Deleting a challenge without division configs leaves the game as it was; with them, it changes.
    const plain = await newChallenge(client, game.id);
    expect((await client.json(challengeUrl(game.id, plain.id), { method: "DELETE" })).status).toBe(200);
    expect((await read<GameInfo>(client, gameUrl(game.id))).etag).toBe(afterPoster.etag);
    const configured = await newChallenge(client, game.id);
    expect((await put(client, gameUrl(game.id), { divisions: [{ name: "A", challengeConfigs: [{ challengeId: configured.id, permissions: 0 }] }] })).status).toBe(200);
    const withConfig = await read<GameInfo>(client, gameUrl(game.id));
    expect((await client.json(challengeUrl(game.id, configured.id), { method: "DELETE" })).status).toBe(200);
    const afterDelete = await read<GameInfo>(client, gameUrl(game.id));
    expect(afterDelete.body.divisions[0]!.challengeConfigs).toEqual([]);
    expect(afterDelete.etag).not.toBe(withConfig.etag);
  });
});

describe("challenge edit versions (PUT edit/games/{id}/challenges/{cid} with If-Match)", () => {
  it("names the stored version in a strong ETag on GET and PUT; each write moves it", async () => {
    const { client } = await newAdmin();
    const game = await createGame(client);
    const c = await newChallenge(client, game.id);
    const first = await read<ChallengeEditDetail>(client, challengeUrl(game.id, c.id));
    expect(first.etag).toMatch(STRONG);
    const saved = await put<ChallengeEditDetail>(client, challengeUrl(game.id, c.id), { hints: ["h1"] }, { "if-match": first.etag });
    expect(saved.status).toBe(200);
    expect(saved.res.headers.get("etag")).toMatch(STRONG);
    expect(saved.res.headers.get("etag")).not.toBe(first.etag);
    expect((await read<ChallengeEditDetail>(client, challengeUrl(game.id, c.id))).etag).toBe(saved.res.headers.get("etag"));
  });

  it("refuses a stale If-Match with a localised 412, changing nothing and posting no notice; a fresh one saves", async () => {
    const { client } = await newAdmin();
    const game = await createGame(client);
    const c = await newChallenge(client, game.id);
    const url = challengeUrl(game.id, c.id);
    expect((await client.json(`${url}/flags`, { method: "POST", body: [{ flag: "flag{x}" }] })).status).toBe(200);
    expect((await put(client, url, { isEnabled: true, hints: ["theirs"] })).status).toBe(200);
    const stale = await read<ChallengeEditDetail>(client, url);
    // Another tab adds a hint meanwhile.
    expect((await put(client, url, { hints: ["theirs", "other"] })).status).toBe(200);
    const notices = async () => (await client.json<GameNoticeInfo[]>(`/api/edit/games/${game.id}/notices`)).body.length;
    const before = await read<ChallengeEditDetail>(client, url);
    const noticesBefore = await notices();

    const refused = await put(client, url, { title: "Mine", hints: ["theirs", "mine"], isEnabled: false }, { "if-match": stale.etag });
    expect(refused.status).toBe(412);
    expect(refused.body).toEqual({ title: "This was changed elsewhere after it was loaded, so nothing was saved. Reload it and try again.", status: 412 });
    const zh = await put(client, url, { title: "Mine" }, { "if-match": stale.etag, "accept-language": "zh-CN" });
    expect(zh.body).toEqual({ title: "该内容在加载后已在别处被修改，因此未保存任何更改。请重新加载后再试。", status: 412 });
    const after = await read<ChallengeEditDetail>(client, url);
    expect(after.body).toEqual(before.body);
    expect(after.etag).toBe(before.etag);
    expect(await notices()).toBe(noticesBefore);

    const saved = await put<ChallengeEditDetail>(client, url, { hints: [...after.body.hints, "mine"] }, { "if-match": after.etag });
    expect(saved.status).toBe(200);
    expect(saved.body.hints).toEqual(["theirs", "other", "mine"]);
  });

  it("lets exactly one of several PUTs racing on the same If-Match through", async () => {
    const { client } = await newAdmin();
    const game = await createGame(client);
    const c = await newChallenge(client, game.id);
    const url = challengeUrl(game.id, c.id);
    const base = await read<ChallengeEditDetail>(client, url);
    const saves = await Promise.all(["a", "b", "c", "d"].map((h) => put<ChallengeEditDetail>(client, url, { hints: [h], title: `t-${h}` }, { "if-match": base.etag })));
    expect(saves.map((r) => r.status).sort()).toEqual([200, 412, 412, 412]);
    const winner = saves.find((r) => r.status === 200)!;
    const stored = await read<ChallengeEditDetail>(client, url);
    expect([stored.body.title, stored.body.hints]).toEqual([winner.body.title, winner.body.hints]);

    // Same hints in every racer (no hint guard involved): still exactly one.
    const again = await read<ChallengeEditDetail>(client, url);
    const titles = await Promise.all(["e", "f", "g", "h"].map((s) => put<ChallengeEditDetail>(client, url, { title: `t-${s}` }, { "if-match": again.etag })));
    expect(titles.map((r) => r.status).sort()).toEqual([200, 412, 412, 412]);
  });

  it("works without If-Match as before, and moves the version on flag, attachment and enable writes", async () => {
    const { client } = await newAdmin();
    const game = await createGame(client);
    const c = await newChallenge(client, game.id);
    const url = challengeUrl(game.id, c.id);
    const etag = async () => (await read<ChallengeEditDetail>(client, url)).etag;
    const seen = [await etag()];
    const plain = await put<ChallengeEditDetail>(client, url, { title: "Plain" });
    expect(plain.status).toBe(200);
    expect(plain.body.title).toBe("Plain");
    seen.push(await etag());
    expect((await client.json(`${url}/flags`, { method: "POST", body: [{ flag: "flag{a}" }] })).status).toBe(200);
    seen.push(await etag());
    const flagId = (await read<ChallengeEditDetail>(client, url)).body.flags[0]!.id;
    expect((await client.json(`${url}/flags`, { method: "POST", body: [{ flag: "flag{b}" }] })).status).toBe(200);
    seen.push(await etag());
    expect((await client.json(`${url}/flags/${flagId}`, { method: "DELETE" })).status).toBe(200);
    seen.push(await etag());
    expect((await client.json(`${url}/attachment`, { method: "POST", body: { attachmentType: "Remote", remoteUrl: "https://example.com/a.zip" } })).status).toBe(200);
    seen.push(await etag());
    expect((await put(client, url, { isEnabled: true })).status).toBe(200);
    seen.push(await etag());
    expect(new Set(seen).size).toBe(seen.length);
    // The first version is stale now.
    expect((await put(client, url, { title: "Late" }, { "if-match": seen[0]! })).status).toBe(412);
  });
});
