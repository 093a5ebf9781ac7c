// The issue index by time: for `created` and `updated`, every issue key in the order of that
// timestamp. A date clause (`created >= -7d`) is then a range found by binary search, and
// `ORDER BY updated DESC` a walk from one end instead of a sort of every match.
//
// The order is total, the one ORDER BY uses: by the timestamp, then by key (project, then
// number), so a run of equal timestamps is already in the order a tie is broken in.
//
// Like the field index it is built on the first query that wants it and then kept by
// apply.ts (through field-index.ts). Keeping it must stay cheap, since every change moves
// `updated`: a key that leaves its place leaves a hole instead of shifting every later key,
// and a key that comes back goes to the end, where a new timestamp belongs. A key that
// belongs anywhere else (a record from the past) drops the index; the next query rebuilds it.
import { compareStrings, issueNumber, sortedProjectKeys, type TrackerState } from '../state/state.js';
import type { Issue } from '../model/schema.js';
import type { TimeField } from './index-fields.js';
import { eachChangeSince, indexSource } from './saved-indexes.js';

export interface TimeIndex {
  /** Keys ascending by (timestamp, key), holes included: a hole keeps its key and time so the order stays searchable. */
  readonly keys: string[];
  /** The keys' issue ids (issue-table.ts), for the bitmaps of a query (id-set.ts). */
  readonly ids: number[];
  readonly times: string[];
  /** false where the key has since moved on (a hole). */
  readonly live: boolean[];
  holes: number;
}

/** The timestamp a field names. */
export function timeOf(issue: Issue, field: TimeField): string {
  return field === 'created' ? issue.created_at : issue.updated_at;
}

/** Key order of two keys: project, then number. */
export function compareKeys(a: string, b: string): number {
  return compareStrings(a.slice(0, a.lastIndexOf('-')), b.slice(0, b.lastIndexOf('-'))) || issueNumber(a) - issueNumber(b);
}

/** Every key of the state in the order of `field`. */
export function buildTimeIndex(state: TrackerState, field: TimeField): TimeIndex {
  const entries: { key: string; id: number; time: string }[] = [];
  for (const project of sortedProjectKeys(state)) {
    for (const key of state.issueKeysByProject.get(project) ?? []) {
      const id = state.issues.idOf(key);
      if (id !== undefined) entries.push({ key, id, time: timeOf(state.issues.at(id), field) });
    }
  }
  // The entries are in key order and the sort is stable: equal times keep it.
  entries.sort((a, b) => compareStrings(a.time, b.time));
  return {
    keys: entries.map((entry) => entry.key),
    ids: entries.map((entry) => entry.id),
    times: entries.map((entry) => entry.time),
    live: entries.map(() => true),
    holes: 0,
  };
}

/**
 * The index as the snapshot saved it, with the issues changed since moved the way apply.ts
 * moves them, in the order of their new times (each move must go to the end); null when there is
 * no saved index or a change cannot be placed so (a time from the past): then it is built.
 */
export function savedTimeIndex(state: TrackerState, field: TimeField): TimeIndex | null {
  const saved = indexSource(state)?.savedIndexes() ?? null;
  if (saved === null) return null;
  const { ids, times } = saved.times[field];
  const index: TimeIndex = { keys: [], ids: [], times: ids.length === 0 ? [] : times.split('\n'), live: [], holes: 0 };
  for (let at = 0; at < ids.length; at++) {
    const id = ids[at] as number;
    index.keys.push(state.issues.keyAt(id));
    index.ids.push(id);
    index.live.push(true);
  }
  const changes: { id: number; before: Issue | undefined; after: Issue }[] = [];
  eachChangeSince(state, saved, (id, before, after) => changes.push({ id, before, after }));
  changes.sort((a, b) => compareStrings(timeOf(a.after, field), timeOf(b.after, field)) || compareKeys(a.after.key, b.after.key));
  for (const { id, before, after } of changes) if (!moveInTime(index, before, after, id, field)) return null;
  return index;
}

/** The index as a snapshot keeps it (saved-indexes.ts): its live entries. */
export function savedTimes(index: TimeIndex): { ids: Uint32Array; times: string } {
  const ids = new Uint32Array(index.keys.length - index.holes);
  const times: string[] = [];
  for (let at = 0; at < index.keys.length; at++) {
    if (index.live[at] !== true) continue;
    ids[times.length] = index.ids[at] as number;
    times.push(index.times[at] as string);
  }
  return { ids, times: times.join('\n') };
}

/** The first position whose time is at or after `time` (the length when none is). */
export function firstAtOrAfter(index: TimeIndex, time: string): number {
  let low = 0;
  let high = index.times.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((index.times[middle] as string) < time) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Moves an issue's key for a change of its timestamp: false when the index can no longer be
 * kept (the new place is not the end), so the caller drops it.
 */
export function moveInTime(index: TimeIndex, before: Issue | undefined, after: Issue, id: number, field: TimeField): boolean {
  const time = timeOf(after, field);
  if (before !== undefined) {
    if (timeOf(before, field) === time) return true;
    const at = positionOf(index, before.key, timeOf(before, field));
    if (at === -1) return false;
    index.live[at] = false;
    index.holes += 1;
  }
  const last = index.keys.length - 1;
  if (last >= 0 && (compareStrings(index.times[last] as string, time) || compareKeys(index.keys[last] as string, after.key)) > 0)
    return false;
  index.keys.push(after.key);
  index.ids.push(id);
  index.times.push(time);
  index.live.push(true);
  if (index.holes > index.keys.length / 2) compact(index);
  return true;
}

/**
 * Where the live `key` with `time` is, or -1: a binary search by (time, key), which is unique
 * even among holes, since a key only ever moves to the end, to a later place.
 */
function positionOf(index: TimeIndex, key: string, time: string): number {
  let low = 0;
  let high = index.keys.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    const order = compareStrings(index.times[middle] as string, time) || compareKeys(index.keys[middle] as string, key);
    if (order === 0) return index.live[middle] === true ? middle : -1;
    if (order < 0) low = middle + 1;
    else high = middle;
  }
  return -1;
}

/** Drops the holes once they are half the index, so walks and counts stay near the number of issues. */
function compact(index: TimeIndex): void {
  let kept = 0;
  for (let at = 0; at < index.keys.length; at++) {
    if (index.live[at] !== true) continue;
    index.keys[kept] = index.keys[at] as string;
    index.ids[kept] = index.ids[at] as number;
    index.times[kept] = index.times[at] as string;
    index.live[kept] = true;
    kept += 1;
  }
  index.keys.length = kept;
  index.ids.length = kept;
  index.times.length = kept;
  index.live.length = kept;
  index.holes = 0;
}
