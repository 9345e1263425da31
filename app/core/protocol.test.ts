import { describe, expect, it } from "vitest";
import { changedChallengeOf, parseRelayFrames, relayCloseAll, relayCloseSession, relayCloseUser, relayFrame, relayFrames, relayReauthorize, type ServerMessage } from "./protocol";

describe("relay feed messages", () => {
  const notice = JSON.stringify({ type: "notice", seq: 8, data: { content: "line one\nline two" } });
  const verdict = JSON.stringify({ type: "verdict", seq: 8, data: { submissionId: 9 } });

  it("carry one routed frame, or several in order in one send", () => {
    const one = relayFrame({ seq: 8, teamId: null, boardReadersOnly: false }, notice);
    expect(one).toBe(`8 - 0\n${notice}`);
    expect(parseRelayFrames(one)).toEqual([{ route: { seq: 8, teamId: null, boardReadersOnly: false }, frame: notice }]);
    const two = relayFrames([one, relayFrame({ seq: 8, teamId: 12, boardReadersOnly: true }, verdict)]);
    expect(parseRelayFrames(two)).toEqual([
      { route: { seq: 8, teamId: null, boardReadersOnly: false }, frame: notice },
      { route: { seq: 8, teamId: 12, boardReadersOnly: true }, frame: verdict },
    ]);
  });

  it("carry an order to close one user's sockets, among routed frames", () => {
    const close = relayCloseUser("5b1c0a6e-0000-4000-8000-000000000001", 4403);
    expect(close).toBe('x 4403\n"5b1c0a6e-0000-4000-8000-000000000001"');
    expect(parseRelayFrames(relayFrames([relayFrame({ seq: 8, teamId: null, boardReadersOnly: false }, notice), close]))).toEqual([
      { route: { seq: 8, teamId: null, boardReadersOnly: false }, frame: notice },
      { closeUser: "5b1c0a6e-0000-4000-8000-000000000001", code: 4403 },
    ]);
  });

  it("carry orders to close a session's sockets and to check the sockets again", () => {
    const session = relayCloseSession("ab12", 4403);
    expect(session).toBe('s 4403\n"ab12"');
    const change = { hidden: true, teams: { u1: null, u2: 7 }, unstaffed: ["u3"] };
    const again = relayReauthorize(change);
    expect(again).toBe(`a\n${JSON.stringify(change)}`);
    expect(parseRelayFrames(relayFrames([session, again, relayReauthorize({ hidden: false, teams: {}, complete: true })]))).toEqual([
      { closeSession: "ab12", code: 4403 },
      { reauthorize: change },
      { reauthorize: { hidden: false, teams: {}, complete: true } },
    ]);
  });

  it("carry an order to close every socket with the room's code and reason", () => {
    const all = relayCloseAll(4404, "game deleted");
    expect(all).toBe('g 4404\n"game deleted"');
    expect(parseRelayFrames(relayFrames([relayFrame({ seq: 8, teamId: null, boardReadersOnly: false }, notice), all]))).toEqual([
      { route: { seq: 8, teamId: null, boardReadersOnly: false }, frame: notice },
      { closeAll: "game deleted", code: 4404 },
    ]);
  });

  it.each([
    ["a close-all order whose reason is not a JSON string", "g 4404\n4"],
    ["a close-all order with a bad code", 'g 404\n"game deleted"'],
    ["a session close order with an empty session", 's 4403\n""'],
    ["a check order that is not JSON", "a\n{"],
    ["a check order without hidden", 'a\n{"teams":{}}'],
    ["a check order with a bad team", 'a\n{"hidden":true,"teams":{"u":"7"}}'],
    ["a check order with teams as a list", 'a\n{"hidden":true,"teams":[1]}'],
    ["a check order with a bad unstaffed list", 'a\n{"hidden":true,"unstaffed":[1]}'],
    ["a check order with a bad complete flag", 'a\n{"hidden":true,"complete":1}'],
    ["a close order without a user", "x 4403"],
    ["a close order whose user is not a JSON string", "x 4403\nabc"],
    ["a close order with an empty user", 'x 4403\n""'],
    ["a close order with a bad code", 'x 44\n"u"'],
    ["no header", notice],
    ["a header without a frame", "8 - 0"],
    ["a second header without its frame", `8 - 0\n${notice}\n9 - 0`],
    ["a bad number", `x - 0\n${notice}`],
    ["a bad team", `8 ab 0\n${notice}`],
    ["a bad readers flag", `8 - 2\n${notice}`],
    ["an extra header field", `8 - 0 1\n${notice}`],
  ])("are refused with %s", (_name, text) => {
    expect(parseRelayFrames(text)).toBeNull();
  });
});

describe("changedChallengeOf", () => {
  it("names the challenge an organiser's edit or the team's container change is about, and nothing else", () => {
    const cases: [ServerMessage, number | null][] = [
      [{ type: "challengeChanged", seq: 3, data: { id: 7 } }, 7],
      [{ type: "containerChanged", seq: 3, data: { challengeId: 9 } }, 9],
      [{ type: "verdict", seq: 3, data: { submissionId: 1, challengeId: 7, status: "WrongAnswer" } }, null],
      [{ type: "noticeDeleted", seq: 3, data: { id: 7 } }, null],
      [{ type: "notice", seq: 3, data: { id: 7, type: "NewHint", values: ["x"], time: 1 } }, null],
    ];
    for (const [message, id] of cases) expect(changedChallengeOf(message), message.type).toBe(id);
  });
});
