// The tables on stdout. One row per figure: each candidate's median, ours divided by each
// other candidate (the ratio of the medians, then the lowest and highest ratio of a single
// round), and each target with the rounds in which it held.

import type { CandidateName } from './candidates.js';
import type { Comparison, Figure, Rival } from './figures.js';
import type { StoreRow } from './store-figures.js';
import { backendsTable } from './backends.js';
import type { TeamFigures } from './team-figures.js';
import { STORE_OPEN_TARGETS_MS, targetText } from './targets.js';

const NAMES: Record<CandidateName, string> = { ours: 'ours', sdk1: 'SDK v1', sdk2: 'SDK v2', floor: 'floor' };

/** `candidates`: the columns, ours first. */
export function figureTable(figures: readonly Figure[], candidates: readonly CandidateName[]): string {
  const rivals = candidates.filter((c): c is Rival => c !== 'ours');
  const header = [
    'figure',
    'unit',
    ...candidates.map((c) => NAMES[c]),
    ...rivals.map((r) => `ours/${NAMES[r]} (rounds)`),
    'target',
    'met (rounds)',
  ];
  const rows = figures.map((f) => [
    f.label,
    f.unit,
    ...candidates.map((c) => value(f.values[c], f.unit)),
    ...rivals.map((r) => comparison(f.against[r])),
    f.verdicts.map((v) => targetText(v.target)).join(', '),
    f.verdicts.map((v) => `${v.met ? 'yes' : 'NO'} ${v.held}/${v.of}`).join(', '),
  ]);
  return table(header, rows);
}

export function storeTable(rows: readonly StoreRow[]): string {
  const header = ['issues', 'file MB', 'open ms', 'target', 'met', 'mutation p50 ms', 'mutation p99 ms', 'search p50 ms'];
  return table(
    header,
    rows.map((r) => {
      const target = STORE_OPEN_TARGETS_MS[r.issues];
      return [
        String(r.issues),
        r.fileMb.toFixed(1),
        r.openMs.toFixed(0),
        target === undefined ? '' : `<= ${target} ms`,
        target === undefined ? '' : r.openMs <= target ? 'yes 1/1' : 'NO 0/1',
        r.mutationP50Ms.toFixed(2),
        r.mutationP99Ms.toFixed(2),
        r.searchP50Ms.toFixed(2),
      ];
    }),
  );
}

/** Three tables: the backends side by side, notification latency across processes, and N instances. */
export function teamTables(team: TeamFigures): string {
  const backends = backendsTable(team.backends);
  const across = table(
    ['backend', 'samples', 'p50 ms', 'max ms'],
    team.crossInstance.map((r) => [r.backend, String(r.samples), r.p50Ms.toFixed(1), r.maxMs.toFixed(1)]),
  );
  const instances = table(
    ['backend', 'instances', 'mutations', 'mutations/s', 'ratio to 1'],
    team.throughput.map((r) => [
      r.backend,
      String(r.instances),
      String(r.mutations),
      Math.round(r.perSecond).toLocaleString('en-US'),
      `${r.ratio.toFixed(2)}x`,
    ]),
  );
  return [
    `two stores on the same data in one process (load: writing the issues; notify: from the write sent until the other store hears)\n${backends}`,
    `notification latency across instances (a comment sent to instance A until a client subscribed on instance B is told)\n${across}`,
    `N instances on one store (--http, create_issue, 16 requests in flight dealt in turn)\n${instances}`,
  ].join('\n');
}

function value(v: number | undefined, unit: string): string {
  if (v === undefined || !Number.isFinite(v)) return 'n/a';
  if (unit === 'req/s') return Math.round(v).toLocaleString('en-US');
  if (unit === 'MiB') return (v / 2 ** 20).toFixed(1);
  if (unit === 'KiB') return (v / 1024).toFixed(1);
  return v < 1 ? v.toFixed(3) : v < 100 ? v.toFixed(2) : v.toFixed(0);
}

function comparison(c: Comparison | undefined): string {
  if (c === undefined) return 'n/a';
  const low = Math.min(...c.perRound);
  const high = Math.max(...c.perRound);
  const range = c.perRound.length > 1 ? ` (${low.toFixed(2)}-${high.toFixed(2)})` : '';
  return `${c.ofMedians.toFixed(2)}x${range}`;
}

function table(header: readonly string[], rows: readonly string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n') + '\n';
}
