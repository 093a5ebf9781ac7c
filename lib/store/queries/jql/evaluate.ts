// The evaluator: a condition tree made, once per query, into one function that says whether
// an issue matches. The planner narrows which issues are asked; this function has the last
// word on each, so an index can only make a query faster, never change its answer.
import { fieldValues } from '../../indexes/field-index.js';
import type { Issue } from '../../model/schema.js';
import type { TrackerState } from '../../state/state.js';
import { lowerCased, textContainsAll } from '../../indexes/word-index.js';
import { wordMatchOf } from './plan.js';
import type { Condition, TextField } from './conditions.js';

export type IssuePredicate = (issue: Issue) => boolean;

export function compileCondition(state: TrackerState, condition: Condition): IssuePredicate {
  switch (condition.kind) {
    case 'and': {
      const operands = condition.operands.map((c) => compileCondition(state, c));
      return (issue) => operands.every((test) => test(issue));
    }
    case 'or': {
      const operands = condition.operands.map((c) => compileCondition(state, c));
      return (issue) => operands.some((test) => test(issue));
    }
    case 'not': {
      const operand = compileCondition(state, condition.operand);
      return (issue) => !operand(issue);
    }
    case 'one-of': {
      const { field, values, negated } = condition;
      return (issue) => fieldValues(issue, field).some((value) => values.has(value)) !== negated;
    }
    case 'date': {
      const { field, op, from, until } = condition;
      const at = field === 'created' ? (issue: Issue) => issue.created_at : (issue: Issue) => issue.updated_at;
      // Timestamps are ISO strings of one length, so they compare as strings compare.
      switch (op) {
        case '=':
          return (issue) => at(issue) >= from && at(issue) < until;
        case '!=':
          return (issue) => at(issue) < from || at(issue) >= until;
        case '<':
          return (issue) => at(issue) < from;
        case '<=':
          return (issue) => at(issue) < until;
        case '>':
          return (issue) => at(issue) >= until;
        case '>=':
          return (issue) => at(issue) >= from;
      }
      break;
    }
    case 'text': {
      // The word index answers for most words at once; the rest are looked for in the text.
      const { keys, unindexed } = wordMatchOf(state, condition);
      const { field, words } = condition;
      // The index holds the words of the whole text: for one part of it, its issues are candidates to look at.
      if (field !== undefined)
        return (issue) => (keys === null || keys.has(issue.key)) && partContainsAll(state, issue, field, words);
      return (issue) =>
        (keys === null || keys.has(issue.key)) && (unindexed.length === 0 || textContainsAll(state, issue, unindexed));
    }
    case 'keys': {
      const keys = condition.keys;
      return (issue) => keys.has(issue.key);
    }
  }
}

/** Whether every word occurs in the title, the description, or the comments (each word in one of them). */
function partContainsAll(state: TrackerState, issue: Issue, field: TextField, words: readonly string[]): boolean {
  if (field === 'comment') {
    return words.every((word) => issue.comments.some((comment) => lowerCased(state, comment, () => comment.body).includes(word)));
  }
  const text = (field === 'summary' ? issue.title : issue.description).toLowerCase();
  return words.every((word) => text.includes(word));
}
