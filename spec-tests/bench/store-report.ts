// What the store benchmarks (store-bench.ts, backends.ts) share: the percentile of a set of
// timings and a table of right-aligned columns, as they print them.

/** The p-th percentile (nearest rank) of `values`; NaN when there are none. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** A header, a rule and one line per row, each column as wide as its widest cell, right-aligned. */
export function alignedTable(header: readonly string[], cells: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  const line = (values: readonly string[]): string => values.map((v, i) => v.padStart(widths[i] ?? 0)).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n') + '\n';
}
