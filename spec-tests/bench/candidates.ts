// The servers and how to start each on a data set. Every start gets its own copy of the data
// file and its snapshot (data.ts), so no process sees another's lock file or journal.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Bundles } from './build-servers.js';
import { copyForRun } from './data.js';
import type { Era } from './workload.js';

export type CandidateName = 'ours' | 'sdk1' | 'sdk2' | 'floor';

/** Who runs in each era over stdio: SDK v1 does not speak 2026-07-28 (its line ends before it). */
export const CANDIDATES_IN: Record<Era, readonly CandidateName[]> = {
  handshake: ['ours', 'sdk1', 'sdk2', 'floor'],
  stateless: ['ours', 'sdk2', 'floor'],
};
/** Over HTTP (issue 13): ours, the SDK v2 with its Node HTTP entry, and a node:http floor. */
export const HTTP_CANDIDATES: readonly CandidateName[] = ['ours', 'sdk2', 'floor'];

export type DataSet = 'issues' | 'big';

/** The floor's canned answers, captured from ours, per era and data set. */
export type CannedDirs = Record<Era, Record<DataSet, string>>;

export interface Launcher {
  /** The command line that starts `candidate` on `data` over stdio. */
  command(candidate: CandidateName, data: DataSet, era: Era): string[];
  /** The command line that starts `candidate` on the 1,000 issues over HTTP on 127.0.0.1:`port`. */
  httpCommand(candidate: CandidateName, port: number, era: Era): string[];
}

/** `replay`: the journal alone, without the snapshot beside it (data.ts), so every start replays it. */
export function createLauncher(bundles: Bundles, files: Record<DataSet, string>, canned: CannedDirs, replay: boolean): Launcher {
  const scratch = mkdtempSync(join(tmpdir(), 'mcp-bench-run-'));
  let runs = 0;
  const copy = (data: DataSet): string => copyForRun(files[data], scratch, `run-${++runs}.jsonl`, !replay);
  const node = process.execPath;
  return {
    command(candidate, data, era) {
      if (candidate === 'floor') return [node, bundles.floor, '--canned', canned[era][data]];
      return [node, bundles[candidate], '--data', copy(data)];
    },
    httpCommand(candidate, port, era) {
      if (candidate === 'floor') return [node, bundles.httpFloor, '--canned', canned[era].issues, '--port', String(port)];
      if (candidate === 'sdk2') return [node, bundles.sdk2, '--data', copy('issues'), '--http', String(port)];
      if (candidate === 'ours') return [node, bundles.ours, '--data', copy('issues'), '--http', `127.0.0.1:${port}`];
      throw new Error(`${candidate} is not benchmarked over HTTP`);
    },
  };
}
