import { useState } from "react";
import { isApiError } from "./api";

/**
 * Whether a failed request leaves its Idempotency-Key in use: when no HTTP answer came (the server may
 * have done it and the answer was lost), or when the answer was "the first request under this key still
 * runs" (409 with Retry-After). After any other answer the request is settled and the next one is new.
 */
export function keepsIdempotencyKey(error: unknown): boolean {
  if (!isApiError(error)) return true;
  if (error.status === 0) return true;
  return error.status === 409 && error.retryLater;
}

/** A fresh key: a UUID where the browser gives one (secure contexts), else 128 random bits as hex. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The Idempotency-Key of a form that creates something: the same key for a retry of the same input after
 * a network failure, so the server does it once (workers/api/idempotency.ts); a new key once an answer
 * came (success or refusal) or when the input differs.
 */
export class IdempotencyKeys {
  #current: { key: string; input: string } | null = null;

  constructor(private readonly makeKey: () => string = newIdempotencyKey) {}

  /** Sends `request` under the key for `input` (the request's body, or what makes it this request). */
  async send<T>(input: unknown, request: (key: string) => Promise<T>): Promise<T> {
    const fingerprint = JSON.stringify(input) ?? "";
    if (this.#current === null || this.#current.input !== fingerprint) this.#current = { key: this.makeKey(), input: fingerprint };
    const used = this.#current;
    try {
      const value = await request(used.key);
      this.#settle(used);
      return value;
    } catch (error) {
      if (!keepsIdempotencyKey(error)) this.#settle(used);
      throw error;
    }
  }

  #settle(used: { key: string; input: string }) {
    if (this.#current === used) this.#current = null;
  }
}

/** A form's IdempotencyKeys, kept for as long as the form is shown. */
export function useIdempotencyKey(): IdempotencyKeys {
  // One object for the component's life; what it holds never changes what is rendered.
  const [keys] = useState(() => new IdempotencyKeys());
  return keys;
}
