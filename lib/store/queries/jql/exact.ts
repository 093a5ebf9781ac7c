// Exact answers from the indexes: when the indexes alone can say which issues match, the
// matching issues are a bitmap of ids (id-set.ts) made from the indexes' sets, and no issue
// is read to find or count them.
//
//   field = v, field IN (...)    the OR of the values' sets
//   created >= -7d, dates        the ids of a range of the time index (time-index.ts)
//   text ~ "words"               for each word, the OR of the sets of the indexed words
//                                containing it (word-index.ts); several words are an AND of those
//   key IN (...), parent, links  the ids of the keys the resolver found (jql/issue-sets.ts)
//   A AND B, A OR B              AND, OR of the operands' bitmaps
//   NOT A, !=, NOT IN            the complement (every issue not in it)
//   words the index cannot say,  not exact: run.ts leaves the query to the planner and the evaluator
//   summary ~, description ~     (the word index holds the words of the whole text, not of each part)
//
// Each step is one pass over the bitmap's words (n/32 of them), so the cost does not depend on
// how many issues the sets hold.
import { idsWithValue, timeIndex } from '../../indexes/field-index.js';
import { allBits, andBits, emptyBits, notBits, orBits, setBit, type Bits } from '../../indexes/id-set.js';
import type { TrackerState } from '../../state/state.js';
import { firstAtOrAfter } from '../../indexes/time-index.js';
import { isIndexable, issuesContaining } from '../../indexes/word-index.js';
import type { Condition } from './conditions.js';

/** The ids of exactly the issues matching `condition`, or null when the indexes cannot say. */
export function exactMatches(state: TrackerState, condition: Condition): Bits | null {
  if (!isExact(condition)) return null;
  return matchesOf(state, condition);
}

/** Whether every clause is one the indexes answer: only a text with a word they cannot answer for is not. */
function isExact(condition: Condition): boolean {
  switch (condition.kind) {
    case 'text':
      return condition.field === undefined && condition.words.every(isIndexable);
    case 'and':
    case 'or':
      return condition.operands.every(isExact);
    case 'not':
      return isExact(condition.operand);
    default:
      return true;
  }
}

function matchesOf(state: TrackerState, condition: Condition): Bits {
  const count = state.issues.size;
  switch (condition.kind) {
    case 'one-of': {
      const bits = emptyBits(count);
      for (const value of condition.values) idsWithValue(state, condition.field, value).orInto(bits);
      return condition.negated ? notBits(bits, count) : bits;
    }
    case 'date':
      return dateMatches(state, condition);
    case 'text':
      return condition.words.map((word) => issuesContaining(state, word)).reduce(andBits, allBits(count));
    case 'keys': {
      const bits = emptyBits(count);
      for (const key of condition.keys) setBit(bits, state.issues.idOf(key) as number);
      return bits;
    }
    case 'and':
      return condition.operands.map((operand) => matchesOf(state, operand)).reduce(andBits);
    case 'or':
      return condition.operands.map((operand) => matchesOf(state, operand)).reduce(orBits);
    case 'not':
      return notBits(matchesOf(state, condition.operand), count);
  }
}

/** The ids in the spans of the time index a date condition covers (see resolve.ts: [from, until) is the date). */
function dateMatches(state: TrackerState, condition: Extract<Condition, { kind: 'date' }>): Bits {
  const { from, until } = condition;
  const index = timeIndex(state, condition.field);
  const bits = emptyBits(state.issues.size);
  const span = (after: string | null, before: string | null): void => {
    const start = after === null ? 0 : firstAtOrAfter(index, after);
    const stop = before === null ? index.keys.length : firstAtOrAfter(index, before);
    for (let at = start; at < stop; at++) if (index.live[at] === true) setBit(bits, index.ids[at] as number);
  };
  switch (condition.op) {
    case '=':
      span(from, until);
      break;
    case '!=':
      span(null, from);
      span(until, null);
      break;
    case '<':
      span(null, from);
      break;
    case '<=':
      span(null, until);
      break;
    case '>':
      span(until, null);
      break;
    case '>=':
      span(from, null);
      break;
  }
  return bits;
}
