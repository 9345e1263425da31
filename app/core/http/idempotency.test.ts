import { describe, expect, it } from "vitest";
import {
  decideOnExistingKey,
  IDEMPOTENCY_KEY_TTL_MS,
  IDEMPOTENCY_LOCK_MS,
  IDEMPOTENCY_STORED_BODY_MAX,
  isStorableAnswer,
  isValidIdempotencyKey,
  type StoredIdempotencyKey,
} from "./idempotency";

describe("isValidIdempotencyKey", () => {
  it.each([
    ["a UUID", "0b7f4c1e-9d2a-4c3b-8e5f-1a2b3c4d5e6f", true],
    ["16 characters", "a".repeat(16), true],
    ["64 characters", "Z".repeat(64), true],
    ["base64url", "AbC_dEf-0123456789", true],
    ["15 characters", "a".repeat(15), false],
    ["65 characters", "a".repeat(65), false],
    ["empty", "", false],
    ["a space", "abcdefgh ijklmnop", false],
    ["a dot", "abcdefgh.ijklmnop", false],
    ["base64 padding", "abcdefghijklmnop==", false],
    ["non-ASCII", "abcdefghijklmnoé", false],
    ["a structured-field string (quoted)", '"abcdefghijklmnop"', false],
  ])("%s", (_name, key, valid) => {
    expect(isValidIdempotencyKey(key)).toBe(valid);
  });
});

describe("decideOnExistingKey", () => {
  const now = 10 * IDEMPOTENCY_KEY_TTL_MS;
  const request = { method: "POST", path: "/api/team", bodyHash: "h1" };
  const running: StoredIdempotencyKey = { ...request, createdAt: now - 1_000, lockedAt: now - 1_000, status: null, body: null, contentType: null };
  const answered: StoredIdempotencyKey = { ...running, lockedAt: null, status: 200, body: '{"id":1}', contentType: "application/json" };

  it.each<[string, StoredIdempotencyKey, typeof request, ReturnType<typeof decideOnExistingKey>]>([
    ["answered: the answer again", answered, request, { kind: "replay", status: 200, body: '{"id":1}', contentType: "application/json" }],
    ["running: in progress", running, request, { kind: "inProgress" }],
    ["running just under the lock time: in progress", { ...running, lockedAt: now - IDEMPOTENCY_LOCK_MS + 1 }, request, { kind: "inProgress" }],
    ["a claim past the lock time, unanswered: lost (its outcome is unknown)", { ...running, lockedAt: now - IDEMPOTENCY_LOCK_MS }, request, { kind: "lost" }],
    ["another body", answered, { ...request, bodyHash: "h2" }, { kind: "mismatch" }],
    ["another path", running, { ...request, path: "/api/team/1" }, { kind: "mismatch" }],
    ["another method", answered, { ...request, method: "PUT" }, { kind: "mismatch" }],
    ["expired, answered", { ...answered, createdAt: now - IDEMPOTENCY_KEY_TTL_MS }, request, { kind: "expired" }],
    ["expired outranks a mismatch", { ...answered, createdAt: now - IDEMPOTENCY_KEY_TTL_MS - 1 }, { ...request, bodyHash: "h2" }, { kind: "expired" }],
    ["just under a day: still kept", { ...answered, createdAt: now - IDEMPOTENCY_KEY_TTL_MS + 1 }, request, { kind: "replay", status: 200, body: '{"id":1}', contentType: "application/json" }],
  ])("%s", (_name, stored, req, expected) => {
    expect(decideOnExistingKey(stored, req, now)).toEqual(expected);
  });
});

describe("isStorableAnswer", () => {
  const json = { status: 200, setsCookie: false, contentType: "application/json; charset=UTF-8", size: 20 };
  it.each([
    ["a JSON success", json, true],
    ["an empty success (204)", { ...json, status: 204, contentType: null, size: 0 }, true],
    ["a 201", { ...json, status: 201 }, true],
    ["a refusal", { ...json, status: 409 }, false],
    ["a server error", { ...json, status: 500 }, false],
    ["a redirect", { ...json, status: 302 }, false],
    ["a success that sets a cookie", { ...json, setsCookie: true }, false],
    ["a non-JSON body", { ...json, contentType: "application/octet-stream" }, false],
    ["the largest kept", { ...json, size: IDEMPOTENCY_STORED_BODY_MAX }, true],
    ["larger than kept", { ...json, size: IDEMPOTENCY_STORED_BODY_MAX + 1 }, false],
  ])("%s", (_name, answer, storable) => {
    expect(isStorableAnswer(answer)).toBe(storable);
  });
});
