// ORDER BY: a comparison of two issues from the sort keys of a query, and the first n issues
// of a list in that order without sorting all of it.
//
// The order is total: after the keys given, issues compare by key (project, then number),
// so equal values never leave the order to chance and a page is the same on every read.
// Enumerations sort in their own order, not alphabetically: statuses in the default workflow's
// order, then the statuses of projects' own workflows by id (an order that needs no state, so
// PostgreSQL sorts the same way), priorities P0 first, types as listed. An empty value (no assignee, no sprint, no due date) sorts after every value, so before them in
// DESC.
import { ISSUE_TYPES, PRIORITIES, STATUSES, type Issue } from '../../model/schema.js';
import { compareStrings, issueNumber, sprintNumber } from '../../state/state.js';
import type { OrderField, SortKey } from './ast.js';

/** The fields an order compares: an issue, or a position between issues (a search cursor's, search-cursor.ts). */
export type SortFields = Pick<
  Issue,
  'key' | 'project' | 'status' | 'priority' | 'type' | 'assignee' | 'reporter' | 'sprint' | 'created_at' | 'updated_at' | 'fields'
>;

export type IssueComparison = (a: SortFields, b: SortFields) => number;

export function compareBy(keys: readonly SortKey[]): IssueComparison {
  const comparisons = keys.map((key) => {
    const compare = FIELD_ORDER[key.field];
    return key.direction === 'DESC' ? (a: SortFields, b: SortFields) => compare(b, a) : compare;
  });
  comparisons.push(byKey);
  return (a, b) => {
    for (const compare of comparisons) {
      const order = compare(a, b);
      if (order !== 0) return order;
    }
    return 0;
  };
}

/** Key order: the order of every listing and of a query without ORDER BY. */
export const byKey: IssueComparison = (a, b) => compareStrings(a.project, b.project) || issueNumber(a.key) - issueNumber(b.key);

const rank = (values: readonly string[]) => {
  const ranks = new Map(values.map((value, index) => [value, index]));
  return (value: string): number => ranks.get(value) ?? values.length;
};
const statusRank = rank(STATUSES);
const priorityRank = rank(PRIORITIES);
const typeRank = rank(ISSUE_TYPES);

/** Empty after every value. */
function compareOptional(a: string | null, b: string | null, compare: (a: string, b: string) => number): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return compare(a, b);
}

/** The due date (a day, YYYY-MM-DD: days compare as strings), null when the issue has none. */
export const dueOf = (issue: SortFields): string | null => {
  const due = issue.fields?.due;
  return typeof due === 'string' ? due : null;
};

const compareSprints = (a: string, b: string): number =>
  compareStrings(a.slice(0, a.lastIndexOf('-')), b.slice(0, b.lastIndexOf('-'))) || sprintNumber(a) - sprintNumber(b);

const FIELD_ORDER: Record<OrderField, IssueComparison> = {
  key: byKey,
  project: (a, b) => compareStrings(a.project, b.project),
  status: (a, b) => statusRank(a.status) - statusRank(b.status) || compareStrings(a.status, b.status),
  priority: (a, b) => priorityRank(a.priority) - priorityRank(b.priority),
  type: (a, b) => typeRank(a.type) - typeRank(b.type),
  assignee: (a, b) => compareOptional(a.assignee, b.assignee, compareStrings),
  reporter: (a, b) => compareStrings(a.reporter, b.reporter),
  sprint: (a, b) => compareOptional(a.sprint, b.sprint, compareSprints),
  created: (a, b) => compareStrings(a.created_at, b.created_at),
  updated: (a, b) => compareStrings(a.updated_at, b.updated_at),
  due: (a, b) => compareOptional(dueOf(a), dueOf(b), compareStrings),
};

/** Past this many, the first n are found by sorting everything instead. */
const FIRST_N_MAX = 1_000;

/**
 * The first `n` of `issues` in the order of `compare`, sorted: a sorted buffer of n that each
 * issue either skips (the usual case, one comparison) or enters by binary search.
 */
export function firstInOrder(issues: readonly Issue[], compare: IssueComparison, n: number): Issue[] {
  if (n > FIRST_N_MAX || n >= issues.length) return [...issues].sort(compare).slice(0, n);
  const first: Issue[] = [];
  for (const issue of issues) {
    if (first.length === n && compare(issue, first[n - 1] as Issue) >= 0) continue;
    let low = 0;
    let high = first.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (compare(issue, first[middle] as Issue) < 0) high = middle;
      else low = middle + 1;
    }
    first.splice(low, 0, issue);
    if (first.length > n) first.pop();
  }
  return first;
}
