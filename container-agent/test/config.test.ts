import { describe, expect, it } from "vitest";
import { ConfigError, DEFAULT_PORT, loadConfig, parseDockerHost } from "../src/config.ts";
import { parseCreateRequest, shortImageName } from "../src/validate.ts";
import { createBody } from "./helpers.ts";

const SECRET = "s".repeat(32);

describe("configuration", () => {
  it("uses documented defaults", () => {
    const config = loadConfig({ FLAGSTAFF_AGENT_SECRET: SECRET });
    expect(config).toMatchObject({
      host: "127.0.0.1",
      port: DEFAULT_PORT,
      publishHost: "127.0.0.1",
      publicHost: "127.0.0.1",
      capacity: 64,
      pidsLimit: 512,
      platformUrl: null,
      customNetwork: "flagstaff-custom",
      reapIntervalMs: 30_000,
      captureIdleMs: 30_000,
      docker: { socketPath: "/var/run/docker.sock" },
    });
    expect(DEFAULT_PORT).toBe(8788);
  });

  it("reads the environment", () => {
    const config = loadConfig({
      FLAGSTAFF_AGENT_SECRET: SECRET,
      FLAGSTAFF_AGENT_PORT: "9000",
      FLAGSTAFF_AGENT_PUBLISH_HOST: "0.0.0.0",
      FLAGSTAFF_AGENT_PUBLIC_HOST: "ctf.example.org",
      FLAGSTAFF_PLATFORM_URL: "https://ctf.example.org/",
      FLAGSTAFF_REGISTRY_USERNAME: "bot",
      FLAGSTAFF_REGISTRY_PASSWORD: "pw",
      DOCKER_HOST: "tcp://10.0.0.5:2375",
    });
    expect(config).toMatchObject({
      port: 9000,
      publishHost: "0.0.0.0",
      publicHost: "ctf.example.org",
      platformUrl: "https://ctf.example.org",
      registryAuth: { username: "bot", password: "pw", serveraddress: "https://index.docker.io/v1/" },
      docker: { host: "10.0.0.5", port: 2375, protocol: "http" },
    });
  });

  it("refuses a missing or short secret and bad numbers", () => {
    expect(() => loadConfig({})).toThrow(ConfigError);
    expect(() => loadConfig({ FLAGSTAFF_AGENT_SECRET: "short" })).toThrow(ConfigError);
    expect(() => loadConfig({ FLAGSTAFF_AGENT_SECRET: SECRET, FLAGSTAFF_AGENT_PORT: "http" })).toThrow(ConfigError);
    expect(() => loadConfig({ FLAGSTAFF_AGENT_SECRET: SECRET, FLAGSTAFF_PLATFORM_URL: "ftp://x" })).toThrow(ConfigError);
  });

  it("parses DOCKER_HOST forms", () => {
    expect(parseDockerHost("unix:///tmp/d.sock")).toEqual({ socketPath: "/tmp/d.sock" });
    expect(parseDockerHost("https://docker.internal:2376")).toEqual({ host: "docker.internal", port: 2376, protocol: "https" });
    expect(parseDockerHost("tcp://10.0.0.5")).toEqual({ host: "10.0.0.5", port: 2375, protocol: "http" });
  });

  it("refuses a DOCKER_HOST it cannot use with a ConfigError (one line at start, no stack)", () => {
    for (const value of ["bogus", "ssh://user@host", "tcp://"]) {
      expect(() => parseDockerHost(value), value).toThrow(ConfigError);
      expect(() => loadConfig({ FLAGSTAFF_AGENT_SECRET: SECRET, DOCKER_HOST: value }), value).toThrow(/DOCKER_HOST must be/);
    }
  });
});

describe("request checks", () => {
  it("names containers after the short image name", () => {
    expect(shortImageName("registry.example.org:5000/ctf/web-app:1.2@sha256:" + "a".repeat(64))).toBe("web-app");
    expect(shortImageName("busybox")).toBe("busybox");
    expect(shortImageName("ghcr.io/team/_odd")).toBe("c_odd");
  });

  it("accepts registry references and refuses malformed images", () => {
    const now = Date.now();
    for (const image of ["busybox", "localhost:5000/x/y:tag", "ghcr.io/org/app@sha256:" + "b".repeat(64), "registry:5000/a"]) {
      expect(parseCreateRequest(createBody({ image }), now).image).toBe(image);
    }
    for (const image of ["UPPER/case", "a b", "-x", "x:", "x/../y"]) {
      expect(() => parseCreateRequest(createBody({ image }), now), image).toThrow();
    }
  });
});
