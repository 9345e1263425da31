/**
 * Reads the HTTP mailbox of tests/support/mail-server.ts. Plain fetch, so it runs in Node (Playwright)
 * and in workerd (integration tests) alike.
 */

/** Raw messages received for an address, oldest first. */
export async function mailsTo(mailboxUrl: string, address: string): Promise<string[]> {
  const res = await fetch(`${mailboxUrl}/?to=${encodeURIComponent(address)}`);
  if (!res.ok) throw new Error(`mailbox answered HTTP ${res.status}`);
  return ((await res.json()) as { raw: string }[]).map((m) => m.raw);
}

/** The decoded text/plain part of a raw message (app/.server/mail/mime.ts writes it in base64). */
export function textPart(raw: string): string {
  const m = /Content-Type: text\/plain; charset="UTF-8"\r\nContent-Transfer-Encoding: base64\r\n\r\n([A-Za-z0-9+/=\r\n]+)/.exec(raw);
  if (!m) throw new Error(`no text part in ${raw.slice(0, 400)}`);
  const bin = atob(m[1]!.replace(/\s+/g, ""));
  return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
}

/**
 * The first link to `path` (e.g. "/account/verify") in the text part of the newest message to `address`,
 * waiting up to `timeoutMs` for a message that has one.
 */
export async function waitForMailLink(
  mailboxUrl: string,
  address: string,
  path: string,
  { timeoutMs = 10_000, after = 0 }: { timeoutMs?: number; after?: number } = {},
): Promise<URL> {
  const deadline = Date.now() + timeoutMs;
  const pattern = new RegExp(`https?://[^\\s/]+${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\?[^\\s]+`);
  for (;;) {
    const mails = (await mailsTo(mailboxUrl, address)).slice(after);
    const newest = mails.at(-1);
    const link = newest ? pattern.exec(textPart(newest))?.[0] : undefined;
    if (link) return new URL(link);
    if (Date.now() > deadline) {
      throw new Error(`no ${path} link in mail to ${address} within ${timeoutMs} ms (${mails.length} new messages)`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
