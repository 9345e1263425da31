/**
 * Node side of the integration tests: a real SMTP server on loopback (smtp-server) that keeps every
 * received message, and a small HTTP mailbox the workerd tests read them from.
 * `smtpTestBindings()` (called by the config) picks the ports; the default export is the globalSetup.
 */
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createNetServer } from "node:net";
import type { TestProject } from "vitest/node";
import { SMTPServer } from "smtp-server";

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createNetServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

const ports = { smtp: 0, mailbox: 0 };

/**
 * Worker bindings pointing mail at the test SMTP server (plain SMTP with AUTH on loopback), plus test
 * captcha keys (inactive until a test turns the policy's useCaptcha on).
 */
export async function smtpTestBindings(): Promise<Record<string, string>> {
  ports.smtp = Number(process.env.FLAGSTAFF_TEST_SMTP_PORT) || (await freePort());
  ports.mailbox = Number(process.env.FLAGSTAFF_TEST_MAILBOX_PORT) || (await freePort());
  process.env.FLAGSTAFF_TEST_SMTP_PORT = String(ports.smtp);
  process.env.FLAGSTAFF_TEST_MAILBOX_PORT = String(ports.mailbox);
  return {
    FLAGSTAFF_SMTP_HOST: "127.0.0.1",
    FLAGSTAFF_SMTP_PORT: String(ports.smtp),
    FLAGSTAFF_SMTP_USER: "mailer",
    FLAGSTAFF_SMTP_PASSWORD: "mailer-secret",
    FLAGSTAFF_SMTP_SENDER: "noreply@flagstaff.test",
    FLAGSTAFF_SMTP_SECURITY: "none",
    FLAGSTAFF_CAPTCHA_PROVIDER: "CloudflareTurnstile",
    FLAGSTAFF_CAPTCHA_SITE_KEY: "test-turnstile-site-key",
    FLAGSTAFF_CAPTCHA_SECRET: "test-turnstile-secret",
  };
}

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export default async function setup(project: TestProject) {
  const smtpPort = Number(process.env.FLAGSTAFF_TEST_SMTP_PORT);
  const mailboxPort = Number(process.env.FLAGSTAFF_TEST_MAILBOX_PORT);
  const received: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authMethods: ["PLAIN", "LOGIN"],
    onAuth(auth, _session, cb) {
      if (auth.username === "mailer" && auth.password === "mailer-secret") cb(null, { user: auth.username });
      else cb(new Error("Invalid username or password"));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(smtpPort, "127.0.0.1", resolve));
  const mailbox: Server = createHttpServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const to = (url.searchParams.get("to") ?? "").toLowerCase();
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(received.filter((m) => m.to.includes(to))));
  });
  await new Promise<void>((resolve) => mailbox.listen(mailboxPort, "127.0.0.1", resolve));
  project.provide("mailboxPort", mailboxPort);
  return async () => {
    await new Promise<void>((resolve) => mailbox.close(() => resolve()));
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    mailboxPort: number;
  }
}
