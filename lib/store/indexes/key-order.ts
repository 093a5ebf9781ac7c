// Issues in key order (project key, then issue number) from a set of candidate keys, the way
// both searches walk the issues an index left them.
//
// Sorting k candidates costs about k·log k comparisons; walking every key of the projects in
// order and keeping the candidates costs one set lookup per issue. A small candidate set is
// sorted, a large one walked: either way the work stays near the smaller of the two.
import { idsWithValue } from './field-index.js';
import { andBits, eachBit, emptyBits, type Bits } from './id-set.js';
import { eachKey, type KeySet } from './key-set.js';
import { compareStrings, issueNumber, sortedProjectKeys, type TrackerState } from '../state/state.js';

/** Candidates per issue under which sorting them beats walking every key. */
const SORT_BELOW_SHARE = 1 / 16;

/**
 * The keys of `keyLists` (each one project's keys, ascending; the lists in project order)
 * that are in `candidates`, in that order (or its reverse); every key when `candidates` is null.
 */
export function* inKeyOrder(
  keyLists: ReadonlyArray<readonly string[]>,
  candidates: KeySet | null,
  descending = false,
): Generator<string, void, void> {
  const total = keyLists.reduce((sum, keys) => sum + keys.length, 0);
  if (candidates !== null && candidates.size < total * SORT_BELOW_SHARE) {
    const sorted = sortedCandidates(keyLists, candidates);
    yield* descending ? sorted.reverse() : sorted;
    return;
  }
  for (const keys of descending ? [...keyLists].reverse() : keyLists) {
    for (let i = 0; i < keys.length; i++) {
      const key = keys[descending ? keys.length - 1 - i : i] as string;
      if (candidates === null || candidates.has(key)) yield key;
    }
  }
}

function sortedCandidates(keyLists: ReadonlyArray<readonly string[]>, candidates: KeySet): string[] {
  const projects = new Set(keyLists.map((keys) => (keys[0] === undefined ? '' : projectOf(keys[0]))));
  const rows: { project: string; number: number; key: string }[] = [];
  eachKey(candidates, (key) => {
    const project = projectOf(key);
    if (projects.has(project)) rows.push({ project, number: issueNumber(key), key });
  });
  rows.sort((a, b) => compareStrings(a.project, b.project) || a.number - b.number);
  return rows.map((row) => row.key);
}

function projectOf(key: string): string {
  return key.slice(0, key.lastIndexOf('-'));
}

/**
 * The first `n` ids of a query's bitmap in key order (or its reverse). Within a project, id
 * order is key order (id-set.ts), so each project's ids are read off the bitmap in order: with
 * several projects, the bitmap ANDed with the project's set first.
 */
export function firstInKeyOrder(
  state: TrackerState,
  matches: Bits,
  n: number,
  descending: boolean,
  accept: ((id: number) => boolean) | null = null,
): number[] {
  const found: number[] = [];
  const projects = sortedProjectKeys(state);
  if (descending) projects.reverse();
  const take = (id: number): boolean => (accept !== null && !accept(id)) || found.push(id) < n;
  for (const project of projects) {
    if (found.length >= n) break;
    const ofProject =
      projects.length === 1
        ? matches
        : andBits(idsWithValue(state, 'project', project).orInto(emptyBits(state.issues.size)), matches);
    eachBit(ofProject, take, descending);
  }
  return found;
}
