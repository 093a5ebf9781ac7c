// The figures the tables report, each with the id its targets are keyed by (targets.ts).

import type { Definition } from './figures.js';
import type { HttpSample } from './http-rounds.js';
import type { Sample } from './rounds.js';

const latency = (op: string, p: 'p50' | 'p99'): Definition<Sample> => ({
  id: `${op}-${p}`,
  label: `latency ${p} ${op}`,
  unit: 'ms',
  pick: (s) => s.latency[op]?.[p] ?? NaN,
});

export const STDIO_FIGURES: readonly Definition<Sample>[] = [
  {
    id: 'cold-first-initialize',
    label: 'first start, no code cache → opening',
    unit: 'ms',
    pick: (s) => s.coldFirstInitializeMs,
  },
  { id: 'cold-initialize', label: 'cold start → opening', unit: 'ms', pick: (s) => s.coldInitializeMs },
  { id: 'cold-tools-list', label: 'cold start → tools/list', unit: 'ms', pick: (s) => s.coldToolsListMs },
  latency('ping', 'p50'),
  latency('ping', 'p99'),
  latency('read_sprint', 'p50'),
  latency('read_sprint', 'p99'),
  latency('get_issue', 'p50'),
  latency('get_issue', 'p99'),
  latency('search_issues', 'p50'),
  latency('search_issues', 'p99'),
  latency('search_uncached', 'p50'),
  { id: 'ping-throughput', label: 'throughput ping, window 64', unit: 'req/s', pick: (s) => s.pingPerSec },
  { id: 'mixed-throughput', label: 'throughput mixed, window 64', unit: 'req/s', pick: (s) => s.mixedPerSec },
  { id: 'large-read', label: '5 MiB resource read', unit: 'ms', pick: (s) => s.largeReadMs },
  { id: 'chunked-request', label: '8 MiB request, 4 KiB chunks', unit: 'ms', pick: (s) => s.chunkedRequestMs },
];

export const HTTP_FIGURES: readonly Definition<HttpSample>[] = [
  { id: 'http-get_issue-p50', label: 'HTTP latency p50 get_issue', unit: 'ms', pick: (s) => s.p50 },
  { id: 'http-get_issue-p99', label: 'HTTP latency p99 get_issue', unit: 'ms', pick: (s) => s.p99 },
  { id: 'http-throughput', label: 'HTTP throughput get_issue, 64 at once', unit: 'req/s', pick: (s) => s.perSec },
];
