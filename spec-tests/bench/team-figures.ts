// Team-mode figures (store rows): the journal and PostgreSQL side by side at each size
// (lib/store/postgres/bench.ts, run as it is and its table read, so there is one
// implementation of those measurements), then N `mcp-tracker --http` instances on one store
// (team-instances.ts). Needs a PostgreSQL server: --postgres URL or $MCP_TEST_POSTGRES_URL.

import { spawnSync } from 'node:child_process';
import { type CrossLatencyRow, type ThroughputRow, crossInstanceLatency, teamThroughput } from './team-instances.js';

export interface BackendRow {
  backend: string;
  issues: number;
  loadS: number;
  openMs: number;
  mutationP50Ms: number;
  mutationP99Ms: number;
  searchP50Ms: number;
  notifyP50Ms: number;
  notifyMaxMs: number;
}

export interface TeamFigures {
  backends: BackendRow[];
  crossInstance: CrossLatencyRow[];
  throughput: ThroughputRow[];
}

/** Loading 100,000 issues into PostgreSQL and opening them twice takes a while on a busy machine. */
const BACKENDS_TIMEOUT_MS = 15 * 60_000;

export async function teamFigures(
  root: string,
  url: string,
  sizes: readonly number[],
  log: (line: string) => void,
): Promise<TeamFigures> {
  log(`team mode: journal and PostgreSQL at ${sizes.join(', ')} issues (lib/store/postgres/bench.ts)`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'lib/store/postgres/bench.ts', url, ...sizes.map(String)], {
    cwd: root,
    encoding: 'utf8',
    timeout: BACKENDS_TIMEOUT_MS,
  });
  if (run.status !== 0) throw new Error(`lib/store/postgres/bench.ts failed:\n${run.stdout}${run.stderr}`);
  return {
    backends: parseBackends(run.stdout),
    crossInstance: await crossInstanceLatency(url, log),
    throughput: await teamThroughput(url, log),
  };
}

/** Columns: backend, issues, load s, open ms, mutation p50, p99, search p50, notify p50, notify max. */
function parseBackends(text: string): BackendRow[] {
  return text
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([backend, ...cells]) => (backend === 'journal' || backend === 'postgres') && cells.length === 8)
    .map(([backend, ...cells]) => {
      const [issues, loadS, openMs, mutationP50Ms, mutationP99Ms, searchP50Ms, notifyP50Ms, notifyMaxMs] = cells.map(Number);
      return {
        backend: backend!,
        issues: issues!,
        loadS: loadS!,
        openMs: openMs!,
        mutationP50Ms: mutationP50Ms!,
        mutationP99Ms: mutationP99Ms!,
        searchP50Ms: searchP50Ms!,
        notifyP50Ms: notifyP50Ms!,
        notifyMaxMs: notifyMaxMs!,
      };
    });
}
