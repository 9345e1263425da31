import { describe, expect, it } from "vitest";
import { AGENT_LABELS } from "../../app/core/agent-protocol.ts";
import { AGENT_LABEL, localAgentId } from "./local-agent.mjs";

describe("local agent", () => {
  it("labels containers as the agent does", () => {
    expect(AGENT_LABEL).toBe(AGENT_LABELS.agent);
  });

  it("has one id per data folder, stable, and FLAGSTAFF_AGENT_ID when set", () => {
    const id = localAgentId("/srv/flagstaff/data", {});
    expect(id).toMatch(/^local-[0-9a-f]{12}$/);
    expect(localAgentId("/srv/flagstaff/data", {})).toBe(id);
    expect(localAgentId("/srv/flagstaff/data2", {})).not.toBe(id);
    expect(localAgentId("/srv/flagstaff/data", { FLAGSTAFF_AGENT_ID: "docker-2" })).toBe("docker-2");
  });
});
