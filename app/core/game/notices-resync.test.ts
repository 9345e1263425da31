import { describe, expect, it } from "vitest";
import type { GameNoticeInfo } from "../schemas/game";
import { NOTICES_PAGE, noticesMissed } from "./notices-resync";

const notice = (id: number, time = id * 1000): GameNoticeInfo => ({ id, type: "Normal", values: [`n${id}`], time });

describe("noticesMissed", () => {
  it("returns the listed notices the page does not know, oldest first", () => {
    const list = [notice(5, 5000), notice(3, 3000), notice(4, 3000), notice(1)];
    const { missed } = noticesMissed(new Set([1]), list, [], new Set());
    expect(missed.map((n) => n.id)).toEqual([3, 4, 5]);
  });

  it("drops a shown notice the complete list no longer has when it was shown as the read was sent", () => {
    const shown = [notice(2), notice(1)];
    const { gone } = noticesMissed(new Set([1, 2]), [notice(1)], shown, new Set([1, 2]));
    expect(gone).toEqual([2]);
  });

  it("keeps a notice that arrived on the socket while the read was on its way, though the list lacks it", () => {
    // The read was sent with notice 1 shown; notice 2 arrived before its answer, which was made before 2 existed.
    const shown = [notice(2), notice(1)];
    const { missed, gone } = noticesMissed(new Set([1, 2]), [notice(1)], shown, new Set([1]));
    expect(gone).toEqual([]);
    expect(missed).toEqual([]);
  });

  it("decides nothing is gone from a full page (older notices may be left out of it)", () => {
    const list = Array.from({ length: NOTICES_PAGE }, (_, i) => notice(i + 10));
    const { gone } = noticesMissed(new Set([1]), list, [notice(1)], new Set([1]));
    expect(gone).toEqual([]);
  });
});
