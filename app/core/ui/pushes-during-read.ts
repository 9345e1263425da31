/**
 * Changes pushed over a socket while a list is being read, applied again to what the read brings. A read may
 * be answered before a pushed record was written (the read started first, the push arrived first); taking its
 * answer as it is would drop that record until the next reload. Only the newest read counts: an older one
 * that answers late is ignored.
 */
export class PushesDuringRead<T> {
  private round = 0;
  private pending: ((list: T) => T)[] | null = null;

  /** A read begins; returns its round, to pass to `settle` or `fail`. */
  begin(): number {
    this.pending = [];
    return ++this.round;
  }

  /** A pushed change, already applied to the list shown; kept while a read is on its way. */
  push(change: (list: T) => T): void {
    this.pending?.push(change);
  }

  /** The read's answer with the changes pushed meanwhile, in their order; null when a newer read has begun. */
  settle(round: number, answer: T): T | null {
    if (round !== this.round) return null;
    const changes = this.pending ?? [];
    this.pending = null;
    return changes.reduce((list, change) => change(list), answer);
  }

  /** The read failed: whether it was the newest (its error is worth showing). */
  fail(round: number): boolean {
    if (round !== this.round) return false;
    this.pending = null;
    return true;
  }
}
