import { describe, expect, it } from "vitest";
import { createGame, createTeam, type ErrorBody, join, newAdmin } from "./game-helpers";
import { Client, newUser, unique } from "./helpers";

// One-line fields refuse what their one-line inputs cannot show, exclusive bounds say "greater than",
// times stop where the forms' date fields do, and query numbers are decimal digits (app/core/schemas).
describe("one-line fields", () => {
  it("refuses a team name with a line break or tab, in the caller's language, and keeps the stored one", async () => {
    const { client } = await newUser();
    const name = `Red ${unique("t")}`.slice(0, 20);
    const team = await createTeam(client, name);
    for (const name of ["Red\nTeam", "a\r\nb\tc", "Red\u2028Team"]) {
      const r = await client.json<ErrorBody>(`/api/team/${team.id}`, { method: "PUT", body: { name } });
      expect(r.body, JSON.stringify(name)).toEqual({ title: "Name must be one line (no line breaks or tabs)", status: 400 });
      expect(r.res.headers.get("x-error-field")).toBe("name");
    }
    const ja = new Client({ lang: "ja-JP" });
    ja.cookie = client.cookie;
    const jaName = await ja.json<ErrorBody>(`/api/team/${team.id}`, { method: "PUT", body: { name: "Red\nTeam" } });
    expect(jaName.body.title).toBe("名前は 1 行で入力してください（改行やタブは使えません）");
    const zh = new Client({ lang: "zh-CN" });
    zh.cookie = client.cookie;
    const zhName = await zh.json<ErrorBody>("/api/team", { method: "POST", body: { name: "Red\tTeam" } });
    expect(zhName.body.title).toBe("名称只能有一行（不能包含换行或制表符）");
    // The bio is a text area: its line breaks are kept.
    const bio = await client.json<{ name: string; bio: string }>(`/api/team/${team.id}`, { method: "PUT", body: { bio: "line one\nline two" } });
    expect(bio.status).toBe(200);
    expect(bio.body).toMatchObject({ name, bio: "line one\nline two" });
  });

  it("refuses a game title, a platform title and a flag with a line break", async () => {
    const { client: admin } = await newAdmin();
    const game = await createGame(admin);
    const title = await admin.json<ErrorBody>(`/api/edit/games/${game.id}`, { method: "PUT", body: { title: "a\nb" } });
    expect(title.body).toEqual({ title: "Title must be one line (no line breaks or tabs)", status: 400 });
    const division = await admin.json<ErrorBody>(`/api/edit/games/${game.id}`, { method: "PUT", body: { divisions: [{ name: "Open\nDivision" }] } });
    expect(division.body).toEqual({ title: "Name must be one line (no line breaks or tabs)", status: 400 });
    const platform = await admin.json<ErrorBody>("/api/admin/config", { method: "PUT", body: { globalConfig: { title: "a\nb" } } });
    expect(platform.body).toEqual({ title: "Title must be one line (no line breaks or tabs)", status: 400 });
    const challenge = await admin.json<{ id: number }>(`/api/edit/games/${game.id}/challenges`, { method: "POST", body: { title: "Lines", category: "Misc", type: "StaticAttachment" } });
    const flags = `/api/edit/games/${game.id}/challenges/${challenge.body.id}/flags`;
    const flag = await admin.json<ErrorBody>(flags, { method: "POST", body: [{ flag: "fl\nag" }] });
    expect(flag.body).toEqual({ title: "Flag must be one line (no line breaks or tabs)", status: 400 });
    const hints = await admin.json<ErrorBody>(`/api/edit/games/${game.id}/challenges/${challenge.body.id}`, { method: "PUT", body: { hints: ["one", "two\nlines"] } });
    expect(hints.body).toEqual({ title: "Hints: each item must be one line (no line breaks or tabs)", status: 400 });
    const stored = await admin.json<{ title: string; flags: unknown[]; hints: string[] }>(`/api/edit/games/${game.id}/challenges/${challenge.body.id}`);
    expect(stored.body).toMatchObject({ title: "Lines", flags: [], hints: [] });
    expect((await admin.json<{ title: string }>(`/api/edit/games/${game.id}`)).body.title).toBe(game.title);
  });
});

describe("exclusive bounds", () => {
  it("says a division and a team id must be greater than 0, not at least 0", async () => {
    const { client: admin } = await newAdmin();
    const game = await createGame(admin);
    const { client } = await newUser({ lang: "ja-JP" });
    const team = await createTeam(client);
    const ja = await join(client, game.id, { teamId: team.id, divisionId: 0 });
    expect(ja.body).toEqual({ title: "部門は 0 より大きくしてください", status: 400 });
    const en = new Client({ lang: "en-US" });
    en.cookie = client.cookie;
    expect((await join(en, game.id, { teamId: team.id, divisionId: 0 })).body.title).toBe("Division must be greater than 0");
    const events = await admin.json<ErrorBody>(`/api/game/${game.id}/events?teamId=-3`);
    expect(events.body).toEqual({ title: "Team must be greater than 0", status: 400 });
    const zh = new Client({ lang: "zh-CN" });
    zh.cookie = admin.cookie;
    expect((await zh.json<ErrorBody>(`/api/game/${game.id}/submissions?challengeId=0`)).body.title).toBe("题目必须大于 0");
  });
});

describe("times", () => {
  it("refuses a time after 9999-12-31T23:59:59.999Z and keeps the last one the forms can show", async () => {
    const { client: admin } = await newAdmin();
    const late = await admin.json<ErrorBody>("/api/edit/games", { method: "POST", body: { title: "x", start: 0, end: 8.64e15 } });
    expect(late.body).toEqual({ title: "End time is out of range: the latest time is 9999-12-31 23:59:59 UTC", status: 400 });
    expect(late.res.headers.get("x-error-field")).toBe("end");
    const iso = await admin.json<ErrorBody>("/api/edit/games", { method: "POST", body: { title: "x", start: 0, end: "+010000-01-01T00:00:00Z" } });
    expect(iso.status).toBe(400);
    const last = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
    const game = await createGame(admin, { start: 0, end: last });
    expect(game.end).toBe(last);
    const writeup = await admin.json<ErrorBody>(`/api/edit/games/${game.id}`, { method: "PUT", body: { writeupDeadline: last + 1 } });
    expect(writeup.status).toBe(400);
    const challenge = await admin.json<{ id: number }>(`/api/edit/games/${game.id}/challenges`, { method: "POST", body: { title: "Late", category: "Misc", type: "StaticAttachment" } });
    const ja = new Client({ lang: "ja-JP" });
    ja.cookie = admin.cookie;
    const deadline = await ja.json<ErrorBody>(`/api/edit/games/${game.id}/challenges/${challenge.body.id}`, { method: "PUT", body: { deadlineUtc: 8.64e15 } });
    expect(deadline.body).toEqual({ title: "締め切りが範囲外です（9999-12-31 23:59:59 UTC まで）", status: 400 });
  });
});

describe("query numbers, wrong types and email domains", () => {
  it("reads a paging number in decimal digits only; an empty one keeps the default", async () => {
    const { client: admin } = await newAdmin();
    await createGame(admin);
    const anonymous = new Client();
    for (const count of ["0x10", "1e1", "1.5"]) {
      const r = await anonymous.json<ErrorBody>(`/api/game?count=${count}`);
      expect(r.body, count).toEqual({ title: "Count must be a whole number", status: 400 });
    }
    expect((await anonymous.json<{ length: number }>("/api/game?count=")).status).toBe(200);
    expect((await anonymous.json<{ data: unknown[] }>("/api/game?count=1")).body.data).toHaveLength(1);
  });

  it("says a notice of the wrong type has the wrong type, and a missing one that it is empty", async () => {
    const { client: admin } = await newAdmin();
    const game = await createGame(admin);
    const wrong = await admin.json<ErrorBody>(`/api/edit/games/${game.id}/notices`, { method: "POST", body: { content: 123 } });
    expect(wrong.body).toEqual({ title: "Content has the wrong type", status: 400 });
    const missing = await admin.json<ErrorBody>(`/api/edit/games/${game.id}/notices`, { method: "POST", body: {} });
    expect(missing.body).toEqual({ title: "Content can't be empty", status: 400 });
  });

  it("registers an address whose top-level domain is an IDNA label", async () => {
    const r = await new Client().json<{ data: string }>("/api/account/register", {
      method: "POST",
      body: { userName: `idn${Date.now().toString(36).slice(-6)}`, password: "Passw0rd!", email: `a${Date.now()}@xn--e1afmkfd.xn--p1ai` },
    });
    expect(r.status).toBe(200);
  });
});
