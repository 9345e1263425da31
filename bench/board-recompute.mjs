// Times the game room's board work for 1,000 teams × 100 challenges × 50,000 solves: one full computation
// (computeScoreboard, done on wake and on structural changes), its serialisation, and one live delta
// (solveDelta: adding 1, 5 and 20 solves to the board, as the room does per push interval).
// Run: npm run bench:board.
import { computeScoreboard } from "../app/core/scoring/scoreboard.ts";
import { indexBoard, solveDelta } from "../app/core/game-room/delta.ts";

const TEAMS = 1000, CHALLENGES = 100, SOLVES = 50_000;
const start = Date.now() - 3600_000;
const teams = Array.from({ length: TEAMS }, (_, i) => ({ participationId: i + 1, teamId: i + 1, name: `team${i}`, bio: "", avatar: null, divisionId: null }));
const categories = ["Misc", "Crypto", "Pwn", "Web", "Reverse"];
const challenges = Array.from({ length: CHALLENGES }, (_, i) => ({ id: i + 1, title: `c${i}`, category: categories[i % 5], originalScore: 1000, minScoreRate: 0.25, difficulty: 5, deadline: null, disableBloodBonus: false }));
const seen = new Set();
const solves = [];
let sid = 1;
while (solves.length < SOLVES + 200) {
  const p = 1 + Math.floor(Math.random() * TEAMS), c = 1 + Math.floor(Math.random() * CHALLENGES);
  if (seen.has(p * 1000 + c)) continue;
  seen.add(p * 1000 + c);
  solves.push({ participationId: p, challengeId: c, submissionId: sid++, time: start + sid * 10, userName: `u${p}` });
}
const input = { game: { start, end: start + 7200_000, bloodBonus: 52459530, bloodFactors: { first: 50, second: 30, third: 10 } }, divisions: [], teams, challenges, solves: solves.slice(0, SOLVES), now: Date.now() };
const index = indexBoard(input);
const med = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const full = { compute: [], stringify: [] };
let model = null;
for (let i = 0; i < 9; i++) {
  const t0 = performance.now();
  model = computeScoreboard(input);
  const t1 = performance.now();
  const json = JSON.stringify(model);
  full.compute.push(t1 - t0);
  full.stringify.push(performance.now() - t1);
  full.bytes = json.length;
}
const deltas = {};
let next = SOLVES;
for (const batch of [1, 5, 20]) {
  const ms = [], bytes = [];
  for (let i = 0; i < 9; i++) {
    const added = solves.slice(next, next + batch);
    next += batch;
    const t0 = performance.now();
    const r = solveDelta(index, model, added, i + 2, Date.now());
    ms.push(performance.now() - t0);
    bytes.push(JSON.stringify(r.delta).length);
    model = r.board;
  }
  deltas[`solves${batch}`] = { ms: +med(ms).toFixed(2), bytes: med(bytes) };
}
console.log(JSON.stringify({ teams: TEAMS, challenges: CHALLENGES, solves: SOLVES, computeMs: +med(full.compute).toFixed(1), stringifyMs: +med(full.stringify).toFixed(1), bytes: full.bytes, deltas }));
