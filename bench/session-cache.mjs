#!/usr/bin/env node
// Session lookup cost: closed-loop load (bench/lib/load.mjs) on authenticated GETs against a running
// server, as JSON lines:
// - /api/game/{id}/details: the flag-submission path without D1 (session → GameRoom RPC from memory), so
//   the session lookup is the only D1 round trip of the request;
// - /api/account/profile: the session lookup plus one D1 read of the profile.
// Usage: node bench/session-cache.mjs http://127.0.0.1:8787 [seconds] [connections]. Signs in as
// FLAGSTAFF_ADMIN_USER / FLAGSTAFF_ADMIN_PASSWORD (default admin / Admin1234!), creates a running game
// (accepting without review) and a team for that user, and joins it.
import { hammer } from "./lib/load.mjs";

const base = process.argv[2] ?? "http://127.0.0.1:8787";
const duration = Number(process.argv[3] ?? 10);
const connections = Number(process.argv[4] ?? 20);
const userName = process.env.FLAGSTAFF_ADMIN_USER ?? "admin";
const password = process.env.FLAGSTAFF_ADMIN_PASSWORD ?? "Admin1234!";

const login = await fetch(`${base}/api/account/login`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ userName, password }),
});
if (!login.ok) throw new Error(`login answered ${login.status}: ${await login.text()}`);
const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
const check = await fetch(`${base}/api/account/profile`, { headers: { cookie } });
if (!check.ok) throw new Error(`profile answered ${check.status}`);

async function call(method, path, body) {
  const r = await fetch(`${base}${path}`, { method, headers: { cookie, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!r.ok) throw new Error(`${method} ${path} answered ${r.status}: ${await r.text()}`);
  return r.json();
}
const stamp = Date.now().toString(36);
const now = Date.now();
const game = await call("POST", "/api/edit/games", { title: `Bench ${stamp}`, start: now - 3_600_000, end: now + 3_600_000, acceptWithoutReview: true });
const teams = await call("GET", "/api/team");
const team = teams[0] ?? (await call("POST", "/api/team", { name: `bench${stamp}`.slice(0, 20) }));
await call("POST", `/api/game/${game.id}`, { teamId: team.id });
await call("GET", `/api/game/${game.id}/details`);

for (const path of [`/api/game/${game.id}/details`, "/api/account/profile"]) {
  // Warm-up, then the measured run.
  await hammer(`${base}${path}`, { headers: { cookie }, connections, seconds: 2 });
  const r = await hammer(`${base}${path}`, { headers: { cookie }, connections, seconds: duration });
  console.log(
    JSON.stringify({
      path: path.replace(/\/\d+\//, "/{id}/"),
      connections,
      duration,
      requestsPerSecond: r.rps,
      latencyMs: { p50: r.p50Ms, p90: r.p90Ms, p99: r.p99Ms },
      non2xx: r.non2xx,
      errors: r.errors,
    }),
  );
}
