// The first n matches of an ordered query from an index of its first sort key, instead of a
// look at every match: walk the issues in that field's order a run of equal values at a time
// (one timestamp, one priority, one assignee), keep the run's matches, sort only those (by the
// other sort keys and the key), and stop after the run that fills the page. A page of
// `ORDER BY created DESC` then reads the newest issues, not every match.
//
// The walk pays when the matches are many: it may pass every issue to find a few. Fewer
// matches than WALK_FROM_SHARE of the issues are put in order as they are (order.ts).
import { issuesWithValue, timeIndex, valuesOf } from '../field-index.js';
import { eachKey, type KeySet } from '../key-set.js';
import type { Issue } from '../schema.js';
import type { TrackerState } from '../state.js';
import type { TimeIndex } from '../time-index.js';
import type { OrderField, SortKey } from './ast.js';
import { compareBy, firstInOrder } from './order.js';

/** Matches per issue from which walking the first sort key's index beats sorting the matches. */
const WALK_FROM_SHARE = 1 / 16;

export function firstMatchesInOrder(state: TrackerState, matches: KeySet, orderBy: readonly SortKey[], n: number): Issue[] {
  const compare = compareBy(orderBy);
  const first = orderBy[0];
  if (n <= 0) return [];
  if (first === undefined || first.field === 'key' || matches.size < state.issues.size * WALK_FROM_SHARE) {
    return firstInOrder(issuesOf(state, matches), compare, n);
  }
  const found: Issue[] = [];
  for (const run of matchesInRuns(state, { ...first, field: first.field }, matches)) {
    found.push(...firstInOrder(run, compare, n - found.length));
    if (found.length >= n) break;
  }
  return found;
}

/** The matches, a run of equal values of the sort key's field at a time, the runs in its order; no empty runs. */
function matchesInRuns(state: TrackerState, key: SortKey & { field: RunField }, matches: KeySet): Iterable<Issue[]> {
  const descending = key.direction === 'DESC';
  if (key.field === 'created' || key.field === 'updated')
    return timeRuns(state, timeIndex(state, key.field), descending, matches);
  return valueRuns(state, { ...key, field: key.field }, matches);
}

type RunField = Exclude<OrderField, 'key'>;

function* timeRuns(state: TrackerState, index: TimeIndex, descending: boolean, matches: KeySet): Generator<Issue[]> {
  const count = index.keys.length;
  let run: Issue[] = [];
  let time: string | undefined;
  for (let i = 0; i < count; i++) {
    const at = descending ? count - 1 - i : i;
    if (index.live[at] !== true) continue;
    if (index.times[at] !== time && run.length > 0) {
      yield run;
      run = [];
    }
    time = index.times[at];
    const key = index.keys[at] as string;
    if (matches.has(key)) run.push(state.issues.get(key) as Issue);
  }
  if (run.length > 0) yield run;
}

/** One run per value of the field, in the field's order: the values sorted by an issue holding each. */
function* valueRuns(
  state: TrackerState,
  key: SortKey & { field: Exclude<RunField, 'created' | 'updated'> },
  matches: KeySet,
): Generator<Issue[]> {
  const compare = compareBy([key]);
  const holders = valuesOf(state, key.field).map((value) => {
    const keys = issuesWithValue(state, key.field, value);
    return { keys, holder: state.issues.get(keys.values().next().value as string) as Issue };
  });
  holders.sort((a, b) => compare(a.holder, b.holder));
  for (const { keys } of holders) {
    // Whichever side is smaller is walked, the other asked.
    const [walked, asked] = matches.size < keys.size ? [matches, keys] : [keys, matches];
    const run: Issue[] = [];
    eachKey(walked, (member) => {
      if (asked.has(member)) run.push(state.issues.get(member) as Issue);
    });
    if (run.length > 0) yield run;
  }
}

function issuesOf(state: TrackerState, keys: KeySet): Issue[] {
  const issues: Issue[] = [];
  eachKey(keys, (key) => issues.push(state.issues.get(key) as Issue));
  return issues;
}
