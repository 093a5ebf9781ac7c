// Store figures at 1,000 and 100,000 issues: runs spec-tests/bench/store-bench.ts, the store's own
// benchmark, and reads its table, so there is one implementation of those measurements.

import { spawnSync } from 'node:child_process';

export interface StoreRow {
  issues: number;
  fileMb: number;
  openMs: number;
  mutationP50Ms: number;
  mutationP99Ms: number;
  searchP50Ms: number;
}

export function storeFigures(root: string, sizes: readonly number[]): StoreRow[] {
  if (sizes.length === 0) return [];
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'spec-tests/bench/store-bench.ts', ...sizes.map(String)], {
    cwd: root,
    encoding: 'utf8',
    timeout: 240_000,
  });
  if (run.status !== 0) throw new Error(`spec-tests/bench/store-bench.ts failed:\n${run.stdout}${run.stderr}`);
  return parseTable(run.stdout);
}

/** Columns: issues, file MB, open ms, mutation p50, mutation p99, search p50, list p50, complete p50. */
function parseTable(text: string): StoreRow[] {
  return text
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter((cells) => cells.length >= 6 && cells.every((n) => Number.isFinite(n)))
    .map(([issues, fileMb, openMs, mutationP50Ms, mutationP99Ms, searchP50Ms]) => ({
      issues: issues!,
      fileMb: fileMb!,
      openMs: openMs!,
      mutationP50Ms: mutationP50Ms!,
      mutationP99Ms: mutationP99Ms!,
      searchP50Ms: searchP50Ms!,
    }));
}
