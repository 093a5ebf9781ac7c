// The evaluator: a condition tree made, once per query, into one function that says whether
// an issue matches. The planner narrows which issues are asked; this function has the last
// word on each, so an index can only make a query faster, never change its answer.
import { fieldValues } from '../../indexes/field-index.js';
import type { Issue } from '../../model/schema.js';
import type { TrackerState } from '../../state/state.js';
import { textContainsAll } from '../../indexes/word-index.js';
import { wordMatchOf } from './plan.js';
import type { Condition } from './resolve.js';

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
      return (issue) =>
        (keys === null || keys.has(issue.key)) && (unindexed.length === 0 || textContainsAll(state, issue, unindexed));
    }
  }
}
