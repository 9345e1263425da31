/**
 * Reads of one record that may answer out of order (a read that was held up answers after a later one): only
 * the answer of the latest read sent is taken, so an older one never replaces what a newer one brought (a hint
 * added meanwhile, shown and then gone again). A change the page makes to what it shows (a submission
 * counted) is newer than a read still on its way: `pending` says one is, and the page reads again.
 */
export class LatestRead {
  private latest = 0;
  private settled = true;

  /** A read is sent; returns its number, to pass to `settle`. */
  begin(): number {
    this.settled = false;
    return ++this.latest;
  }

  /** The read answered or failed: whether it is the latest (its answer, or its error, is to be shown). */
  settle(read: number): boolean {
    if (read !== this.latest) return false;
    this.settled = true;
    return true;
  }

  /** Whether the latest read is still on its way: its answer was made before a change made now. */
  get pending(): boolean {
    return !this.settled;
  }
}
