import { describe, expect, it } from "vitest";
import resources from "~/locales";
import { LANGUAGES, type Language } from "./i18n/languages";
import { getTranslator, hasKey } from "./i18n/translator";
import { type LogRenderOptions, type LogText, PARAM_KINDS, PLURAL_COUNT, renderLogText } from "./log-messages";

const options = (lang: Language, mode: LogRenderOptions["mode"]): LogRenderOptions => ({
  t: getTranslator(lang, "common"),
  exists: (key) => hasKey(lang, "common", key),
  mode,
  formatTime: (ms) => `at ${ms}`,
});
const record = (text: LogText) => renderLogText(text.key, text.params, options("en-US", "record"));
const read = (lang: Language, text: LogText) => renderLogText(text.key, text.params, options(lang, "reader"));

const failure = { kind: "answered", agent: "a1", status: 401, code: "agent.signature_expired", message: "too old" } as const;

// The stored English text is what the code wrote before messages had keys (tools read it).
const RECORDS: [LogText, string][] = [
  [{ key: "signedIn", params: {} }, "Signed in"],
  [{ key: "signInFailed", params: { reason: "account.wrong_credentials" } }, "Failed sign-in: Wrong username or password"],
  [{ key: "registered", params: { status: "EmailConfirmationRequired" } }, "User registered (EmailConfirmationRequired)"],
  [{ key: "participationStatus", params: { id: 1, status: "Accepted" } }, "Participation #1 set to Accepted"],
  [{ key: "userUpdated", params: { user: "bob", fields: ["email", "role", "bio"], role: "Monitor" } }, "User bob updated: email, role=Monitor, bio"],
  [{ key: "userUpdated", params: { user: "bob", fields: [], role: null } }, "User bob updated: nothing"],
  [{ key: "settingsChanged", params: { fields: ["containerPolicy.extraFlagEnvNames", "globalConfig.title"] } }, "Platform settings changed: containerPolicy.extraFlagEnvNames, globalConfig.title"],
  [{ key: "solved", params: { team: "X", title: "Y", id: 3 } }, "Team X solved challenge Y (#3)"],
  [{ key: "solvedBlood", params: { team: "X", title: "Y", id: 3, type: "FirstBlood" } }, "Team X solved challenge Y (#3) — FirstBlood"],
  [{ key: "challengeCreated", params: { title: "Web 1", id: 9, type: "DynamicContainer", game: 2 } }, "Challenge Web 1 (#9, DynamicContainer) created in game #2"],
  [{ key: "containerRemovedByAgent", params: { id: "c1", agent: "a1", reason: "expired" } }, "Container c1 removed by agent a1 (expired)"],
  [{ key: "containerExtended", params: { team: "X", id: "c1", until: Date.UTC(2026, 10, 26, 12) } }, "Team X extended container c1 until 2026-11-26T12:00:00.000Z"],
  [{ key: "containerNotExtended", params: { id: "c1", team: "X", failure: { ...failure, agent: undefined } } }, "Container c1 of team X not extended: the agent answered 401 agent.signature_expired: too old"],
  [
    { key: "containerReleasedByTeam", params: { team: "X", id: "c1", failure: { kind: "unavailable", agent: "a1" } } },
    "Team X destroyed container c1 (released without its agent: agent a1 could not be reached; the agent removes it at expiry or at its next start)",
  ],
  [
    { key: "containerReleasedByAdmin", params: { id: "c1", failure: { kind: "unreachable", agent: "a1" } } },
    "Container c1 destroyed by an admin (released without its agent: agent a1: the agent could not be reached)",
  ],
  [
    { key: "containersReleasedOfChallenges", params: { released: 22, total: 30, challenges: [4, 5], containers: [{ id: "c1", failure }, { id: "c2", failure: { kind: "unavailable", agent: "a2" } }], more: 20 } },
    "22 of 30 containers of challenge(s) #4, #5 were released without their agent: c1 (agent a1: the agent answered 401 agent.signature_expired: too old), c2 (agent a2 could not be reached), and 20 more; each agent removes them at expiry or at its next start",
  ],
  [
    { key: "containersReleasedOfGame", params: { released: 1, total: 1, game: 7, containers: [{ id: "c1", failure: { kind: "unreachable" } }], more: 0 } },
    "1 of 1 containers of game #7 were released without their agent: c1 (the agent could not be reached); each agent removes them at expiry or at its next start",
  ],
  [
    { key: "containersReleasedOfTeam", params: { released: 1, total: 2, team: "Gamma", containers: [{ id: "c1", failure: { kind: "unreachable" } }], more: 0 } },
    "1 of 2 containers of team Gamma, no longer taking part, were released without their agent: c1 (the agent could not be reached); each agent removes them at expiry or at its next start",
  ],
  [{ key: "writeupReplaced", params: { team: 4, game: 2, file: "w.pdf", size: 1024 } }, "Team #4 replaced the writeup of game #2: w.pdf (1024 bytes)"],
  [{ key: "usersImported", params: { rows: 1 } }, "Batch user import: 1 row"],
  [{ key: "usersImported", params: { rows: 2 } }, "Batch user import: 2 rows"],
  [{ key: "gameEdited", params: { title: "Finals", id: 2 } }, "Game Finals (#2) edited"],
  [{ key: "posterRemoved", params: { game: 2 } }, "Poster of game #2 removed"],
  [{ key: "noticePosted", params: { id: 5, game: 2 } }, "Notice #5 posted in game #2"],
  [{ key: "postEdited", params: { title: "Hello", id: "0a1b2c3d" } }, "Post Hello (0a1b2c3d) edited"],
  [{ key: "logoReset", params: {} }, "Platform logo reset to the default"],
];

describe("the stored English text", () => {
  it.each(RECORDS)("%j → %s", (text, english) => {
    expect(record(text)).toBe(english);
  });
});

describe("the reader's text", () => {
  it("names identifiers by their labels in Japanese and Chinese", () => {
    const status: LogText = { key: "participationStatus", params: { id: 1, status: "Accepted" } };
    expect(read("ja-JP", status)).toBe("参加 #1 を「承認済み」にしました");
    expect(read("zh-CN", status)).toBe("参赛 #1 已设为“已通过”");
    const blood: LogText = { key: "solvedBlood", params: { team: "X", title: "Y", id: 3, type: "FirstBlood" } };
    expect(read("ja-JP", blood)).toBe("チーム X が問題 Y（#3）に正解しました — ファーストブラッド");
    expect(read("zh-CN", blood)).toBe("队伍 X 解出了题目 Y（#3）— 一血");
    expect(read("en-US", blood)).toBe("Team X solved challenge Y (#3) — First blood");
    const user: LogText = { key: "userUpdated", params: { user: "bob", fields: ["bio", "role"], role: "Monitor" } };
    expect(read("ja-JP", user)).toBe("ユーザー bob を更新しました：自己紹介、ロール：モニター");
    expect(read("zh-CN", user)).toBe("已更新用户 bob：简介、角色：监控者");
    expect(read("ja-JP", { key: "userUpdated", params: { user: "bob", fields: [], role: null } })).toBe("ユーザー bob を更新しました：変更なし");
    expect(read("ja-JP", { key: "signInFailed", params: { reason: "account.banned" } })).toBe("ログイン失敗：このユーザーは利用停止されています");
    expect(read("zh-CN", { key: "settingsChanged", params: { fields: ["containerPolicy.extraFlagEnvNames"] } })).toBe("平台设置已修改：额外的 flag 变量名");
    expect(read("ja-JP", { key: "challengeCreated", params: { title: "W", id: 9, type: "DynamicContainer", game: 2 } })).toBe("大会 #2 に問題 W（#9、動的コンテナ）を作成しました");
    expect(read("zh-CN", { key: "containerRemovedByAgent", params: { id: "c1", agent: "a1", reason: "expired" } })).toBe("Agent a1 删除了容器 c1（已到期）");
    // The platform's own reason for a removal the agent calls "unknown" (the game ended, practice mode off).
    const ended: LogText = { key: "containerRemovedByAgent", params: { id: "c1", agent: "a1", reason: "gameEnded" } };
    expect(read("en-US", ended)).toBe("Container c1 removed by agent a1 (the game ended and practice mode is off)");
    expect(read("ja-JP", ended)).toBe("エージェント a1 がコンテナ c1 を削除しました（大会が終了し、練習モードがオフ）");
    expect(read("zh-CN", ended)).toBe("Agent a1 删除了容器 c1（比赛已结束且未开启练习模式）");
    expect(read("ja-JP", { key: "containerExtended", params: { team: "X", id: "c1", until: 5 } })).toBe("チーム X がコンテナ c1 を at 5 まで延長しました");
    expect(read("en-US", { key: "usersImported", params: { rows: 1 } })).toBe("Batch user import: 1 row");
    expect(read("ja-JP", { key: "usersImported", params: { rows: 1 } })).toBe("ユーザーの一括登録：1 行");
    expect(read("zh-CN", { key: "usersImported", params: { rows: 3 } })).toBe("批量导入用户：3 行");
  });

  it("inserts names as they are: not escaped, not interpolated, not nested", () => {
    const team = `<b>&"{{id}}"</b> $t(adminLogs.title) {{title}}`;
    const text: LogText = { key: "solved", params: { team, title: "T", id: 3 } };
    expect(read("ja-JP", text)).toBe(`チーム ${team} が問題 T（#3）に正解しました`);
    expect(record(text)).toBe(`Team ${team} solved challenge T (#3)`);
  });

  it("takes text-direction controls out of names, so a name cannot turn the sentence around", () => {
    const text: LogText = { key: "solved", params: { team: "\u202eniw su", title: "T\u2066", id: 3 } };
    expect(read("en-US", text)).toBe("Team niw su solved challenge T (#3)");
    expect(record(text)).toBe("Team niw su solved challenge T (#3)");
  });

  it("shows an identifier it has no label for as it is, and leaves an unknown key to the stored text", () => {
    expect(read("ja-JP", { key: "participationStatus", params: { id: 1, status: "Frozen" as "Accepted" } })).toBe("参加 #1 を「Frozen」にしました");
    expect(read("zh-CN", { key: "settingsChanged", params: { fields: ["newSection.flag"] } })).toBe("平台设置已修改：newSection.flag");
    expect(renderLogText("somethingNew", {}, options("ja-JP", "reader"))).toBeNull();
    expect(renderLogText(undefined, undefined, options("ja-JP", "reader"))).toBeNull();
    expect(renderLogText("toString", {}, options("ja-JP", "reader"))).toBeNull();
    // Parameters of an unexpected shape do not throw.
    expect(renderLogText("userUpdated", { user: 1, fields: "role" }, options("zh-CN", "reader"))).toBe("已更新用户 1：无变化");
  });
});

describe("the templates", () => {
  const vars = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
  const templates = (lang: Language) => (resources[lang].common.adminLogs as { messages: Record<string, string> }).messages;
  /** The message keys of the templates: a plural form (`key_one`, `key_other`) stands for `key`. */
  const keysOf = (lang: Language) => [...new Set(Object.keys(templates(lang)).map((key) => key.replace(/_(zero|one|two|few|many|other)$/, "")))].sort();

  it.each(LANGUAGES)("%s has a template for every message key, with the English template's parameters", (lang) => {
    const english = templates("en-US");
    expect(keysOf(lang)).toEqual(Object.keys(PARAM_KINDS).sort());
    for (const [key, text] of Object.entries(templates(lang))) expect({ key, vars: vars(text) }).toEqual({ key, vars: vars(english[key]!) });
  });

  it.each(LANGUAGES)("%s has the plural forms of every counted message, and only those", (lang) => {
    const plural = Object.keys(templates(lang)).filter((key) => /_(one|other)$/.test(key));
    const counted = Object.keys(PLURAL_COUNT).flatMap((key) => [`${key}_one`, `${key}_other`]);
    expect(plural.sort()).toEqual(counted.sort());
  });
});
