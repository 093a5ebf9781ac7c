// What a query means once resolved: a tree of conditions on an issue's fields, what the
// planner, the evaluator and the indexes work on (plan.ts, evaluate.ts, exact.ts), and
// PostgreSQL's search too (postgres/sql-search.ts). The resolver (resolve.ts) makes it from a
// query's text; search_issues' filters are made into the same conditions (search-request.ts).
// This file is shared by both sides of the query language's seam (language.ts): the server
// keeps it, the companion that parses and resolves has its own copy.
import type { FieldValue, IndexedField } from '../../indexes/index-fields.js';
import type { CompareOperator } from './ast.js';

export type DateField = 'created' | 'updated';
/** Where a text search looks: one part of the text; absent, all of it (title, description and comments). */
export type TextField = 'summary' | 'description' | 'comment';

export type Condition =
  /** The field holds one of `values` (labels: any of its labels does; null: the field is empty); or none of them, negated. */
  | { readonly kind: 'one-of'; readonly field: IndexedField; readonly values: ReadonlySet<FieldValue>; readonly negated: boolean }
  /** The timestamp compared with the span [from, until): a day, or one instant (a span of 1 ms). */
  | { readonly kind: 'date'; readonly field: DateField; readonly op: DateOperator; readonly from: string; readonly until: string }
  /** Every word occurs in the text, or in the part `field` names. */
  | { readonly kind: 'text'; readonly words: readonly string[]; readonly field?: TextField }
  /** The issue is one of these (issue-sets.ts: keys, parents, resolutions, links). */
  | { readonly kind: 'keys'; readonly keys: ReadonlySet<string> }
  | { readonly kind: 'and' | 'or'; readonly operands: readonly Condition[] }
  | { readonly kind: 'not'; readonly operand: Condition };

/** Every one of `conditions` holds: null for none (everything matches), the condition itself for one. */
export function allOf(conditions: readonly Condition[]): Condition | null {
  if (conditions.length === 0) return null;
  return conditions.length === 1 ? (conditions[0] as Condition) : { kind: 'and', operands: conditions };
}

export type DateOperator = Exclude<CompareOperator, '~' | '!~'>;

export interface ResolveContext {
  readonly now: Date;
  /** Who currentUser() is: --user or MCP_TRACKER_USER; null when neither was given. */
  readonly user: string | null;
}
