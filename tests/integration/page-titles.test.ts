import { describe, expect, it } from "vitest";
import enUS from "~/locales/en-US/common.json";
import jaJP from "~/locales/ja-JP/common.json";
import zhCN from "~/locales/zh-CN/common.json";
import { createGame, newAdmin } from "./game-helpers";

type Common = typeof enUS;
const LOCALES: [string, Common][] = [
  ["en-US", enUS],
  ["ja-JP", jaJP as Common],
  ["zh-CN", zhCN as Common],
];

const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? null;

/**
 * A tab's title names the page in the server's HTML already (the page's own name, then the platform's), in
 * the request's language: not only after the browser's loaders have run.
 */
describe("page titles in the server's HTML", () => {
  it("name the page in the request's language, also on pages whose data the browser loads", async () => {
    const { client: admin } = await newAdmin();
    const game = await createGame(admin);
    const challenge = await admin.json<{ id: number }>(`/api/edit/games/${game.id}/challenges`, { method: "POST", body: { title: "Titled", category: "Misc", type: "StaticAttachment" } });
    expect(challenge.status).toBe(200);
    const pages: [string, (c: Common) => string][] = [
      ["/account/profile", (c) => c.profile.title],
      ["/teams", (c) => c.teams.title],
      [`/admin/games/${game.id}/info`, (c) => c.adminGames.tab.info],
      [`/admin/games/${game.id}/challenges/${challenge.body.id}/flags`, (c) => c.adminChallenges.flagsTitle],
      ["/games", (c) => c.games.title],
      [`/games/${game.id}`, (c) => c.games.detailTitle],
      ["/posts", (c) => c.posts.title],
      ["/admin/teams", (c) => c.adminTeams.title],
      ["/admin/games", (c) => c.adminGames.title],
      [`/admin/games/${game.id}/challenges`, (c) => c.adminGames.tab.challenges],
      [`/admin/games/${game.id}/challenges/${challenge.body.id}`, (c) => c.adminChallenges.editTitle],
      [`/admin/games/${game.id}/notices`, (c) => c.adminGames.tab.notices],
      [`/admin/games/${game.id}/review`, (c) => c.adminGames.tab.review],
      [`/admin/games/${game.id}/writeups`, (c) => c.adminGames.tab.writeups],
      // Pages that had it already, for comparison.
      ["/admin/users", (c) => c.adminUsers.title],
      [`/games/${game.id}/monitor/events`, (c) => c.monitor.events],
    ];
    for (const [language, strings] of LOCALES) {
      for (const [path, name] of pages) {
        const res = await admin.fetch(path, { headers: { "accept-language": language } });
        expect(res.status, path).toBe(200);
        expect(titleOf(await res.text()), `${language} ${path}`).toMatch(new RegExp(`^${name(strings).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} · .+`));
      }
    }
  });
});
