import { describe, expect, it } from "vitest";
import { type GameAccessChange, type GameSocketHolder, gameView, lostTeams, reauthorizeGameSocket } from "./socket-access";

describe("gameView", () => {
  it.each([
    [false, false, null, true, true],
    [true, false, null, false, false],
    [true, false, 7, true, false],
    [true, true, null, true, true],
    [true, true, 7, true, true],
  ] as const)("hidden %s, staff %s, team %s → view %s, board %s", (hidden, staff, teamId, canView, canReadBoard) => {
    expect(gameView(hidden, { staff, teamId })).toEqual({ canView, canReadBoard });
  });
});

describe("reauthorizeGameSocket", () => {
  const visitor: GameSocketHolder = { userId: null, staff: false, teamId: null, boardReader: true };
  const player: GameSocketHolder = { userId: "alice", staff: false, teamId: 7, boardReader: false };
  const publicPlayer: GameSocketHolder = { ...player, boardReader: true };
  const monitor: GameSocketHolder = { userId: "mona", staff: true, teamId: null, boardReader: true };
  const playingMonitor: GameSocketHolder = { ...monitor, teamId: 9 };

  it.each<[string, GameSocketHolder, GameAccessChange, GameSocketHolder | null]>([
    // The team's participation is no longer Accepted (suspended, rejected, pending, kicked, disbanded).
    ["a hidden game's player whose team is out", player, { hidden: true, teams: { alice: null } }, null],
    ["a public game's player whose team is out: notices and board stay, verdicts go", publicPlayer, { hidden: false, teams: { alice: null } }, { ...publicPlayer, teamId: null }],
    ["a player not in a partial list", player, { hidden: true, teams: { bob: null } }, player],
    ["a player absent from a complete list", player, { hidden: true, teams: {}, complete: true }, null],
    ["a player still in a complete list", player, { hidden: true, teams: { alice: 7 }, complete: true }, player],
    ["a player listed with another team (never gained in place)", player, { hidden: true, teams: { alice: 8 } }, null],
    ["a visitor whose team was never set", { ...visitor, userId: "vic" }, { hidden: false, teams: {}, complete: true }, { ...visitor, userId: "vic" }],
    // The game is hidden under open sockets.
    ["a visitor of a game made hidden", visitor, { hidden: true }, null],
    ["a player of a game made hidden: the board goes", publicPlayer, { hidden: true }, player],
    ["a monitor of a game made hidden", monitor, { hidden: true }, monitor],
    // A monitor or an admin made a user.
    ["a demoted monitor on a hidden game", monitor, { hidden: true, unstaffed: ["mona"] }, null],
    ["a demoted monitor on a public game", monitor, { hidden: false, unstaffed: ["mona"] }, { ...monitor, staff: false }],
    ["a demoted monitor who plays the hidden game: the board goes", playingMonitor, { hidden: true, unstaffed: ["mona"] }, { ...playingMonitor, staff: false, boardReader: false }],
    ["another monitor", monitor, { hidden: true, unstaffed: ["someone"] }, monitor],
  ])("%s", (_name, holder, change, expected) => {
    expect(reauthorizeGameSocket(holder, change)).toEqual(expected);
  });

  it("keeps the holder's object when nothing changes, and its other fields when something does", () => {
    const socket = { ...publicPlayer, channel: "game" };
    expect(reauthorizeGameSocket(socket, { hidden: false, teams: { alice: 7 } })).toBe(socket);
    expect(reauthorizeGameSocket(socket, { hidden: false, teams: { alice: null } })).toEqual({ ...socket, teamId: null });
  });

  it("reads only the list's own keys", () => {
    const proto = { ...player, userId: "constructor" };
    expect(reauthorizeGameSocket(proto, { hidden: true, teams: {} })).toBe(proto);
  });

  it("never widens access", () => {
    const changes: GameAccessChange[] = [{ hidden: false }, { hidden: true }, { hidden: false, teams: { alice: 7 }, complete: true }, { hidden: true, unstaffed: [] }];
    const holders = [visitor, player, publicPlayer, monitor, playingMonitor, { ...player, teamId: null, boardReader: false }];
    for (const holder of holders) {
      for (const change of changes) {
        const after = reauthorizeGameSocket(holder, change);
        if (after === null) continue;
        expect(Number(after.staff) <= Number(holder.staff)).toBe(true);
        expect(Number(after.boardReader) <= Number(holder.boardReader)).toBe(true);
        expect(after.teamId === holder.teamId || after.teamId === null).toBe(true);
      }
    }
  });
});

describe("lostTeams", () => {
  it("lists the users whose accepted team went or changed, not those who gained one", () => {
    const before = new Map([
      ["a", 1],
      ["b", 2],
      ["c", 3],
    ]);
    const after = new Map([
      ["a", 1],
      ["c", 4],
      ["d", 5],
    ]);
    expect(lostTeams(before, after)).toEqual({ b: null, c: 4 });
    expect(lostTeams(before, before)).toEqual({});
  });
});
