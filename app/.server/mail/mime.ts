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

/** RFC 2047 encoded word when the value is not plain ASCII (no CR/LF ever reaches a header). */
export function encodeHeader(value: string): string {
  const clean = value.replace(/[\r\n]+/g, " ");
  return /^[\x20-\x7e]*$/.test(clean) ? clean : `=?UTF-8?B?${base64(clean)}?=`;
}

const wrap76 = (s: string) => s.replace(/.{1,76}/g, "$&\r\n");

/** An address that is safe inside `<…>` of SMTP commands and headers. */
export function isSafeAddress(email: string): boolean {
  return /^[^\s<>()",;:\\@]+@[^\s<>()",;:\\@]+$/.test(email);
}

export function buildMessage(msg: MailMessage, opts: { date: Date; messageId: string; boundary: string }): string {
  const { boundary } = opts;
  const fromName = msg.from.name.replace(/["\\]/g, "");
  const lines = [
    `From: ${encodeHeader(`"${fromName}"`)} <${msg.from.email}>`,
    `To: <${msg.to}>`,
    `Subject: ${encodeHeader(msg.subject)}`,
    `Date: ${opts.date.toUTCString()}`,
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
