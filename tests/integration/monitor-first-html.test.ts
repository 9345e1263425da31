import { describe, expect, it } from "vitest";
import enUS from "~/locales/en-US/common.json";
import { createGame, newAdmin } from "./game-helpers";

/**
 * The monitor's lists are read in the browser: the server's HTML says they are loading, never "No records
 * yet" — which is what a staff member saw over a running game's submissions until the first read answered.
 */
describe("monitor lists in the server's HTML", () => {
  it("say Loading, not that there are no records, before anything is read", async () => {
    const { client: admin } = await newAdmin();
    const game = await createGame(admin);
    for (const path of [`/games/${game.id}/monitor/submissions`, `/games/${game.id}/monitor/events`]) {
      const res = await admin.fetch(path, { headers: { "accept-language": "en-US" } });
      expect(res.status, path).toBe(200);
      const html = await res.text();
      expect(html, path).not.toContain(enUS.monitor.empty);
      expect(html, path).toContain(enUS.common.loading);
    }
  });
});
