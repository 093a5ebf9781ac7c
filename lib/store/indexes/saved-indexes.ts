// The query indexes as a snapshot keeps them (journal-snapshot.ts), so the first query after an
// open from a snapshot reads them instead of parsing every issue to build them.
//
// They hold ids (issue-table.ts) in flat typed arrays, which v8.serialize writes and reads as
// bytes. They describe the issues as the snapshot holds them; the issues changed since (records
// replayed after the snapshot, changes made since the open) are brought in when an index is
// loaded, each from its snapshot version to its current one, the way apply.ts keeps a built
// index (eachChangeSince).
import type { FieldValue, IndexedField, TimeField } from './index-fields.js';
import type { Issue } from '../model/schema.js';
import type { TrackerState } from '../state/state.js';

export interface SavedIndexes {
  /** The issues the indexes describe: ids below this. */
  readonly count: number;
  /** For each field, its values and the ids holding each (ascending). */
  readonly values: readonly SavedField[];
  /** The words joined by "\n" (a word has none); word i's ids are ids[ends[i - 1], ends[i]). */
  readonly words: { readonly vocabulary: string; readonly ends: Uint32Array; readonly ids: Uint32Array };
  /** Each time index without its holes: the ids in its order, and their times joined by "\n". */
  readonly times: Record<TimeField, { readonly ids: Uint32Array; readonly times: string }>;
}

export interface SavedField {
  readonly field: IndexedField;
  readonly values: readonly FieldValue[];
  readonly ids: readonly Uint32Array[];
}

/** Where saved indexes come from: the snapshot the state was opened from. */
export interface IndexSource {
  /** The saved indexes, read and checked on first use; null when there are none or they cannot be trusted (said why on stderr). */
  savedIndexes(): SavedIndexes | null;
  /** The issue as the snapshot holds it (an id below the saved count). */
  savedIssue(id: number, key: string): Issue;
}

/** The snapshot each state was opened from, if any: where its indexes are loaded from instead of built. */
const indexSources = new WeakMap<TrackerState, IndexSource>();

export function setIndexSource(state: TrackerState, source: IndexSource): void {
  indexSources.set(state, source);
}

export function indexSource(state: TrackerState): IndexSource | undefined {
  return indexSources.get(state);
}

/**
 * Visits every issue whose indexed fields or text may differ from what `saved` says: each one
 * changed since the snapshot (`before` its snapshot version) and each one created since
 * (`before` undefined).
 */
export function eachChangeSince(
  state: TrackerState,
  saved: SavedIndexes,
  visit: (id: number, before: Issue | undefined, after: Issue) => void,
): void {
  const source = indexSources.get(state) as IndexSource;
  for (const id of state.issues.changedSinceSource()) {
    if (id < saved.count) visit(id, source.savedIssue(id, state.issues.keyAt(id)), state.issues.at(id));
  }
  for (let id = saved.count; id < state.issues.size; id++) visit(id, undefined, state.issues.at(id));
}
