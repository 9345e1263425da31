import { describe, expect, it } from "vitest";
import { isNetworkError } from "./api";

describe("isNetworkError", () => {
  it("knows the browsers' words for a fetch that reached nothing", () => {
    expect(isNetworkError(new TypeError("Failed to fetch"))).toBe(true);
    expect(isNetworkError(new TypeError("NetworkError when attempting to fetch resource."))).toBe(true);
    expect(isNetworkError(new TypeError("Load failed"))).toBe(true);
  });

  it("leaves other errors alone", () => {
    expect(isNetworkError(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe(false);
    expect(isNetworkError(new Error("Failed to fetch"))).toBe(false);
    expect(isNetworkError("Failed to fetch")).toBe(false);
  });
});
