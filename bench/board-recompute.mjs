// Times a full scoreboard recompute (computeScoreboard) and its serialisation for 1,000 teams ×
// 100 challenges × 50,000 solves, plus one delta. Run: npx tsx bench/board-recompute.mjs (or through npm run bench).
import { computeScoreboard } from "../app/core/scoring/scoreboard.ts";
import { boardDelta } from "../app/core/game-room/delta.ts";

const TEAMS = 1000, CHALLENGES = 100, SOLVES = 50_000;
const start = Date.now() - 3600_000;
const teams = Array.from({ length: TEAMS }, (_, i) => ({ participationId: i + 1, teamId: i + 1, name: `team${i}`, bio: "", avatar: null, divisionId: null }));
const categories = ["Misc", "Crypto", "Pwn", "Web", "Reverse"];
const challenges = Array.from({ length: CHALLENGES }, (_, i) => ({ id: i + 1, title: `c${i}`, category: categories[i % 5], originalScore: 1000, minScoreRate: 0.25, difficulty: 5, deadline: null, disableBloodBonus: false }));
const seen = new Set();
const solves = [];
let sid = 1;
while (solves.length < SOLVES) {
  const p = 1 + Math.floor(Math.random() * TEAMS), c = 1 + Math.floor(Math.random() * CHALLENGES);
  if (seen.has(p * 1000 + c)) continue;
  seen.add(p * 1000 + c);
  solves.push({ participationId: p, challengeId: c, submissionId: sid++, time: start + sid * 10, userName: `u${p}` });
}
const input = { game: { start, end: start + 7200_000, bloodBonus: 52459530, bloodFactors: { first: 50, second: 30, third: 10 } }, divisions: [], teams, challenges, solves, now: Date.now() };
const times = [];
let prev = null;
for (let i = 0; i < 15; i++) {
  const t0 = performance.now();
  const model = computeScoreboard(input);
  const t1 = performance.now();
  const json = JSON.stringify(model);
  const t2 = performance.now();
  const delta = prev ? boardDelta(prev, model, i) : null;
  const t3 = performance.now();
  times.push({ compute: t1 - t0, stringify: t2 - t1, delta: t3 - t2, bytes: json.length, deltaBytes: delta ? JSON.stringify(delta).length : 0 });
  prev = model;
  input.solves = solves.slice(0, SOLVES - 15 + i + 1).concat([]);
}
const med = (k) => times.map((t) => t[k]).sort((a, b) => a - b)[Math.floor(times.length / 2)];
console.log(JSON.stringify({ teams: TEAMS, challenges: CHALLENGES, solves: SOLVES, computeMs: +med("compute").toFixed(1), stringifyMs: +med("stringify").toFixed(1), deltaMs: +med("delta").toFixed(1), bytes: times[0].bytes, deltaBytes: med("deltaBytes") }));
