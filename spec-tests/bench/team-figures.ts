// Team-mode figures (store rows): the journal and PostgreSQL side by side at each size
// (spec-tests/bench/backends.ts, the module its command-line script runs too, so there
// is one implementation of those measurements and of their table), then N `mcp-tracker --http`
// instances on one store (team-instances.ts). Needs a PostgreSQL server: --postgres URL or
// $MCP_TEST_POSTGRES_URL.

import { type BackendRow, measureBackends } from './backends.js';
import { type CrossLatencyRow, type ThroughputRow, crossInstanceLatency, teamThroughput } from './team-instances.js';

export interface TeamFigures {
  backends: readonly BackendRow[];
  crossInstance: CrossLatencyRow[];
  throughput: ThroughputRow[];
}

export async function teamFigures(url: string, sizes: readonly number[], log: (line: string) => void): Promise<TeamFigures> {
  log(`team mode: journal and PostgreSQL at ${sizes.join(', ')} issues (spec-tests/bench/backends.ts)`);
  return {
    backends: await measureBackends(url, sizes, log),
    crossInstance: await crossInstanceLatency(url, log),
    throughput: await teamThroughput(url, log),
  };
}
