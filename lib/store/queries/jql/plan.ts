// The planner: which issues a condition could match, answered from the indexes where one
// fits, so the evaluator looks at those instead of every issue.
//
//   field = v, field IN (...)    the index's sets for those values
//   text ~ "words"               the word index's set (for summary ~ and the like too: a superset)
//   key IN (...), parent, links  the keys the resolver found
//   A AND B                      the smaller side's candidates (the evaluator checks the rest)
//   A OR B                       both sides' candidates, when both sides have some
//   NOT, !=, NOT IN, dates       no index fits: every issue is a candidate
//
// Candidates are always a superset of the matches: a plan can only save work.
import { issuesWithValue } from '../../indexes/field-index.js';
import type { KeySet } from '../../indexes/key-set.js';
import type { TrackerState } from '../../state/state.js';
import { matchWords, type WordMatch } from '../../indexes/word-index.js';
import type { Condition } from './conditions.js';

/** Keys that may match, as a union of sets; null: any issue may. */
export type Candidates = readonly KeySet[] | null;

export function plan(state: TrackerState, condition: Condition): Candidates {
  switch (condition.kind) {
    case 'one-of':
      if (condition.negated) return null;
      return [...condition.values].map((value) => issuesWithValue(state, condition.field, value));
    case 'text':
      return wordMatchOf(state, condition).keys === null ? null : [wordMatchOf(state, condition).keys as KeySet];
    case 'keys':
      return [condition.keys];
    case 'and': {
      let best: Candidates = null;
      for (const operand of condition.operands) {
        const candidates = plan(state, operand);
        if (candidates !== null && (best === null || sizeOf(candidates) < sizeOf(best))) best = candidates;
      }
      return best;
    }
    case 'or': {
      const all: KeySet[] = [];
      for (const operand of condition.operands) {
        const candidates = plan(state, operand);
        if (candidates === null) return null;
        all.push(...candidates);
      }
      return all;
    }
    case 'not':
    case 'date':
      return null;
  }
}

/** At most this many keys: a key in two of the sets is counted twice. */
export function sizeOf(candidates: readonly KeySet[]): number {
  return candidates.reduce((sum, set) => sum + set.size, 0);
}

/** The candidates as one set, or null when they are too many to be worth gathering: then every issue is looked at. */
export function gather(candidates: Candidates, issueCount: number, worthBelow: number): KeySet | null {
  if (candidates === null || sizeOf(candidates) >= issueCount * worthBelow) return null;
  if (candidates.length === 1) return candidates[0] as KeySet;
  const keys = new Set<string>();
  for (const set of candidates) for (const key of set) keys.add(key);
  return keys;
}

const wordMatches = new WeakMap<Condition, WordMatch>();

/** The word index's answer for a text condition, asked once per query: the planner and the evaluator share it. */
export function wordMatchOf(state: TrackerState, condition: Extract<Condition, { kind: 'text' }>): WordMatch {
  let match = wordMatches.get(condition);
  if (match === undefined) wordMatches.set(condition, (match = matchWords(state, condition.words)));
  return match;
}
