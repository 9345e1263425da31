import { connect } from "cloudflare:sockets";
import { buildMessage, dataPayload, isSafeAddress, type MailMessage } from "./mime";

export type SmtpSecurity = "none" | "starttls" | "tls";

export interface SmtpConfig {
  host: string;
  port: number;
  user: string;
  password: string;
  sender: string;
  security: SmtpSecurity;
  /** How long each reply may take (TIMEOUT_MS unless set). */
  timeoutMs?: number;
}

export class SmtpError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SmtpError";
  }
}

const TIMEOUT_MS = 15_000;

/** A reply that did not come within TIMEOUT_MS. */
export class SmtpTimeout extends SmtpError {}

/**
 * The whole message went out but the server's reply to it did not come in time: it may well be delivered
 * (RFC 5321 §4.5.3.2.6 gives that reply 10 minutes), so it is not a failure the sender can act on.
 */
export class SmtpUnconfirmed extends SmtpError {}

/** Reads SMTP replies (possibly multi-line, `250-…` then `250 …`) from a socket. */
class ReplyReader {
  private buffer = "";
  private readonly decoder = new TextDecoder();
  constructor(private readonly reader: ReadableStreamDefaultReader<Uint8Array>) {}

  async read(): Promise<{ code: number; text: string }> {
    const lines: string[] = [];
    for (;;) {
      const nl = this.buffer.indexOf("\n");
      if (nl >= 0) {
        const line = this.buffer.slice(0, nl).replace(/\r$/, "");
        this.buffer = this.buffer.slice(nl + 1);
        lines.push(line);
        if (/^\d{3}(?: |$)/.test(line)) return { code: Number(line.slice(0, 3)), text: lines.join("\n") };
        if (!/^\d{3}-/.test(line)) throw new SmtpError(`malformed reply: ${line.slice(0, 80)}`);
        continue;
      }
      const { value, done } = await this.reader.read();
      if (done) throw new SmtpError("connection closed by the server");
      this.buffer += this.decoder.decode(value, { stream: true });
    }
  }

  release(): void {
    this.reader.releaseLock();
  }
}

function withTimeout<T>(p: Promise<T>, what: string, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SmtpTimeout(`timeout: ${what}`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Sends one message over SMTP with a Workers TCP socket: EHLO, STARTTLS (required when security is
 * `starttls`), AUTH PLAIN or LOGIN when a user is set, MAIL/RCPT/DATA, QUIT. Throws SmtpError on any
 * unexpected reply, SmtpUnconfirmed when the message was sent and its reply did not come in time.
 */
export async function sendSmtp(config: SmtpConfig, message: Omit<MailMessage, "from"> & { fromName: string }): Promise<void> {
  if (!isSafeAddress(config.sender) || !isSafeAddress(message.to)) throw new SmtpError("invalid address");
  const encoder = new TextEncoder();
  const timeoutMs = config.timeoutMs ?? TIMEOUT_MS;
  let socket = connect(
    { hostname: config.host, port: config.port },
    { secureTransport: config.security === "tls" ? "on" : config.security === "starttls" ? "starttls" : "off", allowHalfOpen: false },
  );
  let writer = socket.writable.getWriter();
  let replies = new ReplyReader(socket.readable.getReader());
  const send = (line: string) => writer.write(encoder.encode(`${line}\r\n`));
  const expect = async (what: string, ok: (code: number) => boolean) => {
    const reply = await withTimeout(replies.read(), what, timeoutMs);
    if (!ok(reply.code)) throw new SmtpError(`${what}: ${reply.text.slice(0, 200)}`);
    return reply.text;
  };
  const is2xx = (c: number) => c >= 200 && c < 300;
  const is3xx = (c: number) => c >= 300 && c < 400;
  try {
    await withTimeout(socket.opened, "connect", timeoutMs);
    await expect("greeting", (c) => c === 220);
    await send("EHLO flagstaff");
    let caps = await expect("EHLO", is2xx);
    if (config.security === "starttls") {
      if (!/^250[ -]STARTTLS\b/im.test(caps)) throw new SmtpError("the server does not offer STARTTLS");
      await send("STARTTLS");
      await expect("STARTTLS", (c) => c === 220);
      writer.releaseLock();
      replies.release();
      socket = socket.startTls();
      writer = socket.writable.getWriter();
      replies = new ReplyReader(socket.readable.getReader());
      await send("EHLO flagstaff");
      caps = await expect("EHLO", is2xx);
    }
    if (config.user) {
      const auth = /^250[ -]AUTH[ =](.*)$/im.exec(caps)?.[1]?.toUpperCase() ?? "";
      if (/\bPLAIN\b/.test(auth) || !/\bLOGIN\b/.test(auth)) {
        await send(`AUTH PLAIN ${btoa(String.fromCharCode(...encoder.encode(`\0${config.user}\0${config.password}`)))}`);
        await expect("AUTH", is2xx);
      } else {
        await send("AUTH LOGIN");
        await expect("AUTH", is3xx);
        await send(btoa(String.fromCharCode(...encoder.encode(config.user))));
        await expect("AUTH user", is3xx);
        await send(btoa(String.fromCharCode(...encoder.encode(config.password))));
        await expect("AUTH", is2xx);
      }
    }
    await send(`MAIL FROM:<${config.sender}>`);
    await expect("MAIL FROM", is2xx);
    await send(`RCPT TO:<${message.to}>`);
    await expect("RCPT TO", is2xx);
    await send("DATA");
    await expect("DATA", (c) => c === 354);
    const domain = config.sender.slice(config.sender.indexOf("@") + 1);
    const body = buildMessage(
      { ...message, from: { name: message.fromName, email: config.sender } },
      { date: new Date(), messageId: `${crypto.randomUUID()}@${domain}`, boundary: `flagstaff-${crypto.randomUUID()}` },
    );
    await writer.write(encoder.encode(dataPayload(body)));
    await expect("message", is2xx).catch((err: unknown) => {
      throw err instanceof SmtpTimeout ? new SmtpUnconfirmed(err.message) : err;
    });
    await send("QUIT");
    await withTimeout(replies.read(), "QUIT", timeoutMs).catch(() => undefined);
  } finally {
    await socket.close().catch(() => undefined);
  }
}
