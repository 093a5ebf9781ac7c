// The first n matches of an ordered query from the indexes of its sort keys, instead of a sort
// of every match: walk the issues in the first sort key's order a run of equal values at a time
// (one timestamp, one priority, one assignee), and stop after the run that fills the page. A
// run of one value is the matches AND that value's set (id-set.ts); it is ordered by the next
// sort key the same way, so `ORDER BY priority, updated DESC` takes the P0 matches and walks
// the `updated` index for them. Runs of one timestamp are ordered by the sort keys after it.
//
// A walk pays when the matches are many: it may pass many issues to find a few. Few matches
// (see worthSorting) are read and put in order as they are (order.ts).
import { valueIndex, timeIndex } from '../../indexes/field-index.js';
import type { FieldValue, IndexedField } from '../../indexes/index-fields.js';
import { andBits, countBits, eachBit, emptyBits, hasBit, type Bits, type IdSet } from '../../indexes/id-set.js';
import { firstInKeyOrder } from '../../indexes/key-order.js';
import type { Issue } from '../../model/schema.js';
import type { TrackerState } from '../../state/state.js';
import { firstAtOrAfter } from '../../indexes/time-index.js';
import type { SortKey } from './ast.js';
import { compareBy, firstInOrder } from './order.js';

/** Up to this many matches are always sorted. */
const SORT_UP_TO = 64;

/**
 * The first `n` issues of `matches` (`count` of them) in the order of `orderBy`, then key; of
 * those `accept` takes (all when null: a cursor's test, asked only of the issues the walk meets).
 */
export function firstMatchesInOrder(
  state: TrackerState,
  matches: Bits,
  count: number,
  orderBy: readonly SortKey[],
  n: number,
  accept: Accept | null = null,
): Issue[] {
  const first = orderBy[0];
  if (n <= 0 || count === 0) return [];
  // The key is a total order: ORDER BY key (first) is a walk of the ids, forwards or backwards.
  if (first === undefined || first.field === 'key') {
    const accepts = accept === null ? null : (id: number) => accept(state.issues.at(id));
    return firstInKeyOrder(state, matches, n, first?.direction === 'DESC', accepts).map((id) => state.issues.at(id));
  }
  // The due date has no index in memory (its clauses use the set of issues that carry fields): sorted.
  if (worthSorting(count, n, state.issues.size) || first.field === 'due') {
    return firstInOrder(accepted(issuesOf(state, matches), accept), compareBy(orderBy), n);
  }
  const rest = orderBy.slice(1);
  const found: Issue[] = [];
  const descending = first.direction === 'DESC';
  if (first.field === 'created' || first.field === 'updated') {
    for (const run of timeRuns(state, first.field, descending, matches)) {
      found.push(...firstOfRun(state, run, rest, n - found.length, accept));
      if (found.length >= n) break;
    }
    return found;
  }
  for (const run of valueRuns(state, first, matches)) {
    found.push(...firstMatchesInOrder(state, run.bits, run.count, rest, n - found.length, accept));
    if (found.length >= n) break;
  }
  return found;
}

/**
 * Whether sorting the matches beats walking an index: a walk passes about n · issues / count
 * entries to find n, a sort reads and compares all count matches.
 */
function worthSorting(count: number, n: number, issues: number): boolean {
  return count <= SORT_UP_TO || count * count < n * issues;
}

/** A run of one timestamp's matches, ids ascending (key order: the index orders ties by key), in order of `rest`. */
function firstOfRun(
  state: TrackerState,
  ids: readonly number[],
  rest: readonly SortKey[],
  n: number,
  accept: Accept | null,
): Issue[] {
  const issues = accepted(
    ids.map((id) => state.issues.at(id)),
    accept,
  );
  if (rest.length === 0 || rest[0]?.field === 'key') {
    return (rest[0]?.direction === 'DESC' ? issues.reverse() : issues).slice(0, n);
  }
  return firstInOrder(issues, compareBy(rest), n);
}

/** Whether an issue may be on the page (after a cursor). */
type Accept = (issue: Issue) => boolean;

function accepted(issues: Issue[], accept: Accept | null): Issue[] {
  return accept === null ? issues : issues.filter(accept);
}

/**
 * The matches' ids, a run of equal timestamps at a time, in the index's order; each run ascending
 * (the index orders a tie by key); no empty runs. Entries are tested for a match and nothing
 * else: a match's run is found by binary search (the index is sorted by time), so no two times
 * are compared as the walk passes the issues that do not match.
 */
function* timeRuns(state: TrackerState, field: 'created' | 'updated', descending: boolean, matches: Bits): Generator<number[]> {
  const index = timeIndex(state, field);
  let at = descending ? index.keys.length - 1 : 0;
  while (at >= 0 && at < index.keys.length) {
    if (index.live[at] !== true || !hasBit(matches, index.ids[at] as number)) {
      at += descending ? -1 : 1;
      continue;
    }
    const time = index.times[at] as string;
    // '\u0000' after a time is the smallest text above it: where the next time starts.
    const [from, to] = [firstAtOrAfter(index, time), firstAtOrAfter(index, `${time}\u0000`)];
    const run: number[] = [];
    for (let i = from; i < to; i++) {
      const id = index.ids[i] as number;
      if (index.live[i] === true && hasBit(matches, id)) run.push(id);
    }
    yield run;
    at = descending ? from - 1 : to;
  }
}

/** The matches holding each value of the field, the values in the field's order (by an issue holding each); no empty runs. */
function* valueRuns(
  state: TrackerState,
  key: SortKey,
  matches: Bits,
): Generator<{ readonly bits: Bits; readonly count: number }> {
  const compare = compareBy([key]);
  const byValue = valueIndex(state).get(key.field as IndexedField) as Map<FieldValue, IdSet>;
  const holders = [...byValue.values()].map((ids) => ({ ids, holder: state.issues.at(ids.first()) }));
  holders.sort((a, b) => compare(a.holder, b.holder));
  for (const { ids } of holders) {
    const bits = andBits(ids.orInto(emptyBits(state.issues.size)), matches);
    const count = countBits(bits);
    if (count > 0) yield { bits, count };
  }
}

function issuesOf(state: TrackerState, ids: Bits): Issue[] {
  const issues: Issue[] = [];
  eachBit(ids, (id) => void issues.push(state.issues.at(id)));
  return issues;
}
