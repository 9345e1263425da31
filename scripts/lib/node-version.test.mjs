import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { nodeProblem, olderThan, REQUIRED_NODE } from "./node-version.mjs";

describe("olderThan", () => {
  it.each([
    ["20.20.2", true],
    ["v20.20.2", true],
    ["22.12.0", true],
    ["22.17.1", true],
    ["22.18.0", false],
    ["v22.23.3", false],
    ["23.0.0", false],
    ["24.1.0", false],
  ])("%s against 22.18: %s", (version, older) => {
    expect(olderThan(version, "22.18")).toBe(older);
  });
});

describe("nodeProblem", () => {
  it("lets the project's Node through", () => {
    expect(nodeProblem({ version: "22.23.3", typescript: "strip", build: false })).toBeUndefined();
    expect(nodeProblem({ version: "24.1.0", typescript: "transform", build: true })).toBeUndefined();
  });

  it("names the Node it needs and the npm command matching how the launcher was asked to start", () => {
    expect(nodeProblem({ version: "20.20.2", typescript: undefined, build: false })).toBe(
      "Node 20.20.2 is too old: Flagstaff needs Node ≥ 22.18, which `npm install` puts in node_modules; start it with `npm run serve` (or `npm start` to build first), not with node directly",
    );
    expect(nodeProblem({ version: "22.12.0", typescript: false, build: true })).toMatch(/^Node 22\.12\.0 is too old: .* start it with `npm start`, not with node directly$/);
  });

  it("refuses a recent Node whose type stripping is turned off", () => {
    expect(nodeProblem({ version: "22.23.3", typescript: false, build: false })).toMatch(
      /^Node 22\.23\.3 runs with TypeScript type stripping turned off \(--no-experimental-strip-types.*start it with `npm run serve`/,
    );
  });

  it("asks for the Node package.json's engines names", () => {
    const { engines } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    expect(engines.node).toBe(`>=${REQUIRED_NODE}`);
  });
});
