import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "@playwright/test";
import { e2eMailBindings } from "./tests/support/e2e-mail";

// End-to-end tests against the production-style server (scripts/start.mjs) on the already built app,
// with a fresh data folder per run. `npm test` builds first and passes FLAGSTAFF_E2E_DATA_DIR.
// FLAGSTAFF_E2E_PORT lets a second run share the machine (CI uses the default).
const PORT = Number(process.env.FLAGSTAFF_E2E_PORT ?? 8790);
const BASE_URL = `http://127.0.0.1:${PORT}`;
// Made once, in the runner process (its workers inherit the variable), and removed when that process
// exits, after the web server has stopped. `npm test` passes its own folder and removes it itself.
if (!process.env.FLAGSTAFF_E2E_DATA_DIR) {
  const dataDir = mkdtempSync(join(tmpdir(), "flagstaff-e2e-"));
  process.env.FLAGSTAFF_E2E_DATA_DIR = dataDir;
  process.on("exit", () => rmSync(dataDir, { recursive: true, force: true }));
}

// Account mail goes to a loopback SMTP server the tests read (tests/support/e2e-mail.ts). Playwright starts
// webServer before globalSetup, so the mail server starts here, in the runner process, as the config loads.
const MAIL_BINDINGS = await e2eMailBindings();

// FLAGSTAFF_TEST_RESULTS lets parallel runs keep their reports and traces apart.
const RESULTS = process.env.FLAGSTAFF_TEST_RESULTS ?? "test-results";

export const ADMIN_USER = "admin";
export const ADMIN_PASSWORD = "Admin1234!";

// Specs that change what every page shows (platform texts, colour, account policy) or check the shared
// config's validators: they run alone, after the others (project "exclusive"); if a shared test fails they
// are not run and count as failed. The rest run two files at a time (DECISIONS.md: the browser and the
// server then keep both cores busy; one worker left ≈ 12 % of the machine idle).
const EXCLUSIVE = ["account-mail.spec.ts", "content.spec.ts", "security.spec.ts", "smoke.spec.ts"];

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  outputDir: `${RESULTS}/e2e`,
  workers: 2,
  fullyParallel: false,
  projects: [
    { name: "shared", testIgnore: EXCLUSIVE.map((file) => `**/${file}`) },
    { name: "exclusive", testMatch: EXCLUSIVE.map((file) => `**/${file}`), dependencies: ["shared"], workers: 1 },
  ],
  retries: 0,
  forbidOnly: true,
  // Generous limits: they catch a hang, not slowness. The same suite on the same kind of machine has run
  // from 600 to 1,000 s as the machine's speed varied (DECISIONS.md); speed is measured in bench/.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: `${RESULTS}/reports/e2e.json` }]],
  use: {
    baseURL: BASE_URL,
    locale: "en-US",
    screenshot: "only-on-failure",
    // A failed test keeps its trace (actions, console, network) and a screenshot of its end. DOM snapshots and
    // the screencast are left out: recorded for every test, the snapshots cost ≈ 15 % of the suite's time and
    // the screencast ≈ 20 % of the browser's CPU (DECISIONS.md).
    trace: { mode: "retain-on-failure", snapshots: false, screenshots: false },
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  // A failed test can leave its container running; the run's data folder, and so its agent's id, goes away.
  globalTeardown: "./tests/e2e/global-teardown.ts",
  webServer: {
    // The runner's own Node (22, from the `node` devDependency) runs the server too.
    command: `"${process.execPath}" scripts/start.mjs`,
    url: `${BASE_URL}/api/config`,
    wait: { stdout: /Flagstaff is running at/ },
    reuseExistingServer: false,
    timeout: 90_000,
    stdout: "pipe",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
    env: {
      ...(process.env as Record<string, string>),
      FLAGSTAFF_PORT: String(PORT),
      FLAGSTAFF_DATA_DIR: process.env.FLAGSTAFF_E2E_DATA_DIR,
      FLAGSTAFF_ADMIN_USER: ADMIN_USER,
      FLAGSTAFF_ADMIN_PASSWORD: ADMIN_PASSWORD,
      FLAGSTAFF_DISABLE_RATE_LIMIT: "true",
      // `npm start` launches a container agent on this engine: the private test dockerd unless the caller
      // names another (container-agent/scripts/dockerd.sh; images from test-image.sh).
      DOCKER_HOST: process.env.DOCKER_HOST ?? "unix:///tmp/flagstaff-docker.sock",
      ...MAIL_BINDINGS,
      WRANGLER_SEND_METRICS: "false",
      WRANGLER_SEND_ERROR_REPORTS: "false",
      WRANGLER_HIDE_BANNER: "true",
      CLOUDFLARE_CF_FETCH_ENABLED: "false",
    },
  },
});
