// Issues in key order (project key, then issue number) from a set of candidate keys, the way
// both searches walk the issues an index left them.
//
// Sorting k candidates costs about k·log k comparisons; walking every key of the projects in
// order and keeping the candidates costs one set lookup per issue. A small candidate set is
// sorted, a large one walked: either way the work stays near the smaller of the two.
import { eachKey, type KeySet } from './key-set.js';
import { compareStrings, issueNumber } from './state.js';

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
