import { describe, expect, it } from "vitest";
import resources from "~/locales";

/**
 * One word per concept in each language (DECISIONS.md, 2026-11-26 eighteenth session, and the native-reader
 * pass after it): a new string that brings back a word the glossary replaced fails here, with the word to
 * use instead. `except`: the keys where the word is the concept's own.
 */
const RETIRED: Record<"ja-JP" | "zh-CN", { word: RegExp; use: string; except?: string[] }[]> = {
  "ja-JP": [
    { word: /ゲーム/, use: "大会 (a game)" },
    { word: /競技|コンテスト/, use: "大会 (a game)" },
    { word: /ライトアップ/, use: "Writeup" },
    { word: /サインイン/, use: "ログイン" },
    { word: /BAN/, use: "利用停止" },
    { word: /解答/, use: "正解 (a solve)" },
    // The game's overview tab only: the About page and a summary were 概要 too, on the same screen.
    { word: /概要/, use: "このサイトについて (the About page) or 要約 (a summary)", except: ["common.gameTabs.overview"] },
    { word: /リセット/, use: "再設定 (a password reset)" },
    { word: /脱退/, use: "離脱 (leaving a team or a game)" },
    { word: /(?<!英)[小大]文字/, use: "英小文字 / 英大文字 (the password rules)" },
    { word: /メンバー数の上限/, use: "人数上限 (a team's member limit)" },
    // A flag is 提出; 送信 is kept for what is sent away: mail, links, a registration request.
    { word: /(?<!(?:メール|リンク|申請)[をでは]?)送信(?!中)/u, use: "提出 (a submission)" },
  ],
  "zh-CN": [
    { word: /赛事/, use: "比赛" },
    // "各题解题情况" (each challenge's solves) is not the word.
    { word: /题解(?!题)/, use: "Writeup" },
    { word: /容器代理/, use: "容器 Agent (代理 is the platform proxy)" },
    { word: /账户/, use: "账号" },
    { word: /玩家/, use: "选手" },
    { word: /挑战|赛题/, use: "题目" },
    { word: /战队|团队/, use: "队伍" },
    { word: /记分板|积分榜/, use: "排行榜" },
    { word: /标志/, use: "Logo" },
    // The environment variables' names (FLAGSTAFF_CAPTCHA_…) are not the word.
    { word: /验证码|(?<![_A-Z])CAPTCHA(?![_A-Z])/, use: "人机验证" },
    { word: /电话/, use: "手机号" },
    { word: /首页/, use: "主页" },
    { word: /登出/, use: "退出登录" },
    { word: /停用(?:该)?题目/, use: "禁用 (a challenge; 停用 is an account's)" },
    // Joining a game is 报名 (加入 is a team's); taking part in it (参加, 参赛) stays.
    { word: /加入(?:本|此|该)?比赛|(?:已经?|尚未|还没有?)参加了?(?:本|此|该)?比赛/, use: "报名 (joining a game)" },
  ],
};

const leaves = (value: unknown, prefix = ""): [string, string][] =>
  typeof value === "string"
    ? [[prefix, value]]
    : Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k));

describe("the glossary", () => {
  it.each(Object.keys(RETIRED) as (keyof typeof RETIRED)[])("%s uses one word per concept", (language) => {
    const strings = Object.entries(resources[language]).flatMap(([ns, tree]) => leaves(tree, ns));
    const found = RETIRED[language].flatMap(({ word, use, except = [] }) =>
      strings.filter(([key, text]) => word.test(text) && !except.includes(key)).map(([key, text]) => `${key}: "${text}" — use ${use}`),
    );
    expect(found).toEqual([]);
  });

  it("would catch a retired word", () => {
    expect(RETIRED["ja-JP"].some(({ word }) => word.test("ゲームに参加"))).toBe(true);
    expect(RETIRED["zh-CN"].some(({ word }) => word.test("上传题解"))).toBe(true);
    expect(RETIRED["zh-CN"].some(({ word }) => word.test("各题解题情况"))).toBe(false);
    expect(RETIRED["ja-JP"].some(({ word }) => word.test("フラグを送信しました"))).toBe(true);
    expect(RETIRED["ja-JP"].some(({ word }) => word.test("確認リンクを送信しました") || word.test("メールは送信しましたが") || word.test("送信中…"))).toBe(false);
    expect(RETIRED["zh-CN"].some(({ word }) => word.test("你已经参加了此比赛") || word.test("请与队伍一起加入本比赛"))).toBe(true);
    expect(RETIRED["zh-CN"].some(({ word }) => word.test("你已被禁止参加此比赛"))).toBe(false);
    expect(RETIRED["zh-CN"].some(({ word }) => word.test("FLAGSTAFF_CAPTCHA_PROVIDER"))).toBe(false);
  });
});

describe("Japanese and Chinese punctuation", () => {
  const strings = (language: "ja-JP" | "zh-CN") => Object.entries(resources[language]).flatMap(([ns, tree]) => leaves(tree, ns));
  // "順位：1", "（3）": the full-width forms. An ASCII bracket stays in code: http(s), the phone rule's "( )".
  const asciiColon = /: /;
  const asciiBrackets = /\((?!s\)|\s?\))/;

  it.each(["ja-JP", "zh-CN"] as const)("%s writes the full-width colon and brackets", (language) => {
    const found = strings(language).filter(([, text]) => asciiColon.test(text) || asciiBrackets.test(text));
    expect(found.map(([key, text]) => `${key}: "${text}"`)).toEqual([]);
  });

  it("would catch the ASCII forms, not code", () => {
    expect(asciiColon.test("順位: 1")).toBe(true);
    expect(asciiBrackets.test("すべての状態 (2)")).toBe(true);
    expect(asciiColon.test("チーム名:12:0123")).toBe(false);
    expect(asciiBrackets.test("http(s) リンク") || asciiBrackets.test("+ - ( ) のみ")).toBe(false);
  });
});

describe("Chinese confirmation titles", () => {
  // Every other question a confirmation dialog asks in Chinese opens with 确定 ("确定删除队伍？").
  it("zh-CN confirmation titles ask with 确定", () => {
    const found = Object.entries(resources["zh-CN"])
      .flatMap(([ns, tree]) => leaves(tree, ns))
      .filter(([key, text]) => /title(_\w+)?$/i.test(key) && text.endsWith("？") && !text.startsWith("确定"));
    expect(found.map(([key, text]) => `${key}: "${text}"`)).toEqual([]);
  });
});

describe("Japanese and Chinese spacing", () => {
  // A field name, like any word, runs straight into its particle: "開始時刻は", not "開始時刻 は".
  const spacedField = /\{\{field\}\} [\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

  it.each(["ja-JP", "zh-CN"] as const)("%s puts no space between a field name and the words after it", (language) => {
    const strings = Object.entries(resources[language]).flatMap(([ns, tree]) => leaves(tree, ns));
    expect(strings.filter(([, text]) => spacedField.test(text)).map(([key, text]) => `${key}: "${text}"`)).toEqual([]);
  });

  it("would catch such a space", () => {
    expect(spacedField.test("{{field}} は有効な時刻ではありません")).toBe(true);
    expect(spacedField.test("{{field}}は有効な時刻ではありません")).toBe(false);
  });
});

describe("strings a page compares with the server's", () => {
  // /account/confirm shows its explanation when the server's refusal is its own title (a used, forged or
  // expired link) and the server's message otherwise: the two must stay the same text.
  it.each(["en-US", "ja-JP", "zh-CN"] as const)("%s: the email confirmation's failure title is the server's refusal", (language) => {
    const common = resources[language].common as unknown as { confirmEmail: { failedTitle: string } };
    const errors = resources[language].errors as unknown as { account: { email_verify_failed: string } };
    expect(common.confirmEmail.failedTitle).toBe(errors.account.email_verify_failed);
  });

  // /account/verify titles the server's refusal of an activation link: the same words as the refusal itself.
  it.each(["en-US", "ja-JP", "zh-CN"] as const)("%s: the account verification's failure title is the server's refusal", (language) => {
    const common = resources[language].common as unknown as { verify: { failedTitle: string } };
    const errors = resources[language].errors as unknown as { account: { verify_failed: string } };
    expect(common.verify.failedTitle).toBe(errors.account.verify_failed);
  });
});
