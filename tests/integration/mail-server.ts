/**
 * Node side of the integration tests: the loopback SMTP server and HTTP mailbox of
 * tests/support/mail-server.ts, which the workerd tests read. `smtpTestBindings()` (called by the config)
 * picks the ports; the default export is the globalSetup that starts the servers on them.
 */
import type { TestProject } from "vitest/node";
import { freePort, smtpBindings, startMailServer } from "../support/mail-server";

/**
 * Worker bindings pointing mail at the test SMTP server (plain SMTP with AUTH on loopback), plus test
 * captcha keys (inactive until a test turns the policy's useCaptcha on).
 */
export async function smtpTestBindings(): Promise<Record<string, string>> {
  const smtp = Number(process.env.FLAGSTAFF_TEST_SMTP_PORT) || (await freePort());
  const mailbox = Number(process.env.FLAGSTAFF_TEST_MAILBOX_PORT) || (await freePort());
  process.env.FLAGSTAFF_TEST_SMTP_PORT = String(smtp);
  process.env.FLAGSTAFF_TEST_MAILBOX_PORT = String(mailbox);
  return {
    ...smtpBindings(smtp),
    FLAGSTAFF_CAPTCHA_PROVIDER: "CloudflareTurnstile",
    FLAGSTAFF_CAPTCHA_SITE_KEY: "test-turnstile-site-key",
    FLAGSTAFF_CAPTCHA_SECRET: "test-turnstile-secret",
  };
}

export default async function setup(project: TestProject) {
  const server = await startMailServer({
    smtp: Number(process.env.FLAGSTAFF_TEST_SMTP_PORT),
    mailbox: Number(process.env.FLAGSTAFF_TEST_MAILBOX_PORT),
  });
  project.provide("mailboxPort", server.mailboxPort);
  return () => server.close();
}

declare module "vitest" {
  export interface ProvidedContext {
    mailboxPort: number;
  }
}
