/**
 * A real SMTP server on loopback (smtp-server) that keeps every message it receives, and a tiny HTTP
 * mailbox to read them: `GET /?to=<address>` answers the messages for that recipient, oldest first, as
 * JSON `ReceivedMail[]` (tests/support/mail-reader.ts reads it). Node only; used by the integration
 * tests' globalSetup (tests/integration/mail-server.ts) and by the end-to-end config (playwright.config.ts).
 * A message to an address at hold.test is kept, its reply held back, until `POST /release?to=<address>`
 * (or 20 s): a mail server slow to confirm; `GET /held?to=<address>` answers how many wait.
 */
import { createServer as createHttpServer } from "node:http";
import type { Server } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/** The account the test SMTP server accepts (plain AUTH over loopback). */
export const SMTP_TEST_USER = "mailer";
export const SMTP_TEST_PASSWORD = "mailer-secret";
export const SMTP_TEST_SENDER = "noreply@flagstaff.test";

export interface MailServer {
  smtpPort: number;
  mailboxPort: number;
  close(): Promise<void>;
  /** Lets the process end while the servers still listen (they go with it). */
  unref(): void;
}

/** A loopback port free right now (for configs that must name a port before the server starts). */
export { freePort } from "../../scripts/lib/free-port.mjs";

function listen(server: Server | SMTPServer, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const net = server instanceof SMTPServer ? server.server : server;
    net.once("error", reject);
    net.listen(port, "127.0.0.1", () => {
      net.off("error", reject);
      resolve((net.address() as { port: number }).port);
    });
  });
}

/**
 * Starts both servers on 127.0.0.1 (port 0 = any free port). The SMTP server speaks plain SMTP (no
 * STARTTLS) and requires AUTH as SMTP_TEST_USER / SMTP_TEST_PASSWORD.
 */
export async function startMailServer(ports: { smtp?: number; mailbox?: number } = {}): Promise<MailServer> {
  const received: ReceivedMail[] = [];
  /** Held messages' replies, by recipient. */
  const held = new Map<string, (() => void)[]>();
  const smtp = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authMethods: ["PLAIN", "LOGIN"],
    onAuth(auth, _session, cb) {
      if (auth.username === SMTP_TEST_USER && auth.password === SMTP_TEST_PASSWORD) cb(null, { user: auth.username });
      else cb(new Error("Invalid username or password"));
    },
    // Addresses at bounce.test are refused, as a real server refuses an unknown mailbox: a failed delivery.
    onRcptTo(address, _session, cb) {
      if (address.address.toLowerCase().endsWith("@bounce.test")) cb(Object.assign(new Error("Mailbox unavailable"), { responseCode: 550 }));
      else cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
        const accept = () => {
          received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "", to, raw: Buffer.concat(chunks).toString("utf8") });
          cb();
        };
        const hold = to.find((address) => address.endsWith("@hold.test"));
        if (!hold) return accept();
        const timer = setTimeout(accept, 20_000);
        const release = () => {
          clearTimeout(timer);
          accept();
        };
        held.set(hold, [...(held.get(hold) ?? []), release]);
      });
    },
  });
  const mailbox = createHttpServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const to = (url.searchParams.get("to") ?? "").toLowerCase();
    res.setHeader("content-type", "application/json");
    if (url.pathname === "/held") {
      res.end(JSON.stringify({ held: held.get(to)?.length ?? 0 }));
      return;
    }
    if (req.method === "POST" && url.pathname === "/release") {
      const waiting = held.get(to) ?? [];
      held.delete(to);
      for (const release of waiting) release();
      res.end(JSON.stringify({ released: waiting.length }));
      return;
    }
    res.end(JSON.stringify(received.filter((m) => m.to.includes(to))));
  });
  const smtpPort = await listen(smtp, ports.smtp ?? 0);
  const mailboxPort = await listen(mailbox, ports.mailbox ?? 0);
  return {
    smtpPort,
    mailboxPort,
    unref() {
      smtp.server.unref();
      mailbox.unref();
    },
    async close() {
      await new Promise<void>((resolve) => mailbox.close(() => resolve()));
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    },
  };
}

/** FLAGSTAFF_SMTP_* bindings that point the worker at the test SMTP server on `port`. */
export function smtpBindings(port: number): Record<string, string> {
  return {
    FLAGSTAFF_SMTP_HOST: "127.0.0.1",
    FLAGSTAFF_SMTP_PORT: String(port),
    FLAGSTAFF_SMTP_USER: SMTP_TEST_USER,
    FLAGSTAFF_SMTP_PASSWORD: SMTP_TEST_PASSWORD,
    FLAGSTAFF_SMTP_SENDER: SMTP_TEST_SENDER,
    FLAGSTAFF_SMTP_SECURITY: "none",
  };
}
