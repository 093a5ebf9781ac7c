// A query from text to the page of issues it asks for: parse, resolve against the store,
// plan from the indexes, evaluate the candidates, order, cut the page. When the indexes alone
// answer the condition (exact.ts), or there is none, the page is cut from their keys without
// the evaluator, and an order is walked from an index where one fits (walk-order.ts).
import type { PageRequest } from '../args.js';
import type { SortKey } from './ast.js';
import type { Issue } from '../schema.js';
import { sortedProjectKeys, type TrackerState } from '../state.js';
import { inKeyOrder } from '../key-order.js';
import { allBits, countBits, type Bits } from '../id-set.js';
import { compileCondition } from './evaluate.js';
import { exactMatches } from './exact.js';
import { compareBy, firstInOrder } from './order.js';
import { parseQuery } from './parser.js';
import { firstMatchesInOrder } from './walk-order.js';
import { printQuery } from './printer.js';
import { gather, plan } from './plan.js';
import { allOf, resolve, type Condition, type ResolveContext } from './resolve.js';

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
  const where = allOf(conditions);
  const keyLists = sortedProjectKeys(state).map((project) => state.issueKeysByProject.get(project) ?? []);
  const wanted = page.offset + page.limit;
  if (where === null) return exactPage(state, allBits(state.issues.size), query.orderBy, page);
  const exact = exactMatches(state, where);
  if (exact !== null) return exactPage(state, exact, query.orderBy, page);
  const matches = compileCondition(state, where);
  const candidates = gather(plan(state, where), state.issues.size, GATHER_BELOW_SHARE);
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

/**
 * The page when the indexes gave exactly the matching issues: their count is the total, and
 * only the issues the page needs are read (walk-order.ts).
 */
function exactPage(state: TrackerState, matches: Bits, orderBy: readonly SortKey[], page: PageRequest): QueryAnswer {
  const total = countBits(matches);
  const items = firstMatchesInOrder(state, matches, total, orderBy, page.offset + page.limit);
  return { items: items.slice(page.offset), total };
}

/** The query in the printer's spelling: the one URI of every way of writing it (jira://search?jql=...). */
export function canonicalQuery(text: string): string {
  return printQuery(parseQuery(text));
}
