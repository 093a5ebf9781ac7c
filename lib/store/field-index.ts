// The issue index by field: for each field a query can name with =, IN or IS EMPTY, which
// issues hold each value. `status = todo AND assignee = alice` then starts from the smaller
// of two sets instead of a look at every issue (jql/plan.ts).
//
// It is built on the first query that wants it, not when the store opens (opening pays
// nothing for it), and from then on kept up to date by apply.ts: each applied record that
// replaces an issue moves the issue's key between the sets of the values that changed. The
// time indexes (time-index.ts) live beside it and are kept the same way.
import type { Issue } from './schema.js';
import type { TrackerState } from './state.js';
import { buildTimeIndex, moveInTime, TIME_FIELDS, type TimeField, type TimeIndex } from './time-index.js';

export const INDEXED_FIELDS = ['project', 'status', 'priority', 'assignee', 'reporter', 'type', 'sprint', 'labels'] as const;
export type IndexedField = (typeof INDEXED_FIELDS)[number];

/** An empty field (no assignee, no sprint, no labels) is the value null. */
export type FieldValue = string | null;

/** Field → value → keys of the issues holding that value. */
export type ValueIndex = Map<IndexedField, Map<FieldValue, Set<string>>>;

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

function indexes(state: TrackerState): FieldIndex {
  if (state.fieldIndex === null) state.fieldIndex = { byValue: null, byTime: { created: null, updated: null } };
  return state.fieldIndex;
}

/** The index by value, built now if this is its first use. */
export function valueIndex(state: TrackerState): ValueIndex {
  const container = indexes(state);
  if (container.byValue !== null) return container.byValue;
  const index: ValueIndex = new Map(INDEXED_FIELDS.map((field) => [field, new Map()]));
  for (const issue of state.issues.values()) for (const field of INDEXED_FIELDS) add(index, field, issue);
  container.byValue = index;
  return index;
}

/** The index of one timestamp, built now if this is its first use. */
export function timeIndex(state: TrackerState, field: TimeField): TimeIndex {
  const byTime = indexes(state).byTime;
  return (byTime[field] ??= buildTimeIndex(state, field));
}

/** Keys of the issues holding `value` in `field` (empty when none do). */
export function issuesWithValue(state: TrackerState, field: IndexedField, value: FieldValue): ReadonlySet<string> {
  return valueIndex(state).get(field)?.get(value) ?? NO_KEYS;
}

/** The values `field` has in some issue. */
export function valuesOf(state: TrackerState, field: IndexedField): FieldValue[] {
  return [...(valueIndex(state).get(field)?.keys() ?? [])];
}

const NO_KEYS: ReadonlySet<string> = new Set();

/** Called by apply.ts for every created or replaced issue; nothing to do before an index is built. */
export function indexIssueFields(state: TrackerState, before: Issue | undefined, after: Issue): void {
  if (state.fieldIndex === null) return;
  const byTime = state.fieldIndex.byTime;
  for (const field of TIME_FIELDS) {
    const index = byTime[field];
    if (index !== null && !moveInTime(index, before, after, field)) byTime[field] = null;
  }
  const index = state.fieldIndex.byValue;
  if (index === null) return;
  for (const field of INDEXED_FIELDS) {
    if (before !== undefined && sameValues(fieldValues(before, field), fieldValues(after, field))) continue;
    if (before !== undefined) remove(index, field, before);
    add(index, field, after);
  }
}

function add(index: ValueIndex, field: IndexedField, issue: Issue): void {
  const byValue = index.get(field) as Map<FieldValue, Set<string>>;
  for (const value of fieldValues(issue, field)) {
    let keys = byValue.get(value);
    if (keys === undefined) byValue.set(value, (keys = new Set()));
    keys.add(issue.key);
  }
}

function remove(index: ValueIndex, field: IndexedField, issue: Issue): void {
  const byValue = index.get(field) as Map<FieldValue, Set<string>>;
  for (const value of fieldValues(issue, field)) {
    const keys = byValue.get(value);
    keys?.delete(issue.key);
    if (keys?.size === 0) byValue.delete(value);
  }
}

function sameValues(a: readonly FieldValue[], b: readonly FieldValue[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}
