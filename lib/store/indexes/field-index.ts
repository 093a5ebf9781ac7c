// The issue index by field: for each field a query can name with =, IN or IS EMPTY, which
// issues hold each value. `status = todo AND assignee = alice` then starts from the smaller
// of two sets instead of a look at every issue (jql/plan.ts).
//
// It is built on the first query that wants it, not when the store opens (opening pays
// nothing for it), and from then on kept up to date by apply.ts: each applied record that
// replaces an issue moves the issue's key between the sets of the values that changed. The
// time indexes (time-index.ts) live beside it and are kept the same way.
import { IdSet } from './id-set.js';
import { INDEXED_FIELDS, TIME_FIELDS, type FieldValue, type IndexedField, type TimeField } from './index-fields.js';
import { keysOfIds, NO_KEYS, type KeySet } from './key-set.js';
import type { Issue } from '../model/schema.js';
import { eachChangeSince, indexSource, type SavedField } from './saved-indexes.js';
import type { TrackerState } from '../state/state.js';
import { buildTimeIndex, moveInTime, savedTimeIndex, type TimeIndex } from './time-index.js';

/** Field → value → ids of the issues holding that value (id-set.ts). */
export type ValueIndex = Map<IndexedField, Map<FieldValue, IdSet>>;

/** Each part null until a query first wants it. */
export interface FieldIndex {
  byValue: ValueIndex | null;
  readonly byTime: Record<TimeField, TimeIndex | null>;
}

/** The values one issue holds in a field: one, except labels (none is [null]). */
export function fieldValues(issue: Issue, field: IndexedField): readonly FieldValue[] {
  if (field === 'labels') return issue.labels.length === 0 ? [null] : issue.labels;
  return [issue[field]];
}

/** Each state's index, made on first use: the state does not hold it, so it imports nothing from here. */
const fieldIndexes = new WeakMap<TrackerState, FieldIndex>();

function indexes(state: TrackerState): FieldIndex {
  let index = fieldIndexes.get(state);
  if (index === undefined) fieldIndexes.set(state, (index = { byValue: null, byTime: { created: null, updated: null } }));
  return index;
}

/** The index by value, loaded from the snapshot or built now if this is its first use. */
export function valueIndex(state: TrackerState): ValueIndex {
  const container = indexes(state);
  container.byValue ??= savedValueIndex(state) ?? builtValueIndex(state);
  return container.byValue;
}

function builtValueIndex(state: TrackerState): ValueIndex {
  // Ids ascending into plain arrays first (a push each), made sets once at the end.
  const lists = new Map(INDEXED_FIELDS.map((field) => [field, new Map<FieldValue, number[]>()]));
  for (let id = 0; id < state.issues.size; id++) {
    const issue = state.issues.at(id);
    for (const field of INDEXED_FIELDS) {
      const byValue = lists.get(field) as Map<FieldValue, number[]>;
      for (const value of fieldValues(issue, field)) {
        const ids = byValue.get(value);
        if (ids === undefined) byValue.set(value, [id]);
        else ids.push(id);
      }
    }
  }
  return new Map(
    [...lists].map(([field, byValue]) => [field, new Map([...byValue].map(([value, ids]) => [value, new IdSet(ids)]))]),
  );
}

/** The index as the snapshot saved it, with the issues changed since brought in; null when there is none. */
function savedValueIndex(state: TrackerState): ValueIndex | null {
  const saved = indexSource(state)?.savedIndexes() ?? null;
  if (saved === null) return null;
  const index: ValueIndex = new Map(
    saved.values.map(({ field, values, ids }) => [
      field,
      new Map(values.map((value, i) => [value, new IdSet(ids[i] as Uint32Array)])),
    ]),
  );
  eachChangeSince(state, saved, (id, before, after) => updateValues(index, id, before, after));
  return index;
}

/** The index by value as a snapshot keeps it (saved-indexes.ts). */
export function savedValues(state: TrackerState): SavedField[] {
  return [...valueIndex(state)].map(([field, byValue]) => ({
    field,
    values: [...byValue.keys()],
    ids: [...byValue.values()].map((ids) => ids.toArray()),
  }));
}

/** The index of one timestamp, loaded from the snapshot or built now if this is its first use. */
export function timeIndex(state: TrackerState, field: TimeField): TimeIndex {
  const byTime = indexes(state).byTime;
  return (byTime[field] ??= savedTimeIndex(state, field) ?? buildTimeIndex(state, field));
}

/** Ids of the issues holding `value` in `field` (empty when none do). */
export function idsWithValue(state: TrackerState, field: IndexedField, value: FieldValue): IdSet {
  return valueIndex(state).get(field)?.get(value) ?? NO_IDS;
}

/** Keys of the issues holding `value` in `field` (empty when none do). */
export function issuesWithValue(state: TrackerState, field: IndexedField, value: FieldValue): KeySet {
  const ids = valueIndex(state).get(field)?.get(value);
  return ids === undefined ? NO_KEYS : keysOfIds(state.issues, ids);
}

/** The values `field` has in some issue. */
export function valuesOf(state: TrackerState, field: IndexedField): FieldValue[] {
  return [...(valueIndex(state).get(field)?.keys() ?? [])];
}

/** Never changed: add() makes a new set for a new value. */
const NO_IDS = new IdSet();

/** Called by apply.ts for every created or replaced issue; nothing to do before an index is built. */
export function indexIssueFields(state: TrackerState, before: Issue | undefined, after: Issue): void {
  const built = fieldIndexes.get(state);
  if (built === undefined) return;
  const byTime = built.byTime;
  const id = state.issues.idOf(after.key) as number;
  for (const field of TIME_FIELDS) {
    const index = byTime[field];
    if (index !== null && !moveInTime(index, before, after, id, field)) byTime[field] = null;
  }
  const index = built.byValue;
  if (index !== null) updateValues(index, id, before, after);
}

/** Moves the issue's id between the sets of the values that changed. */
function updateValues(index: ValueIndex, id: number, before: Issue | undefined, after: Issue): void {
  for (const field of INDEXED_FIELDS) {
    if (before !== undefined && sameValues(fieldValues(before, field), fieldValues(after, field))) continue;
    if (before !== undefined) remove(index, field, before, id);
    add(index, field, after, id);
  }
}

function add(index: ValueIndex, field: IndexedField, issue: Issue, id: number): void {
  const byValue = index.get(field) as Map<FieldValue, IdSet>;
  for (const value of fieldValues(issue, field)) {
    let ids = byValue.get(value);
    if (ids === undefined) byValue.set(value, (ids = new IdSet()));
    ids.add(id);
  }
}

function remove(index: ValueIndex, field: IndexedField, issue: Issue, id: number): void {
  const byValue = index.get(field) as Map<FieldValue, IdSet>;
  for (const value of fieldValues(issue, field)) {
    const ids = byValue.get(value);
    ids?.delete(id);
    if (ids?.size === 0) byValue.delete(value);
  }
}

function sameValues(a: readonly FieldValue[], b: readonly FieldValue[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}
