// From rounds of samples to the reported figures: each candidate's median over the rounds,
// and the ratios ours/SDK and ours/floor, each the median of the ratios measured within
// one round (so a slow moment of the machine hits all three candidates alike).

import type { CandidateName } from './candidates.js';
import type { Round, Sample } from './rounds.js';
import { median } from './stats.js';

export interface Target {
  /** 'max': ours/floor must be at most `ratio`; 'min': at least; 'kib': ours at most `value` KiB. */
  kind: 'max' | 'min' | 'kib';
  value: number;
  /** The official SDK's figure from the issue, for the table. */
  sdkInIssue: string;
}

export interface Figure {
  label: string;
  unit: string;
  values: Record<CandidateName, number | null>;
  oursVsSdk: number | null;
  oursVsFloor: number | null;
  target?: Target;
  met?: boolean;
}

interface Definition {
  label: string;
  unit: string;
  pick(sample: Sample): number;
  target?: Target;
}

const latency = (op: string, p: 'p50' | 'p99', target?: Target): Definition => ({
  label: `latency ${p} ${op}`,
  unit: 'ms',
  pick: (s) => s.latency[op]?.[p] ?? NaN,
  target,
});

const DEFINITIONS: Definition[] = [
  {
    label: 'cold start → initialize',
    unit: 'ms',
    pick: (s) => s.coldInitializeMs,
    target: { kind: 'max', value: 1.25, sdkInIssue: '~2.1x' },
  },
  { label: 'cold start → tools/list', unit: 'ms', pick: (s) => s.coldToolsListMs },
  latency('ping', 'p50'),
  latency('ping', 'p99'),
  latency('read_sprint', 'p50'),
  latency('read_sprint', 'p99'),
  latency('get_issue', 'p50', { kind: 'max', value: 1.3, sdkInIssue: '~2.8x' }),
  latency('get_issue', 'p99'),
  latency('search_issues', 'p50', { kind: 'max', value: 2, sdkInIssue: '~6x' }),
  latency('search_issues', 'p99'),
  latency('search_uncached', 'p50'),
  {
    label: 'throughput ping, window 64',
    unit: 'req/s',
    pick: (s) => s.pingPerSec,
    target: { kind: 'min', value: 0.6, sdkInIssue: '~0.15x' },
  },
  {
    label: 'throughput mixed, window 64',
    unit: 'req/s',
    pick: (s) => s.mixedPerSec,
    target: { kind: 'min', value: 0.4, sdkInIssue: '~0.10x' },
  },
  {
    label: '5 MiB resource read',
    unit: 'ms',
    pick: (s) => s.largeReadMs,
    target: { kind: 'max', value: 1.1, sdkInIssue: '~1.4x' },
  },
  {
    label: '8 MiB request, 4 KiB chunks',
    unit: 'ms',
    pick: (s) => s.chunkedRequestMs,
    target: { kind: 'max', value: 1.3, sdkInIssue: 'seconds' },
  },
];

export function roundFigures(rounds: readonly Round[]): Figure[] {
  return DEFINITIONS.map((d) => {
    const per = (name: CandidateName) => rounds.map((r) => d.pick(r[name]));
    const ratio = (other: CandidateName) => median(rounds.map((r) => d.pick(r.ours) / d.pick(r[other])));
    return judge({
      label: d.label,
      unit: d.unit,
      values: { ours: median(per('ours')), sdk: median(per('sdk')), floor: median(per('floor')) },
      oursVsSdk: ratio('sdk'),
      oursVsFloor: ratio('floor'),
      target: d.target,
    });
  });
}

export function singleFigure(label: string, unit: string, values: Record<CandidateName, number | null>, target?: Target): Figure {
  const ratio = (other: CandidateName) =>
    values.ours !== null && values[other] ? values.ours / (values[other] as number) : null;
  return judge({ label, unit, values, oursVsSdk: ratio('sdk'), oursVsFloor: ratio('floor'), target });
}

function judge(figure: Figure): Figure {
  const t = figure.target;
  if (!t) return figure;
  if (t.kind === 'kib') return { ...figure, met: figure.values.ours !== null && figure.values.ours / 1024 <= t.value };
  const r = figure.oursVsFloor;
  return { ...figure, met: r !== null && (t.kind === 'max' ? r <= t.value : r >= t.value) };
}
