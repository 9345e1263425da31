#!/usr/bin/env node
// Session lookup cost: autocannon on an authenticated GET (/api/account/profile, the same session path as a
// flag submission) against a running server. Usage: node bench/session-cache.mjs http://127.0.0.1:8787
// [seconds] [connections]. Signs in as FLAGSTAFF_ADMIN_USER / FLAGSTAFF_ADMIN_PASSWORD (default admin /
// Admin1234!) and prints requests/s and latency percentiles as JSON.
import autocannon from "autocannon";

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

// Warm-up, then the measured run.
await autocannon({ url: `${base}/api/account/profile`, headers: { cookie }, connections, duration: 2 });
const r = await autocannon({ url: `${base}/api/account/profile`, headers: { cookie }, connections, duration });
console.log(
  JSON.stringify({
    url: "/api/account/profile",
    connections,
    duration,
    requestsPerSecond: r.requests.average,
    latencyMs: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99 },
    non2xx: r.non2xx,
    errors: r.errors,
  }),
);
