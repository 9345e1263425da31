// The e2e run's teardown (tests/e2e/global-teardown.ts): containers its server's agent left behind are removed,
// and no other agent's. Needs the test engine (container-agent/scripts/dockerd.sh, test-image.sh).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { localAgentId, removeAgentContainers } from "../../scripts/lib/local-agent.mjs";
import removeLeftContainers from "../e2e/global-teardown.ts";

const DOCKER_HOST = process.env.FLAGSTAFF_TEST_DOCKER_HOST ?? "unix:///tmp/flagstaff-docker.sock";
const IMAGE = "flagstaff-test/busybox:latest";
const docker = (...args) => execFileSync("docker", args, { env: { ...process.env, DOCKER_HOST }, encoding: "utf8", timeout: 30_000 }).trim();
const labelled = (agentId) => docker("ps", "-aq", "--no-trunc", "--filter", `label=flagstaff.agent=${agentId}`).split("\n").filter(Boolean).sort();

const runDir = mkdtempSync(join(tmpdir(), "flagstaff-e2e-left-"));
const otherDir = mkdtempSync(join(tmpdir(), "flagstaff-e2e-other-"));
const saved = { FLAGSTAFF_E2E_DATA_DIR: process.env.FLAGSTAFF_E2E_DATA_DIR, DOCKER_HOST: process.env.DOCKER_HOST };

afterAll(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  try {
    removeAgentContainers(localAgentId(otherDir), DOCKER_HOST);
    removeAgentContainers(localAgentId(runDir), DOCKER_HOST);
  } finally {
    rmSync(runDir, { recursive: true, force: true });
    rmSync(otherDir, { recursive: true, force: true });
  }
});

describe("e2e teardown", () => {
  it("removes the containers its server's agent left, running or stopped, and leaves another agent's", { timeout: 60_000 }, () => {
    const ours = localAgentId(runDir);
    const theirs = localAgentId(otherDir);
    expect(ours).not.toBe(theirs);
    const running = docker("run", "-d", "--label", `flagstaff.agent=${ours}`, IMAGE);
    const stopped = docker("create", "--label", `flagstaff.agent=${ours}`, IMAGE);
    const other = docker("run", "-d", "--label", `flagstaff.agent=${theirs}`, IMAGE);
    expect(labelled(ours)).toEqual([running, stopped].sort());

    process.env.FLAGSTAFF_E2E_DATA_DIR = runDir;
    process.env.DOCKER_HOST = DOCKER_HOST;
    removeLeftContainers();

    expect(labelled(ours)).toEqual([]);
    expect(labelled(theirs)).toEqual([other]);
  });
});
