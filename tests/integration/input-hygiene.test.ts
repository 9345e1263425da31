import { describe, expect, it } from "vitest";
import { createGame, type ErrorBody, newAdmin } from "./game-helpers";
import { Client, newUser } from "./helpers";

// What every JSON body goes through before its schema (workers/api/registry.ts, app/core/validation.ts):
// text that shows nothing counts as empty, control characters and broken Unicode are refused with the
// field named in the caller's language, an empty query parameter takes its default, a day that does not
// exist is refused, and a number far out of range is told the field's own range.
describe("request input hygiene", () => {
  it("treats a name of zero-width characters as empty instead of storing an invisible one", async () => {
    const { client } = await newUser();
    const team = await client.json<ErrorBody>("/api/team", { method: "POST", body: { name: "\u200b\u200b" } });
    expect(team.status).toBe(400);
    expect(team.body.title).toBe("Team name must be 1 to 20 characters");
    const admin = await newAdmin();
    const game = await admin.client.json<ErrorBody>("/api/edit/games", { method: "POST", body: { title: "\u200e\u2060", start: Date.now(), end: Date.now() + 3_600_000 } });
    expect(game.status).toBe(400);
  });

  it("refuses control characters and lone surrogates with the field named, in the caller's language", async () => {
    const { client } = await newUser({ lang: "ja-JP" });
    const nul = await client.json<ErrorBody>("/api/account/update", { method: "PUT", body: { realName: "evil\u0000name" } });
    expect(nul.status).toBe(400);
    expect(nul.body.title).toContain("保存できない制御文字");
    const en = new Client({ lang: "en-US" });
    en.cookie = client.cookie;
    const surrogate = await en.json<ErrorBody>("/api/account/update", { method: "PUT", body: { bio: "broken \ud800 text" } });
    expect(surrogate.status).toBe(400);
    expect(surrogate.body).toEqual({ title: "Bio contains control characters or broken Unicode that cannot be stored", status: 400 });
    // About one field: the header names it, so the form shows the refusal at the field.
    expect(surrogate.res.headers.get("x-error-field")).toBe("bio");
    // Nothing was written; ordinary text with tabs, line breaks and emoji is kept.
    const fine = await en.json("/api/account/update", { method: "PUT", body: { bio: "line\tone\nline two 🚩" } });
    expect(fine.status).toBe(200);
    const profile = await en.json<{ bio: string; realName: string | null }>("/api/account/profile");
    expect(profile.body.bio).toBe("line\tone\nline two 🚩");
    expect(profile.body.realName ?? "").not.toContain("evil");
  });

  it("refuses a body whose bytes are not UTF-8 instead of storing U+FFFD in their place, in the caller's language", async () => {
    const { client } = await newUser({ lang: "ja-JP" });
    const json = (text: string, ...bad: number[][]) => {
      const [before, after] = text.split("|");
      return new Uint8Array([...new TextEncoder().encode(before), ...bad.flat(), ...new TextEncoder().encode(after)]);
    };
    const headers = { "content-type": "application/json" };
    // 0xFF 0xFE never occur in UTF-8; ED A0 80 is a surrogate written as UTF-8; C3 alone is a cut sequence.
    const team = await client.json<ErrorBody>("/api/team", { method: "POST", raw: json('{"name":"ok|"}', [0xff, 0xfe]), headers });
    expect(team.status).toBe(400);
    expect(team.body).toEqual({ title: "リクエスト本文が正しい UTF-8 テキストではありません", status: 400 });
    expect((await client.json<unknown[]>("/api/team")).body).toEqual([]);
    for (const bytes of [[0xed, 0xa0, 0x80], [0xc3]]) {
      const update = await client.json<ErrorBody>("/api/account/update", { method: "PUT", raw: json('{"bio":"b|"}', bytes), headers });
      expect(update.status).toBe(400);
    }
    expect((await client.json<{ bio: string | null }>("/api/account/profile")).body.bio ?? "").not.toContain("\ufffd");
    // Text that is UTF-8 (a BOM in front included) is read as before.
    const fine = await client.json("/api/account/update", { method: "PUT", raw: json('|{"bio":"é 🚩"}', [0xef, 0xbb, 0xbf]), headers });
    expect(fine.status).toBe(200);
    expect((await client.json<{ bio: string }>("/api/account/profile")).body.bio).toBe("é 🚩");
  });

  it("refuses a team name with text-direction controls, at its field, in the caller's language", async () => {
    const { client } = await newUser({ lang: "ja-JP" });
    const spoof = await client.json<ErrorBody>("/api/team", { method: "POST", body: { name: "\u202eniw su" } });
    expect(spoof.body).toEqual({ title: "チーム名に文字の向きを変える制御文字は使えません", status: 400 });
    expect(spoof.res.headers.get("x-error-field")).toBe("name");
    expect((await client.json<{ id: number }[]>("/api/team")).body).toEqual([]);
  });

  it("answers a missing or wrong-typed body with the catalogue's parameter messages, in the caller's language", async () => {
    const expected = {
      "en-US": ["Missing parameter: the request has no body", "Invalid parameter: the request body has the wrong type"],
      "ja-JP": ["パラメータがありません：リクエスト本文が空です", "パラメータが無効です：リクエスト本文の型が正しくありません"],
      "zh-CN": ["缺少参数：请求体为空", "参数无效：请求体的类型不正确"],
    };
    for (const [lang, [missing, invalid]] of Object.entries(expected)) {
      const client = new Client({ lang });
      const none = await client.json<ErrorBody>("/api/account/login", { method: "POST", headers: { "content-type": "application/json" } });
      expect(none.body).toEqual({ title: missing, status: 400 });
      const list = await client.json<ErrorBody>("/api/account/login", { method: "POST", body: [] });
      expect(list.body).toEqual({ title: invalid, status: 400 });
    }
  });

  it("refuses a deeply nested body with a localised 400, signed in or not", async () => {
    const deep = "[".repeat(3_000) + "]".repeat(3_000);
    const anonymous = await new Client({ lang: "zh-CN" }).json<ErrorBody>("/api/account/login", { method: "POST", raw: deep, headers: { "content-type": "application/json" } });
    expect(anonymous.status).toBe(400);
    expect(anonymous.body).toEqual({ title: "请求体的嵌套层级过深", status: 400 });
    const { client } = await newUser();
    const inField = await client.json<ErrorBody>("/api/account/update", { method: "PUT", raw: `{"bio":${"[".repeat(10_000)}${"]".repeat(10_000)}}`, headers: { "content-type": "application/json" } });
    expect(inField.status).toBe(400);
    expect(inField.body.title).toBe("The request body is nested too deeply");
  });

  it("takes the default for an empty paging parameter instead of reading it as 0", async () => {
    const { client: admin } = await newAdmin();
    await createGame(admin);
    const list = await new Client().json<{ data: unknown[]; length: number; total: number }>("/api/game?count=&skip=");
    expect(list.status).toBe(200);
    expect(list.body.length).toBeGreaterThan(0);
  });

  it("refuses a day its month does not have, and names a field's own range for a huge number", async () => {
    const { client: admin } = await newAdmin();
    const day = await admin.json<ErrorBody>("/api/edit/games", { method: "POST", body: { title: "Leap", start: "2025-02-29T00:00:00Z", end: "2025-03-02T00:00:00Z" } });
    expect(day.status).toBe(400);
    expect(day.body.title).toBe("Start time is not a valid time");
    const game = await createGame(admin);
    const created = await admin.json<{ id: number }>(`/api/edit/games/${game.id}/challenges`, { method: "POST", body: { title: "Box", category: "Pwn", type: "DynamicContainer" } });
    const port = await admin.json<ErrorBody>(`/api/edit/games/${game.id}/challenges/${created.body.id}`, { method: "PUT", body: { exposePort: 1e20 } });
    expect(port.status).toBe(400);
    expect(port.body.title).toMatch(/65535/);
    const image = await admin.json<ErrorBody>(`/api/edit/games/${game.id}/challenges/${created.body.id}`, { method: "PUT", body: { containerImage: "nginx:latest; rm -rf /" } });
    expect(image.status).toBe(400);
    expect(image.body.title).toBe("The container image is not a valid image name (e.g. registry.example.com/team/web:1.0)");
    const test = await admin.json<ErrorBody>(`/api/edit/games/${game.id}/challenges/${created.body.id}/container`, { method: "POST" });
    expect(test.body.title).toBe("Set the challenge's container image before starting a container");
  });

  it("refuses an attachment sent with a static challenge's flag instead of dropping it", async () => {
    const { client: admin } = await newAdmin();
    const game = await createGame(admin);
    const created = await admin.json<{ id: number }>(`/api/edit/games/${game.id}/challenges`, { method: "POST", body: { title: "Static", category: "Misc", type: "StaticAttachment" } });
    const flags = `/api/edit/games/${game.id}/challenges/${created.body.id}/flags`;
    const refused = await admin.json<ErrorBody>(flags, { method: "POST", body: [{ flag: "ok", attachmentType: "Remote", remoteUrl: "https://example.com/a" }] });
    expect(refused.status).toBe(400);
    expect(refused.body.title).toMatch(/^Only dynamic attachment challenges/);
    expect((await admin.json(flags, { method: "POST", body: [{ flag: "ok", attachmentType: "None" }] })).status).toBe(200);
    const tooMany = await admin.json<ErrorBody>(flags, { method: "POST", body: Array.from({ length: 1001 }, (_, i) => ({ flag: `f${i}` })) });
    expect(tooMany.body.title).toBe("At most 1,000 flags can be added at a time");
  });

  it("leaves a post's title unchanged when it is sent as null, and says a long password is too long", async () => {
    const { client: admin } = await newAdmin();
    const post = await admin.json<{ id: string; title: string }>("/api/edit/posts", { method: "POST", body: { title: "Kept title" } });
    const pinned = await admin.json<{ title: string; isPinned: boolean }>(`/api/edit/posts/${post.body.id}`, { method: "PUT", body: { title: null, isPinned: true } });
    expect(pinned.status).toBe(200);
    expect(pinned.body).toMatchObject({ title: "Kept title", isPinned: true });
    const long = await new Client().json<ErrorBody>("/api/account/register", { method: "POST", body: { userName: "longpass", email: "longpass@example.com", password: `Aa1${"a".repeat(200)}` } });
    expect(long.status).toBe(400);
    expect(long.body.title).toBe("Password must be at most 128 characters");
  });
});
