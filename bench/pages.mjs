#!/usr/bin/env node
// The browser's side at the benchmark's size: Chromium (headless, /usr/bin/chromium) against the
// `npm start` server on a seeded game of 1,000 teams × 100 challenges × 50,000 solves (lib/seed.mjs).
// - `load`: each monitor, admin and player page of that game, from navigation to the page's loading
//   text gone; DOM nodes, long tasks (sum and largest) and JS heap after it.
// - `board`: a player's open scoreboard page while a storm (lib/storm.mjs, 20 sockets, 64 clients)
//   submits at `--rate` per second for 10 s: the page's long tasks, frames per second, and how late its
//   50 ms timer ran (mean and worst) — how well the page keeps up with the pushed deltas.
// - `turn`: the scoreboard's page turns, from the click to the next page painted (no storm).
// Usage: node bench/pages.mjs [--only load,board,turn] [--rate 1000] [--runs 1]. Uses the existing build
// (FLAGSTAFF_BUILD_DIR, default build/); everything on 127.0.0.1.
/* global window, document, requestAnimationFrame -- these functions run in the page (Playwright evaluate and init scripts). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "@playwright/test";
import { freePort } from "./lib/net.mjs";
import { seedGame } from "./lib/seed.mjs";
import { startServer } from "./lib/server.mjs";
import { runStorm } from "./lib/storm.mjs";

const { values: args } = parseArgs({ options: { only: { type: "string", default: "load,board" }, rate: { type: "string", default: "1000" }, runs: { type: "string", default: "1" } } });
const only = new Set(args.only.split(","));
const ADMIN = { userName: "admin", password: "Bench-Admin-1!" };
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"];

/** Collects long tasks from the page's start, counted only while `window.__bench.on`. */
function installProbes() {
  const m = { on: true, long: [], frames: 0, ticks: 0, lagSum: 0, lagMax: 0 };
  window.__bench = m;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (m.on) m.long.push(e.duration);
  }).observe({ type: "longtask", buffered: true });
  const frame = () => {
    if (m.on) m.frames++;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    const lag = Math.max(0, now - last - 50);
    last = now;
    if (!m.on) return;
    m.ticks++;
    m.lagSum += lag;
    m.lagMax = Math.max(m.lagMax, lag);
  }, 50);
}

async function signedInContext(browser, url, cookie) {
  const at = cookie.indexOf("=");
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addCookies([{ name: cookie.slice(0, at), value: cookie.slice(at + 1), url }]);
  await context.addInitScript(installProbes);
  return context;
}

async function measureLoads(browser, url, seeded, adminCookie) {
  const admin = await signedInContext(browser, url, adminCookie);
  const player = await signedInContext(browser, url, seeded.teams[0].cookie);
  const g = seeded.gameId;
  const c = seeded.challengeIds[0];
  const pages = [
    ...[`/games/${g}/Scoreboard`, `/games/${g}/monitor/Events`, `/games/${g}/monitor/Submissions`, `/games/${g}/monitor/CheatInfo`].map((p) => [admin, p]),
    ...[`/admin/games/${g}/Review`, `/admin/games/${g}/Writeups`, `/admin/games/${g}/challenges`, `/admin/games/${g}/challenges/${c}`, `/admin/Teams`, `/admin/Users`].map((p) => [admin, p]),
    ...[`/games/${g}`, `/games/${g}/Challenges`, `/games/${g}/Scoreboard`].map((p) => [player, p]),
  ];
  for (const [context, path] of pages) {
    const page = await context.newPage();
    const failures = [];
    page.on("pageerror", (e) => failures.push(e.message));
    page.on("response", (r) => r.status() >= 500 && failures.push(`${r.status()} ${r.url()}`));
    const started = Date.now();
    await page.goto(url + path, { waitUntil: "load" });
    await page.waitForFunction(() => !/loading/i.test(document.body.innerText), null, { timeout: 60_000 });
    const ms = Date.now() - started;
    await page.waitForTimeout(300);
    const m = await page.evaluate(() => ({
      nodes: document.getElementsByTagName("*").length,
      long: window.__bench.long.reduce((a, b) => a + b, 0),
      longMax: Math.max(0, ...window.__bench.long),
      heapMb: performance.memory ? performance.memory.usedJSHeapSize / 1e6 : NaN,
    }));
    const who = context === admin ? "admin " : "player";
    console.log(`load  ${who} ${path.padEnd(40)} ${String(ms).padStart(5)} ms  nodes ${String(m.nodes).padStart(6)}  long tasks ${String(Math.round(m.long)).padStart(5)} ms (largest ${Math.round(m.longMax)})  heap ${m.heapMb.toFixed(1)} MB${failures.length ? `  FAILED: ${failures.join(" | ")}` : ""}`);
    await page.close();
  }
  await admin.close();
  await player.close();
}

async function measureBoard(browser, url, seeded, rate) {
  const context = await signedInContext(browser, url, seeded.teams[0].cookie);
  const page = await context.newPage();
  let frames = 0;
  page.on("websocket", (ws) => ws.on("framereceived", (f) => String(f.payload).includes('"scoreboard"') && frames++));
  await page.goto(`${url}/games/${seeded.gameId}/Scoreboard`);
  await page.getByTestId(/^board-team-/).first().waitFor({ timeout: 60_000 });
  await page.evaluate(() => Object.assign(window.__bench, { on: false, long: [], frames: 0, ticks: 0, lagSum: 0, lagMax: 0 }));
  const started = Date.now();
  await runStorm({ base: url, seeded, clients: 64, seconds: 10, rate, socketCount: 20, settleMs: 3_000, onStormStart: () => page.evaluate(() => (window.__bench.on = true)) });
  const seconds = (Date.now() - started) / 1000;
  const m = await page.evaluate(() => window.__bench);
  const long = m.long.reduce((a, b) => a + b, 0);
  console.log(`board ${rate}/s: ${frames} board frames in ${seconds.toFixed(1)} s; long tasks ${Math.round(long)} ms (largest ${Math.round(Math.max(0, ...m.long))}); ${(m.frames / seconds).toFixed(1)} fps; 50 ms timer late by ${(m.lagSum / Math.max(1, m.ticks)).toFixed(1)} ms mean, ${Math.round(m.lagMax)} ms worst`);
  await context.close();
}

/**
 * `turn`: the scoreboard's page turns (Next, then Previous, 10 times each) on a player's page with no storm:
 * from the click to the first frame painted after the table shows the other page (the row of the page's
 * first team), median and largest.
 */
async function measureTurns(browser, url, seeded) {
  const context = await signedInContext(browser, url, seeded.teams[0].cookie);
  const page = await context.newPage();
  await page.goto(`${url}/games/${seeded.gameId}/Scoreboard`);
  await page.getByTestId(/^board-team-/).first().waitFor({ timeout: 60_000 });
  const times = [];
  for (let i = 0; i < 20; i++) {
    const name = i % 2 === 0 ? "Next" : "Previous";
    const button = page.getByRole("button", { name, exact: true });
    await button.waitFor();
    times.push(
      await button.evaluate(
        (el) =>
          new Promise((resolve) => {
            const first = () => document.querySelector('[data-testid^="board-team-"]')?.getAttribute("data-testid");
            const before = first();
            const started = performance.now();
            el.click();
            const check = () => {
              if (first() === before) return requestAnimationFrame(check);
              // The frame after the one that has the new rows: they have been painted.
              requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - started), 0));
            };
            requestAnimationFrame(check);
          }),
      ),
    );
  }
  times.sort((a, b) => a - b);
  const cells = await page.locator("tbody td").count();
  console.log(`board page turn: ${cells} cells, median ${Math.round(times[10])} ms, largest ${Math.round(times[19])} ms (20 turns)`);
  await context.close();
}

const dataDir = mkdtempSync(join(tmpdir(), "flagstaff-bench-pages-"));
const seeded = await seedGame(dataDir, { teams: 1000, challenges: 100, solves: 50_000 });
const server = startServer({ port: await freePort(), dataDir, env: { FLAGSTAFF_ADMIN_USER: ADMIN.userName, FLAGSTAFF_ADMIN_PASSWORD: ADMIN.password } });
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
try {
  const { url } = await server.ready;
  const login = await fetch(`${url}/api/account/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ADMIN) });
  if (!login.ok) throw new Error(`admin login answered ${login.status}`);
  const adminCookie = login.headers.getSetCookie()[0].split(";")[0];
  for (let run = 0; run < Number(args.runs); run++) {
    if (only.has("load")) await measureLoads(browser, url, seeded, adminCookie);
    if (only.has("board")) await measureBoard(browser, url, seeded, Number(args.rate));
    if (only.has("turn")) await measureTurns(browser, url, seeded);
  }
} finally {
  await browser.close();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
