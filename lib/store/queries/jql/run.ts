// A query from text to the page of issues it asks for: parse, resolve against the store,
// plan from the indexes, evaluate the candidates, order, cut the page. When the indexes alone
// answer the condition (exact.ts), or there is none, the page is cut from their keys without
// the evaluator, and an order is walked from an index where one fits (walk-order.ts).
// A page after a cursor (search-cursor.ts) is the first matches past the cursor's position in
// the order; the total still counts every match.
import type { PageRequest } from '../../model/args.js';
import type { SortKey } from './ast.js';
import type { Issue } from '../../model/schema.js';
import { sortedProjectKeys, type TrackerState } from '../../state/state.js';
import { inKeyOrder } from '../../indexes/key-order.js';
import { allBits, countBits, type Bits } from '../../indexes/id-set.js';
import { compileCondition } from './evaluate.js';
import { exactMatches } from './exact.js';
import { compareBy, firstInOrder } from './order.js';
import { firstMatchesInOrder } from './walk-order.js';
import { afterPosition, type SortValue } from '../search-cursor.js';
import { gather, plan } from './plan.js';
import { allOf, type Condition, type ResolveContext } from './conditions.js';
import { queryLanguage } from '../jql-loader.js';

/** Candidates per issue under which gathering them beats looking at every issue. */
const GATHER_BELOW_SHARE = 1 / 4;

/** A page by offset, or after a cursor's position (then the offset counts from it). */
export interface QueryPage extends PageRequest {
  readonly after?: readonly SortValue[];
}

export interface QueryAnswer {
  /** The issues of the page, in order. */
  readonly items: readonly Issue[];
  /** How many issues match in all. */
  readonly total: number;
  /** Whether more matches come after the page. */
  readonly more: boolean;
  /** The query's ORDER BY (the key follows it), for the cursor of the next page. */
  readonly orderBy: readonly SortKey[];
}

/** Where a page is cut: `wanted` issues in order (one past the page, to know if more come), of those after the cursor. */
interface Cut {
  readonly page: PageRequest;
  readonly wanted: number;
  readonly after: ((issue: Issue) => boolean) | null;
}

const answerOf = (first: readonly Issue[], total: number, cut: Cut, orderBy: readonly SortKey[]): QueryAnswer => ({
  items: first.slice(cut.page.offset, cut.page.offset + cut.page.limit),
  total,
  more: first.length > cut.page.offset + cut.page.limit,
  orderBy,
});

/** Runs `text`, with `filters` (conditions given beside it) ANDed to it. */
export function runQuery(
  state: TrackerState,
  text: unknown,
  context: ResolveContext,
  page: QueryPage,
  filters: readonly Condition[] = [],
): QueryAnswer {
  const { parseQuery, resolve } = queryLanguage();
  const query = parseQuery(text);
  const conditions = query.where === null ? [...filters] : [resolve(state, query.where, context), ...filters];
  const where = allOf(conditions);
  const keyLists = sortedProjectKeys(state).map((project) => state.issueKeysByProject.get(project) ?? []);
  const cut = cutOf(page, query.orderBy);
  const after = cut.after;
  if (where === null) return exactPage(state, allBits(state.issues.size), query.orderBy, cut);
  const exact = exactMatches(state, where);
  if (exact !== null) return exactPage(state, exact, query.orderBy, cut);
  const matches = compileCondition(state, where);
  const candidates = gather(plan(state, where), state.issues.size, GATHER_BELOW_SHARE);
  const found: Issue[] = [];
  let total = 0;
  const ordered = query.orderBy.length > 0;
  for (const key of inKeyOrder(keyLists, candidates)) {
    const issue = state.issues.get(key);
    if (issue === undefined || !matches(issue)) continue;
    total += 1;
    if (after !== null && !after(issue)) continue;
    // In key order the first `wanted` matches are the page's; in another order any may be.
    if (ordered || found.length < cut.wanted) found.push(issue);
  }
  const first = ordered ? firstInOrder(found, compareBy(query.orderBy), cut.wanted) : found;
  return answerOf(first, total, cut, query.orderBy);
}

/**
 * The page of `conditions` in key order when the indexes answer them exactly (search_issues'
 * filters and words without a query, the same conditions a query would resolve to); null when
 * they cannot, and the caller scans.
 */
export function exactAnswer(state: TrackerState, conditions: readonly Condition[], page: QueryPage): QueryAnswer | null {
  const where = allOf(conditions);
  const exact = where === null ? null : exactMatches(state, where);
  return exact === null ? null : exactPage(state, exact, [], cutOf(page, []));
}

/** What a page keeps: the matches up to one past its end, after the cursor's position in `orderBy` if it has one. */
function cutOf(page: QueryPage, orderBy: readonly SortKey[]): Cut {
  const after = page.after === undefined ? null : afterPosition(orderBy, page.after);
  return { page, wanted: page.offset + page.limit + 1, after };
}

/**
 * The page when the indexes gave exactly the matching issues: their count is the total, and
 * only the issues the page needs are read (walk-order.ts).
 */
function exactPage(state: TrackerState, matches: Bits, orderBy: readonly SortKey[], cut: Cut): QueryAnswer {
  const total = countBits(matches);
  // After a cursor, the issues the walk meets are also asked whether they come after it.
  const first = firstMatchesInOrder(state, matches, total, orderBy, cut.wanted, cut.after);
  return answerOf(first, total, cut, orderBy);
}

/** The query in the printer's spelling: the one URI of every way of writing it (jira://search?jql=...). */
export function canonicalQuery(text: string): string {
  const { parseQuery, printQuery } = queryLanguage();
  return printQuery(parseQuery(text));
}
