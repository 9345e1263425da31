import { describe, expect, it } from "vitest";
import { IMAGE_MAX_BYTES, imageFileProblem } from "./image-file";

describe("imageFileProblem", () => {
  it("names what is wrong", () => {
    expect(imageFileProblem({ size: 0, type: "image/png" })).toBe("empty");
    expect(imageFileProblem({ size: IMAGE_MAX_BYTES + 1, type: "image/png" })).toBe("tooLarge");
    expect(imageFileProblem({ size: 10, type: "text/plain" })).toBe("wrongType");
    expect(imageFileProblem({ size: 10, type: "image/svg+xml" })).toBe("wrongType");
  });

  it("lets images through, and leaves an unknown type to the server", () => {
    expect(imageFileProblem({ size: IMAGE_MAX_BYTES, type: "image/webp" })).toBeNull();
    expect(imageFileProblem({ size: 10, type: "image/jpeg" })).toBeNull();
    expect(imageFileProblem({ size: 10, type: "" })).toBeNull();
  });
});
