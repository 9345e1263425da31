/**
 * Rate-limit algorithms of rules.md §10, pure and clock-injected. Each returns how many seconds to wait
 * (0 = allowed). State lives in the limiter; stale keys are swept so memory stays bounded.
 */
export interface Limiter {
  /** Records one request for `key` at `now` (ms) and returns 0 if allowed, else seconds to wait. */
  hit(key: string, now: number): number;
}

/** Sliding window of `limit` requests per `windowMs`, counted in `segments` equal segments. */
export class SlidingWindowLimiter implements Limiter {
  private readonly segmentMs: number;
  private readonly state = new Map<string, { start: number; counts: number[] }>();
  private lastSweep = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly segments: number,
  ) {
    this.segmentMs = windowMs / segments;
  }

  hit(key: string, now: number): number {
    this.sweep(now);
    const segment = Math.floor(now / this.segmentMs);
    let s = this.state.get(key);
    if (!s) {
      s = { start: segment, counts: [0] };
      this.state.set(key, s);
    }
    // Drop segments that left the window, keep at most `segments` of them.
    const lastIndex = segment - s.start;
    if (lastIndex >= s.counts.length) {
      for (let i = s.counts.length; i <= lastIndex; i++) s.counts.push(0);
    }
    const drop = s.counts.length - this.segments;
    if (drop > 0) {
      s.counts.splice(0, drop);
      s.start += drop;
    }
    const total = s.counts.reduce((a, b) => a + b, 0);
    if (total >= this.limit) {
      // Wait until enough of the oldest segments expire.
      let freed = 0;
      for (let i = 0; i < s.counts.length; i++) {
        freed += s.counts[i] ?? 0;
        if (total - freed < this.limit) {
          const expiresAt = (s.start + i + 1) * this.segmentMs + this.windowMs - this.segmentMs;
          return Math.max(1, Math.ceil((expiresAt - now) / 1000));
        }
      }
      return Math.ceil(this.windowMs / 1000);
    }
    s.counts[s.counts.length - 1] = (s.counts[s.counts.length - 1] ?? 0) + 1;
    return 0;
  }

  private sweep(now: number) {
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    const oldest = Math.floor(now / this.segmentMs) - this.segments;
    for (const [k, s] of this.state) if (s.start + s.counts.length - 1 < oldest) this.state.delete(k);
  }
}

/** Token bucket: `capacity` tokens, `refill` tokens added every `intervalMs`. */
export class TokenBucketLimiter implements Limiter {
  private readonly state = new Map<string, { tokens: number; at: number }>();
  private lastSweep = 0;

  constructor(
    private readonly capacity: number,
    private readonly refill: number,
    private readonly intervalMs: number,
  ) {}

  hit(key: string, now: number): number {
    this.sweep(now);
    const s = this.state.get(key) ?? { tokens: this.capacity, at: now };
    const periods = Math.floor((now - s.at) / this.intervalMs);
    if (periods > 0) {
      s.tokens = Math.min(this.capacity, s.tokens + periods * this.refill);
      s.at += periods * this.intervalMs;
    }
    this.state.set(key, s);
    if (s.tokens >= 1) {
      s.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((s.at + this.intervalMs - now) / 1000));
  }

  private sweep(now: number) {
    const fullAfter = Math.ceil(this.capacity / this.refill) * this.intervalMs;
    if (now - this.lastSweep < fullAfter) return;
    this.lastSweep = now;
    for (const [k, s] of this.state) if (now - s.at >= fullAfter) this.state.delete(k);
  }
}
