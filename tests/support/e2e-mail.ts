/**
 * Account mail in the end-to-end tests: the worker sends through a loopback SMTP server
 * (tests/support/mail-server.ts) and the tests read it from its HTTP mailbox.
 *
 * Playwright starts `webServer` before `globalSetup`, and the server's bindings must name the SMTP port,
 * so playwright.config.ts calls `e2eMailBindings()` while it loads: the first load, in the runner
 * process, starts the servers (on FLAGSTAFF_E2E_SMTP_PORT / FLAGSTAFF_E2E_MAILBOX_PORT, or any free
 * port) and records them in the environment, which the test workers inherit; later loads reuse them.
 * The servers end with the runner process.
 */
import { smtpBindings, startMailServer } from "./mail-server";

const SMTP_PORT = "FLAGSTAFF_E2E_SMTP_PORT";
const MAILBOX_URL = "FLAGSTAFF_E2E_MAILBOX_URL";

/** FLAGSTAFF_SMTP_* bindings for the e2e web server, starting the mail servers on the first call. */
export async function e2eMailBindings(): Promise<Record<string, string>> {
  if (!process.env[MAILBOX_URL]) {
    const server = await startMailServer({
      smtp: Number(process.env.FLAGSTAFF_E2E_SMTP_PORT) || 0,
      mailbox: Number(process.env.FLAGSTAFF_E2E_MAILBOX_PORT) || 0,
    });
    server.unref();
    process.env[SMTP_PORT] = String(server.smtpPort);
    process.env[MAILBOX_URL] = `http://127.0.0.1:${server.mailboxPort}`;
  }
  return smtpBindings(Number(process.env[SMTP_PORT]));
}

/** Where the tests read the mail (set by e2eMailBindings in the runner, inherited by the workers). */
export function e2eMailboxUrl(): string {
  const url = process.env[MAILBOX_URL];
  if (!url) throw new Error(`${MAILBOX_URL} is not set: the mail server starts when playwright.config.ts loads`);
  return url;
}
