import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { agentTestBindings } from "./tests/integration/container-agent.ts";
import { smtpTestBindings } from "./tests/integration/mail-server.ts";

/** The `npm start` socket relay's proof (workers/hub.ts), fixed for tests/integration/hub.test.ts. */
const RELAY_TEST_TOKEN = "integration-relay-token-0123456789";
/** The launcher's one-time token for creating the first admin (tests/integration/account.test.ts). */
const BOOTSTRAP_TEST_TOKEN = "integration-bootstrap-token-0123456789";

// Integration tests run inside workerd against the built worker (`react-router build` first): the same
// bindings as production, D1 with the real migrations, R2 and the Durable Objects.
export default defineConfig(async () => ({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: `./${process.env.FLAGSTAFF_BUILD_DIR ?? "build"}/server/wrangler.json` },
      miniflare: { bindings: { TEST_MIGRATIONS: await readD1Migrations("migrations"), FLAGSTAFF_RELAY_TOKEN: RELAY_TEST_TOKEN, FLAGSTAFF_BOOTSTRAP_TOKEN: BOOTSTRAP_TEST_TOKEN, FLAGSTAFF_PUBLIC_URL: "http://flagstaff.test", ...(await smtpTestBindings()), ...(await agentTestBindings()) } },
    }),
  ],
  resolve: { tsconfigPaths: true },
  test: {
    // CommonJS packages imported by source modules the tests load directly are pre-bundled to ES modules.
    deps: { optimizer: { ssr: { enabled: true, include: ["@fastify/accept-negotiator"] } } },
    // Registrations and logins hash passwords with scrypt (≈ 0.14 s each, DECISIONS.md): generous on a loaded 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    include: ["tests/integration/**/*.test.ts"],
    // Two test files at a time (the pool isolates storage per test): one at a time kept the 2-core machine
    // ≈ 50 % busy, the runtime's one thread; two take the suite from 327 to 204 s (DECISIONS.md).
    maxWorkers: 2,
    // The test files of a worker share one module graph: each file no longer imports and transforms the
    // app again (≈ 5 s a file). Storage stays isolated per test by the pool; 214 → 167 s (DECISIONS.md).
    isolate: false,
    setupFiles: ["./tests/integration/apply-migrations.ts"],
    // A real SMTP server on loopback for account mail (tests/integration/mail-server.ts).
    // A real container agent on the private test dockerd (tests/integration/container-agent.ts).
    globalSetup: ["./tests/integration/mail-server.ts", "./tests/integration/container-agent.ts"],
  },
}));
