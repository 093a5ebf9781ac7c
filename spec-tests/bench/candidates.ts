// The three servers and how to start each on a data set. Every start gets its own copy of
// the data file, so no process sees another's lock file or journal.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Bundles } from './build-servers.js';
import { copyForRun } from './data.js';

export type CandidateName = 'ours' | 'sdk' | 'floor';
export const CANDIDATES: readonly CandidateName[] = ['ours', 'sdk', 'floor'];

export type DataSet = 'issues' | 'big';

export interface Launcher {
  /** The command line that starts `candidate` on `data`. */
  command(candidate: CandidateName, data: DataSet): string[];
}

export function createLauncher(bundles: Bundles, files: Record<DataSet, string>, canned: Record<DataSet, string>): Launcher {
  const scratch = mkdtempSync(join(tmpdir(), 'mcp-bench-run-'));
  let runs = 0;
  return {
    command(candidate, data) {
      const node = process.execPath;
      if (candidate === 'floor') return [node, bundles.floor, '--canned', canned[data]];
      const copy = copyForRun(files[data], scratch, `run-${++runs}.jsonl`);
      return [node, candidate === 'ours' ? bundles.ours : bundles.sdk, '--data', copy];
    },
  };
}
