import { describe, expect, it } from "vitest";
import { ApiError } from "./api";
import { IdempotencyKeys, keepsIdempotencyKey, newIdempotencyKey } from "./idempotency";
import { isValidIdempotencyKey } from "~/core/http/idempotency";

/** Keys k1, k2, … and the keys each request was sent with. */
function harness() {
  let made = 0;
  const keys = new IdempotencyKeys(() => `k${++made}`);
  const sent: string[] = [];
  const succeed = (input: unknown) => keys.send(input, async (key) => void sent.push(key));
  const fail = (input: unknown, error: unknown) =>
    keys
      .send(input, async (key) => {
        sent.push(key);
        throw error;
      })
      .catch(() => undefined);
  return { sent, succeed, fail };
}

const network = new ApiError("Could not reach the server", 0);

describe("IdempotencyKeys", () => {
  it("keeps the key for a retry after a network failure, then renews it after the success", async () => {
    const h = harness();
    await h.fail({ content: "a" }, network);
    await h.fail({ content: "a" }, network);
    await h.succeed({ content: "a" });
    await h.succeed({ content: "a" });
    expect(h.sent).toEqual(["k1", "k1", "k1", "k2"]);
  });

  it("renews the key after a refusal (an HTTP answer)", async () => {
    const h = harness();
    await h.fail({ name: "x" }, new ApiError("Already taken", 409));
    await h.fail({ name: "x" }, new ApiError("Invalid", 400));
    await h.fail({ name: "x" }, new ApiError("Too many", 429, null, true));
    await h.succeed({ name: "x" });
    expect(h.sent).toEqual(["k1", "k2", "k3", "k4"]);
  });

  it("keeps the key while the server says the first request under it still runs (409 with Retry-After)", async () => {
    const h = harness();
    await h.fail("a", network);
    await h.fail("a", new ApiError("Still being processed", 409, null, true));
    await h.succeed("a");
    expect(h.sent).toEqual(["k1", "k1", "k1"]);
  });

  it("takes a new key when the input changed after a network failure", async () => {
    const h = harness();
    await h.fail({ content: "a" }, network);
    await h.fail({ content: "ab" }, network);
    await h.succeed({ content: "ab" });
    expect(h.sent).toEqual(["k1", "k2", "k2"]);
  });

  it("keeps the key when the request failed without an answer in another way (aborted, thrown before it)", async () => {
    const h = harness();
    await h.fail([1, 2], new DOMException("The operation was aborted.", "AbortError"));
    await h.succeed([1, 2]);
    expect(h.sent).toEqual(["k1", "k1"]);
  });
});

describe("keepsIdempotencyKey", () => {
  it("keeps the key only when no answer settled the request", () => {
    expect(keepsIdempotencyKey(network)).toBe(true);
    expect(keepsIdempotencyKey(new TypeError("Failed to fetch"))).toBe(true);
    expect(keepsIdempotencyKey(new ApiError("Still being processed", 409, null, true))).toBe(true);
    expect(keepsIdempotencyKey(new ApiError("You already own a team", 409))).toBe(false);
    expect(keepsIdempotencyKey(new ApiError("Unexpected", 500))).toBe(false);
    expect(keepsIdempotencyKey(new ApiError("Too many requests", 429, null, true))).toBe(false);
  });
});

describe("newIdempotencyKey", () => {
  it("makes keys the server accepts, different each time", () => {
    const a = newIdempotencyKey();
    const b = newIdempotencyKey();
    expect(isValidIdempotencyKey(a)).toBe(true);
    expect(a).not.toBe(b);
  });
});
