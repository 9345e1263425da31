/** Builds a UTF-8 multipart/alternative message (plain text + HTML) ready for SMTP DATA. */
export interface MailMessage {
  from: { name: string; email: string };
  to: string;
  subject: string;
  text: string;
  html: string;
}

const encoder = new TextEncoder();

function base64(text: string): string {
  const bytes = encoder.encode(text);
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

/**
 * Bytes of UTF-8 per encoded word: 42 bytes are 56 characters of base64, a 68-character word with
 * `=?UTF-8?B?` and `?=` (RFC 2047 §2 allows 75), so `Subject: ` and the first word fit in 78.
 */
const WORD_BYTES = 42;

const isPlainAscii = (value: string) => /^[\x20-\x7e]*$/.test(value);

/**
 * RFC 2047 encoded words when the value is not plain ASCII (no CR/LF ever reaches a header): as many as
 * it takes, each of whole characters (a character is never split between two words), on folded lines.
 */
export function encodeHeader(value: string): string {
  const clean = value.replace(/[\r\n]+/g, " ");
  if (isPlainAscii(clean)) return clean;
  const words: string[] = [];
  let part = "";
  let size = 0;
  for (const char of clean) {
    const bytes = encoder.encode(char).byteLength;
    if (size + bytes > WORD_BYTES && part) {
      words.push(part);
      part = "";
      size = 0;
    }
    part += char;
    size += bytes;
  }
  if (part) words.push(part);
  return words.map((w) => `=?UTF-8?B?${base64(w)}?=`).join("\r\n ");
}

/** A display name and address: quoted (with escapes) when the name is ASCII, else encoded words. */
export function formatAddress(name: string, email: string): string {
  const clean = name.replace(/[\r\n]+/g, " ");
  if (!isPlainAscii(clean)) return `${encodeHeader(clean)}\r\n <${email}>`;
  return `"${clean.replace(/["\\]/g, "\\$&")}" <${email}>`;
}

/** RFC 5322 date-time in UTC with a numeric zone (`GMT` is obsolete syntax, §4.3). */
export function formatDate(date: Date): string {
  return date.toUTCString().replace(/GMT$/, "+0000");
}

const wrap76 = (s: string) => s.replace(/.{1,76}/g, "$&\r\n");

/** An address that is safe inside `<…>` of SMTP commands and headers. */
export function isSafeAddress(email: string): boolean {
  return /^[^\s<>()",;:\\@]+@[^\s<>()",;:\\@]+$/.test(email);
}

export function buildMessage(msg: MailMessage, opts: { date: Date; messageId: string; boundary: string }): string {
  const { boundary } = opts;
  const lines = [
    `From: ${formatAddress(msg.from.name, msg.from.email)}`,
    `To: <${msg.to}>`,
    `Subject: ${encodeHeader(msg.subject)}`,
    `Date: ${formatDate(opts.date)}`,
    `Message-ID: <${opts.messageId}>`,
    "MIME-Version: 1.0",
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    "",
    `--${boundary}`,
    'Content-Type: text/plain; charset="UTF-8"',
    "Content-Transfer-Encoding: base64",
    "",
    wrap76(base64(msg.text)),
    `--${boundary}`,
    'Content-Type: text/html; charset="UTF-8"',
    "Content-Transfer-Encoding: base64",
    "",
    wrap76(base64(msg.html)),
    `--${boundary}--`,
    "",
  ];
  return lines.join("\r\n").replace(/\r\n\r\n\r\n/g, "\r\n\r\n");
}

/** Dot-stuffing and the terminating `.` line of SMTP DATA. */
export function dataPayload(message: string): string {
  const normalized = message.replace(/\r?\n/g, "\r\n");
  const stuffed = normalized.replace(/(^|\r\n)\./g, "$1..");
  return `${stuffed.endsWith("\r\n") ? stuffed : `${stuffed}\r\n`}.\r\n`;
}
