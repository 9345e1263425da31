// Small statistics helpers for the bench: percentiles over plain arrays or typed arrays.

/** The q-quantile (0..1) of the values, nearest-rank; NaN when empty. */
export function quantile(values, q) {
  const n = values.length;
  if (n === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.min(n - 1, Math.max(0, Math.ceil(q * n) - 1));
  return sorted[rank];
}

export function summary(values) {
  return { n: values.length, p50: quantile(values, 0.5), p99: quantile(values, 0.99) };
}

export const round = (x, digits = 1) => (Number.isFinite(x) ? Number(x.toFixed(digits)) : x);

/** Grows a Float64Array-backed list without per-push allocation. */
export class Samples {
  constructor(capacity = 1024) {
    this.data = new Float64Array(capacity);
    this.length = 0;
  }
  push(x) {
    if (this.length === this.data.length) {
      const bigger = new Float64Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = x;
  }
  values() {
    return this.data.subarray(0, this.length);
  }
}
