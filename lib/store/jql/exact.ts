// Exact answers from the indexes: when the indexes alone can say which issues match, the
// matching keys are computed from their sets, and no issue is read to count the matches.
//
//   field = v, field IN (...)    the union of the values' sets
//   text ~ "words"               the word index's set, when it answers for every word
//   A OR B                       the union, when every operand is exact
//   A AND B                      the smallest exact operand's keys, kept when every other operand
//                                passes its key test (one set lookup per key)
//   NOT A, !=, NOT IN            only a key test (their sets would be most issues): usable in an AND
//   dates, other text            not exact: run.ts leaves the query to the planner and the evaluator
//
// The sets returned may be the indexes' own: read them now, never change or keep them.
import { issuesWithValue } from '../field-index.js';
import type { TrackerState } from '../state.js';
import { sizeOf, wordMatchOf } from './plan.js';
import type { Condition } from './resolve.js';

/** Whether an issue, by its key, matches. */
type KeyTest = (key: string) => boolean;

/** Keys as a union of sets: IN and OR are not copied into one set before an AND has picked its smallest side. */
type Union = readonly ReadonlySet<string>[];

/** The keys of exactly the issues matching `condition`, or null when the indexes cannot say. */
export function exactKeys(state: TrackerState, condition: Condition): ReadonlySet<string> | null {
  const sets = exactUnion(state, condition);
  return sets === null ? null : union(sets);
}

function exactUnion(state: TrackerState, condition: Condition): Union | null {
  switch (condition.kind) {
    case 'one-of':
      return condition.negated ? null : valueSets(state, condition);
    case 'text': {
      const match = wordMatchOf(state, condition);
      return match.unindexed.length === 0 && match.keys !== null ? [match.keys] : null;
    }
    case 'or': {
      const sets: ReadonlySet<string>[] = [];
      for (const operand of condition.operands) {
        const keys = exactUnion(state, operand);
        if (keys === null) return null;
        sets.push(...keys);
      }
      return sets;
    }
    case 'and': {
      const keys = intersection(state, condition.operands);
      return keys === null ? null : [keys];
    }
    case 'not':
    case 'date':
      return null;
  }
}

/** The smallest exact operand's keys that pass every other operand's test; null when an operand has no test. */
function intersection(state: TrackerState, operands: readonly Condition[]): ReadonlySet<string> | null {
  let smallest: Union | null = null;
  let smallestAt = -1;
  for (const [index, operand] of operands.entries()) {
    const sets = exactUnion(state, operand);
    if (sets !== null && (smallest === null || sizeOf(sets) < sizeOf(smallest))) [smallest, smallestAt] = [sets, index];
  }
  if (smallest === null) return null;
  const tests: KeyTest[] = [];
  for (const [index, operand] of operands.entries()) {
    if (index === smallestAt) continue;
    const test = keyTest(state, operand);
    if (test === null) return null;
    tests.push(test);
  }
  const keys = new Set<string>();
  for (const set of smallest) for (const key of set) if (tests.every((test) => test(key))) keys.add(key);
  return keys;
}

/** A test of one key against the indexes, for a condition they answer exactly, negated or not. */
function keyTest(state: TrackerState, condition: Condition): KeyTest | null {
  if (condition.kind === 'not') {
    const test = keyTest(state, condition.operand);
    return test === null ? null : (key) => !test(key);
  }
  if (condition.kind === 'one-of' && condition.negated) {
    const test = inAny(valueSets(state, condition));
    return (key) => !test(key);
  }
  const sets = exactUnion(state, condition);
  return sets === null ? null : inAny(sets);
}

function inAny(sets: Union): KeyTest {
  if (sets.length === 1) {
    const only = sets[0] as ReadonlySet<string>;
    return (key) => only.has(key);
  }
  return (key) => sets.some((set) => set.has(key));
}

function valueSets(state: TrackerState, condition: Extract<Condition, { kind: 'one-of' }>): Union {
  return [...condition.values].map((value) => issuesWithValue(state, condition.field, value));
}

/** One set: the only one itself, not a copy. */
function union(sets: Union): ReadonlySet<string> {
  if (sets.length === 1) return sets[0] as ReadonlySet<string>;
  const keys = new Set<string>();
  for (const set of sets) for (const key of set) keys.add(key);
  return keys;
}
