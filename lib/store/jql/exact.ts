// Exact answers from the indexes: when the indexes alone can say which issues match, the
// matching keys are a set made from their sets (key-set.ts), and no issue is read to count
// the matches.
//
//   field = v, field IN (...)    the union of the values' sets
//   created >= -7d, dates        a range of the time index (time-index.ts): one or, for !=, two
//   text ~ "words"               for each word, the union of the sets of the indexed words
//                                containing it; several words are an AND of those
//   A OR B                       the union, when every operand is exact
//   A AND B                      the smallest exact operand (a word of a text counts as one),
//                                its keys kept when they pass every other operand's key test
//   NOT A, !=, NOT IN            only a key test (their sets would be most issues): usable in an AND
//   words the index cannot say   not exact: run.ts leaves the query to the planner and the evaluator
//
// The sets returned are made of the indexes' own: read them now, never change or keep them.
import { issuesWithValue, timeIndex } from '../field-index.js';
import { inAny, intersectionOf, unionOf, type KeySet, type KeyTest } from '../key-set.js';
import type { TrackerState } from '../state.js';
import { firstAtOrAfter, timeOf, type TimeIndex } from '../time-index.js';
import { isIndexable, issuesContaining } from '../word-index.js';
import { compileCondition } from './evaluate.js';
import { sizeOf } from './plan.js';
import type { Condition, DateField } from './resolve.js';

/** Keys as a union of sets: IN and OR are not made one set before an AND has picked its smallest side. */
type Union = readonly KeySet[];

/** One operand of an AND as the indexes see it: its keys when they can list them, and a test of one key. */
interface Factor {
  readonly keys: Union | null;
  /** No key in two of `keys`' sets. */
  readonly disjoint: boolean;
  readonly test: KeyTest;
}

/** The keys of exactly the issues matching `condition`, or null when the indexes cannot say. */
export function exactKeys(state: TrackerState, condition: Condition): KeySet | null {
  const sets = exactUnion(state, condition);
  return sets === null ? null : unionOf(sets, disjoint(condition));
}

function exactUnion(state: TrackerState, condition: Condition): Union | null {
  switch (condition.kind) {
    case 'one-of':
      return condition.negated ? null : valueSets(state, condition);
    case 'date':
      return timeRanges(state, condition);
    case 'text': {
      if (!condition.words.every(isIndexable)) return null;
      if (condition.words.length === 1) return wordSets(state, condition.words[0] as string);
      return intersection(state, [condition]);
    }
    case 'or': {
      const sets: KeySet[] = [];
      for (const operand of condition.operands) {
        const keys = exactUnion(state, operand);
        if (keys === null) return null;
        sets.push(...keys);
      }
      return sets;
    }
    case 'and':
      return intersection(state, condition.operands);
    case 'not':
      return null;
  }
}

/** Whether no key is in two of the sets exactUnion gives: the size of their union is then a sum. */
function disjoint(condition: Condition): boolean {
  return (condition.kind === 'one-of' && condition.field !== 'labels') || condition.kind === 'date';
}

/** The smallest exact factor's keys that pass every other factor's test; null when a factor has no test. */
function intersection(state: TrackerState, operands: readonly Condition[]): Union | null {
  const factors: Factor[] = [];
  for (const operand of operands) {
    const more = factorsOf(state, operand);
    if (more === null) return null;
    factors.push(...more);
  }
  let smallest: Factor | null = null;
  for (const factor of factors) {
    if (factor.keys === null) continue;
    if (smallest === null || sizeOf(factor.keys) < sizeOf(smallest.keys as Union)) smallest = factor;
  }
  if (smallest === null) return null;
  const driver = unionOf(smallest.keys as Union, smallest.disjoint);
  return [
    intersectionOf(
      driver,
      factors.filter((factor) => factor !== smallest).map((factor) => factor.test),
    ),
  ];
}

/** An AND's operand as factors: a nested AND's and a text's words each count as one. */
function factorsOf(state: TrackerState, condition: Condition): Factor[] | null {
  if (condition.kind === 'and') {
    const factors: Factor[] = [];
    for (const operand of condition.operands) {
      const more = factorsOf(state, operand);
      if (more === null) return null;
      factors.push(...more);
    }
    return factors;
  }
  if (condition.kind === 'text' && condition.words.every(isIndexable)) {
    return condition.words.map((word) => {
      const keys = wordSets(state, word);
      return { keys, disjoint: false, test: inAny(keys) };
    });
  }
  const test = keyTest(state, condition);
  if (test === null) return null;
  const keys = isExactlyListed(condition) ? exactUnion(state, condition) : null;
  return [{ keys, disjoint: disjoint(condition), test }];
}

/** Conditions whose keys are worth listing to drive an AND (a NOT's or a != would be most issues). */
function isExactlyListed(condition: Condition): boolean {
  return condition.kind !== 'not' && !(condition.kind === 'one-of' && condition.negated);
}

/** A test of one key, for a condition the indexes answer exactly, negated or not. */
function keyTest(state: TrackerState, condition: Condition): KeyTest | null {
  switch (condition.kind) {
    case 'not': {
      const test = keyTest(state, condition.operand);
      return test === null ? null : (key) => !test(key);
    }
    case 'one-of': {
      const test = inAny(valueSets(state, condition));
      return condition.negated ? (key) => !test(key) : test;
    }
    case 'date': {
      // The issue's own timestamp: cheaper than the index, and needs none built.
      const matches = compileCondition(state, condition);
      return (key) => {
        const issue = state.issues.get(key);
        return issue !== undefined && matches(issue);
      };
    }
    default: {
      const sets = exactUnion(state, condition);
      return sets === null ? null : inAny(sets);
    }
  }
}

function valueSets(state: TrackerState, condition: Extract<Condition, { kind: 'one-of' }>): Union {
  return [...condition.values].map((value) => issuesWithValue(state, condition.field, value));
}

function wordSets(state: TrackerState, word: string): Union {
  return [issuesContaining(state, word)];
}

/** The spans of the time index a date condition covers (see resolve.ts: [from, until) is the date). */
function timeRanges(state: TrackerState, condition: Extract<Condition, { kind: 'date' }>): Union {
  const { field, from, until } = condition;
  const span = (after: string | null, before: string | null) => new TimeSpan(state, field, after, before);
  switch (condition.op) {
    case '=':
      return [span(from, until)];
    case '!=':
      return [span(null, from), span(until, null)];
    case '<':
      return [span(null, from)];
    case '<=':
      return [span(null, until)];
    case '>':
      return [span(until, null)];
    case '>=':
      return [span(from, null)];
  }
}

/** The issues whose timestamp is at or after `after` and before `before` (null: no bound), as a span of the time index. */
class TimeSpan implements KeySet {
  private readonly index: TimeIndex;
  private readonly start: number;
  private readonly stop: number;
  private counted: number | null = null;

  constructor(
    private readonly state: TrackerState,
    private readonly field: DateField,
    private readonly after: string | null,
    private readonly before: string | null,
  ) {
    this.index = timeIndex(state, field);
    this.start = after === null ? 0 : firstAtOrAfter(this.index, after);
    this.stop = before === null ? this.index.keys.length : firstAtOrAfter(this.index, before);
  }

  get size(): number {
    if (this.counted !== null) return this.counted;
    let count = 0;
    for (let at = this.start; at < this.stop; at++) if (this.index.live[at] === true) count += 1;
    return (this.counted = count);
  }

  has(key: string): boolean {
    const issue = this.state.issues.get(key);
    if (issue === undefined) return false;
    const time = timeOf(issue, this.field);
    return (this.after === null || time >= this.after) && (this.before === null || time < this.before);
  }

  *[Symbol.iterator](): Iterator<string> {
    for (let at = this.start; at < this.stop; at++) if (this.index.live[at] === true) yield this.index.keys[at] as string;
  }
}
