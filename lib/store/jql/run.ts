// A query from text to the page of issues it asks for: parse, resolve against the store,
// plan from the indexes, evaluate the candidates, order, cut the page.
import type { PageRequest } from '../args.js';
import type { Issue } from '../schema.js';
import { sortedProjectKeys, type TrackerState } from '../state.js';
import { inKeyOrder } from '../key-order.js';
import { compileCondition } from './evaluate.js';
import { compareBy, firstInOrder } from './order.js';
import { parseQuery } from './parser.js';
import { printQuery } from './printer.js';
import { gather, plan } from './plan.js';
import { resolve, type Condition, type ResolveContext } from './resolve.js';

/** Candidates per issue under which gathering them beats looking at every issue. */
const GATHER_BELOW_SHARE = 1 / 4;

export interface QueryAnswer {
  /** The issues of the page, in order. */
  readonly items: readonly Issue[];
  /** How many issues match in all. */
  readonly total: number;
}

/** Runs `text`, with `filters` (conditions given beside it) ANDed to it. */
export function runQuery(
  state: TrackerState,
  text: unknown,
  context: ResolveContext,
  page: PageRequest,
  filters: readonly Condition[] = [],
): QueryAnswer {
  const query = parseQuery(text);
  const conditions = query.where === null ? [...filters] : [resolve(state, query.where, context), ...filters];
  const where: Condition | null =
    conditions.length === 0
      ? null
      : conditions.length === 1
        ? (conditions[0] as Condition)
        : { kind: 'and', operands: conditions };
  const matches = where === null ? () => true : compileCondition(state, where);
  const candidates = where === null ? null : gather(plan(state, where), state.issues.size, GATHER_BELOW_SHARE);
  const keyLists = sortedProjectKeys(state).map((project) => state.issueKeysByProject.get(project) ?? []);
  const wanted = page.offset + page.limit;
  const found: Issue[] = [];
  let total = 0;
  const ordered = query.orderBy.length > 0;
  for (const key of inKeyOrder(keyLists, candidates)) {
    const issue = state.issues.get(key);
    if (issue === undefined || !matches(issue)) continue;
    total += 1;
    // In key order the first `wanted` matches are the page's; in another order any may be.
    if (ordered || found.length < wanted) found.push(issue);
  }
  const first = ordered ? firstInOrder(found, compareBy(query.orderBy), wanted) : found;
  return { items: first.slice(page.offset, wanted), total };
}

/** The query in the printer's spelling: the one URI of every way of writing it (jira://search?jql=...). */
export function canonicalQuery(text: string): string {
  return printQuery(parseQuery(text));
}
