// Small statistics over timing samples. Nearest-rank percentiles: no interpolation, so a
// reported p99 is a latency that was actually observed.

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

export const median = (values: readonly number[]): number => percentile(values, 50);

/** Milliseconds since `start` (a performance.now() reading). */
export const since = (start: number): number => performance.now() - start;
