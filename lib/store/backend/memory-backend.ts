// A store backend that keeps its records in memory only: an import's rehearsal (every row
// tried against a copy of the store before anything is written, and the whole of a dry run)
// and tests. It plans and checks each record exactly as the journal does; it writes nothing.
import type { Change } from '../state/change.js';
import { applyRecord } from '../changes/apply.js';
import type { StoreBackend } from './record-log.js';
import type { JournalRecord } from '../model/record-schema.js';
import { createEmptyState } from '../state/state.js';

export function openMemoryBackend(now: () => Date): StoreBackend {
  const state = createEmptyState();
  return {
    name: '(in memory)',
    state: () => state,
    catchUp: () => [],
    async append(plan): Promise<Change | null> {
      const at = now().toISOString();
      const draft = plan(state, at);
      if (draft === null) return null;
      return applyRecord(state, { seq: state.lastSeq + 1, at, ...draft } as JournalRecord);
    },
    watch: () => () => {},
    close() {},
  };
}
