// The table on stdout. One row per figure: the three candidates' medians, the two ratios,
// and the issue's target for ours/floor next to whether this run met it.

import type { Figure } from './figures.js';
import type { StoreRow } from './store-figures.js';

export function figureTable(figures: readonly Figure[]): string {
  const header = ['figure', 'unit', 'ours', 'SDK', 'floor', 'ours/SDK', 'ours/floor', 'target (ours)', 'SDK per issue', 'met'];
  const rows = figures.map((f) => [
    f.label,
    f.unit,
    value(f.values.ours, f.unit),
    value(f.values.sdk, f.unit),
    value(f.values.floor, f.unit),
    ratio(f.oursVsSdk),
    ratio(f.oursVsFloor),
    targetText(f),
    f.target?.sdkInIssue ?? '',
    f.met === undefined ? '' : f.met ? 'yes' : 'NO',
  ]);
  return table(header, rows);
}

export function storeTable(rows: readonly StoreRow[]): string {
  const header = ['issues', 'file MB', 'open ms', 'mutation p50 ms', 'mutation p99 ms', 'search p50 ms'];
  return table(
    header,
    rows.map((r) => [
      String(r.issues),
      r.fileMb.toFixed(1),
      r.openMs.toFixed(0),
      r.mutationP50Ms.toFixed(2),
      r.mutationP99Ms.toFixed(2),
      r.searchP50Ms.toFixed(2),
    ]),
  );
}

function value(v: number | null, unit: string): string {
  if (v === null || !Number.isFinite(v)) return 'n/a';
  if (unit === 'req/s') return Math.round(v).toLocaleString('en-US');
  if (unit === 'MiB') return (v / 2 ** 20).toFixed(1);
  if (unit === 'KiB') return (v / 1024).toFixed(1);
  return v < 1 ? v.toFixed(3) : v < 100 ? v.toFixed(2) : v.toFixed(0);
}

const ratio = (r: number | null): string => (r === null || !Number.isFinite(r) ? 'n/a' : `${r.toFixed(2)}x`);

function targetText(f: Figure): string {
  const t = f.target;
  if (!t) return '';
  if (t.kind === 'kib') return `<= ${t.value} KiB`;
  return `${t.kind === 'max' ? '<=' : '>='} ${t.value}x floor`;
}

function table(header: readonly string[], rows: readonly string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n') + '\n';
}
