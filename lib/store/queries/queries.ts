// Reading issues: one, a page of all, or a filtered and paginated search.
//
// Order is always stable: by project key, then issue number. A search walks the issues
// in that order; words go to the word index first (word-index.ts), so the walk visits
// only the issues holding them. The lower-cased text of an issue and of each comment, for
// the words the index cannot answer, is computed on its first search, so opening the
// store pays nothing for it.
//
// The scan runs in slices of bounded work (searchInSlices). A caller that can
// wait (the search_issues tool) lets other requests run between slices, so
// many large searches at once never hold up a ping for long; a caller that
// must answer at once (a resource read) runs the slices back to back.
//
// A search pages by offset (a listing: resources/list) or by keyset cursor (search_issues:
// search-cursor.ts): a page after a cursor holds the matches past the cursor's position in
// the search's order, and ends with the cursor of the next page when more match. What a
// search asks, its page and its filters, is read from its arguments in search-request.ts.
import { parseIssueKey, parseProjectKey } from '../model/args.js';
import { requireIssue, requireProject } from '../state/lookup.js';
import { readyKeys } from '../domain/ready.js';
import { READY_ORDER, afterPosition, encodeCursor, positionValues } from './search-cursor.js';
import type { Issue } from '../model/schema.js';
import { compileCondition } from './jql/evaluate.js';
import type { SortKey } from './jql/ast.js';
import { allOf, type Condition, type ResolveContext } from './jql/conditions.js';
import { queryLanguage } from './jql-loader.js';
import { compareBy } from './jql/order.js';
import { exactAnswer, runQuery } from './jql/run.js';
import type { KeySet } from '../indexes/key-set.js';
import { inKeyOrder } from '../indexes/key-order.js';
import { commentCount, sortedProjectKeys, type TrackerState } from '../state/state.js';
import { lowerCased, matchWords, searchWords, type WordMatch } from '../indexes/word-index.js';
import {
  filterConditions,
  pageRequest,
  projectCondition,
  textCondition,
  type ListIssuesQuery,
  type Page,
  type SearchIssuesQuery,
  type SearchPage,
} from './search-request.js';

/** Without a context, a query runs as of now, for nobody in particular (currentUser() says it is not known). */
const nowForNobody = (): ResolveContext => ({ now: new Date(), user: null });

export function getIssue(state: TrackerState, key: unknown): Issue {
  return requireIssue(state, parseIssueKey(key));
}

export function listIssues(state: TrackerState, query: ListIssuesQuery = {}): Page<Issue> {
  return searchIssues(state, { project: query.project, offset: query.offset, limit: query.limit });
}

/** The whole search at once: every slice of the scan back to back. */
export function searchIssues(
  state: TrackerState,
  query: SearchIssuesQuery,
  context: ResolveContext = nowForNobody(),
): Page<Issue> {
  const scan = searchInSlices(state, query, context);
  for (;;) {
    const step = scan.next();
    if (step.done === true) return step.value;
  }
}

/**
 * The same search, pausing (a turn of the event loop by default) after each slice. A record
 * applied during a pause is seen by the rest of the scan: each issue is tested as it is when
 * the scan reaches it.
 *
 * A search the first slice finishes (most do: whatever the indexes answer exactly takes no
 * scan) is answered at once, as a page, not a promise: nothing was waited for, so the caller
 * need not wait either. Only a search that pauses gives a promise, and a wrong argument is
 * thrown at once, before anything is searched.
 */
export function searchIssuesYielding(
  state: TrackerState,
  query: SearchIssuesQuery,
  context: ResolveContext = nowForNobody(),
  pause: () => Promise<void> = nextTurn,
): Page<Issue> | Promise<Page<Issue>> {
  const scan = searchInSlices(state, query, context);
  const first = scan.next();
  return first.done === true ? first.value : restOfScan(scan, pause);
}

/** The slices after the first, each after a pause. */
async function restOfScan(scan: Generator<void, Page<Issue>, void>, pause: () => Promise<void>): Promise<Page<Issue>> {
  for (;;) {
    await pause();
    const step = scan.next();
    if (step.done === true) return step.value;
  }
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Work in one slice of a scan, in characters searched, an issue looked at counting as
 * ISSUE_WORK: small enough that a slice, even of the slowest text (a short word that almost
 * matches everywhere, such as 'aab' in 'aaaa…'), keeps other requests waiting only briefly.
 */
export const SLICE_WORK = 64 * 1024;
const ISSUE_WORK = 64;

/** Counts the work of the current slice; `spend` says when the slice is over. */
class Slice {
  private used = 0;
  /** Counts work that cannot pause in the middle; the next `spend` ends the slice if it is over. */
  add(work: number): void {
    this.used += work;
  }
  spend(work: number): boolean {
    this.used += work;
    if (this.used < SLICE_WORK) return false;
    this.used = 0;
    return true;
  }
}

/** Parses every argument before the first slice, then yields after each slice; returns the page. */
export function* searchInSlices(
  state: TrackerState,
  query: SearchIssuesQuery,
  context: ResolveContext = nowForNobody(),
): Generator<void, Page<Issue>, void> {
  const page = pageRequest(query);
  const keyLists = query.ready === true ? [readyKeys(state, query.project)] : issueKeyLists(state, query.project);
  const filters = filterConditions(state, query);
  const words = searchWords(query.text);
  // The filters and words as conditions, for a query to AND with or the indexes to answer alone.
  const conditions = [...projectCondition(state, query.project), ...filters, ...(words.length > 0 ? [textCondition(words)] : [])];
  if (query.query !== undefined) {
    if (query.ready === true) return readyByQuery(state, keyLists[0] as string[], query.query, context, page, conditions);
    const answer = runQuery(state, query.query, context, page, conditions);
    return pageOf([...answer.items], answer.total, answer.more, page, answer.orderBy);
  }
  const orderBy = query.ready === true ? READY_ORDER : [];
  const after = page.after === undefined ? null : afterPosition(orderBy, page.after);
  if (filters.length === 0 && words.length === 0) return pageOfAll(state, keyLists, page, orderBy, after);
  if (query.ready !== true) {
    // What the indexes answer exactly needs no scan: the same bitmaps a query's conditions use.
    const answer = exactAnswer(state, conditions, page);
    if (answer !== null) return pageOf([...answer.items], answer.total, answer.more, page, answer.orderBy);
  }
  const fieldsMatch = filters.length === 0 ? null : compileCondition(state, { kind: 'and', operands: filters });
  // The index answers for most words at once; the scan looks in the text only for the rest.
  const match: WordMatch = words.length > 0 ? matchWords(state, words) : { keys: null, unindexed: [] };
  const unindexed = match.unindexed;
  const slice = new Slice();
  const items: Issue[] = [];
  let total = 0;
  let passed = 0;
  let more = false;
  // The ready list is in its own order (urgency), not the key order inKeyOrder walks.
  const scanned = query.ready === true ? inListOrder(keyLists[0] as string[], match.keys) : inKeyOrder(keyLists, match.keys);
  for (const key of scanned) {
    if (slice.spend(ISSUE_WORK)) yield;
    const issue = state.issues.get(key);
    if (issue === undefined || (fieldsMatch !== null && !fieldsMatch(issue))) continue;
    if (unindexed.length > 0 && !inTitleOrDescription(state, issue, unindexed, slice)) {
      if (commentCount(state, key) === 0 || !(yield* inAnyText(state, issue, unindexed, slice))) continue;
    }
    total += 1;
    if (after !== null && !after(issue)) continue;
    passed += 1;
    if (passed <= page.offset) continue;
    if (items.length < page.limit) items.push(issue);
    else more = true;
  }
  return pageOf(items, total, more, page, orderBy);
}

/** The keys of `keys`, in its order, that are in `candidates` (every key when null). */
function* inListOrder(keys: readonly string[], candidates: KeySet | null): Generator<string, void, void> {
  for (const key of keys) if (candidates === null || candidates.has(key)) yield key;
}

/**
 * The ready view narrowed by a query: the ready issues (those of active sprints, few) tested
 * one by one, in the query's order, or most urgent first when it has none.
 */
function readyByQuery(
  state: TrackerState,
  ready: readonly string[],
  text: string,
  context: ResolveContext,
  page: SearchPage,
  extra: readonly Condition[],
): Page<Issue> {
  const { parseQuery, resolve } = queryLanguage();
  const parsed = parseQuery(text);
  const where = allOf([...(parsed.where === null ? [] : [resolve(state, parsed.where, context)]), ...extra]);
  const matches = where === null ? () => true : compileCondition(state, where);
  const orderBy = parsed.orderBy.length > 0 ? parsed.orderBy : READY_ORDER;
  const found = ready.map((key) => state.issues.get(key) as Issue).filter((issue) => matches(issue));
  const after = page.after === undefined ? null : afterPosition(orderBy, page.after);
  const ordered = found.filter((issue) => after === null || after(issue)).sort(compareBy(orderBy));
  const end = page.offset + page.limit;
  return pageOf(ordered.slice(page.offset, end), found.length, ordered.length > end, page, orderBy);
}

/** The issue key lists to scan, in stable order: all projects, or one. */
function issueKeyLists(state: TrackerState, project: unknown): ReadonlyArray<readonly string[]> {
  const projects = project === undefined ? sortedProjectKeys(state) : [requireProject(state, parseProjectKey(project)).key];
  return projects.map((key) => state.issueKeysByProject.get(key) ?? []);
}

/**
 * No filters: the page is cut from the key lists, no scan needed. Each list is in the order
 * (a project's keys by number, or the ready view's list), so the cursor's place in it is
 * found by halving.
 */
function pageOfAll(
  state: TrackerState,
  keyLists: ReadonlyArray<readonly string[]>,
  page: SearchPage,
  orderBy: readonly SortKey[],
  after: ((issue: Issue) => boolean) | null,
): Page<Issue> {
  const items: Issue[] = [];
  let skip = page.offset;
  let total = 0;
  let more = false;
  for (const keys of keyLists) {
    total += keys.length;
    const start = (after === null ? 0 : firstAfter(state, keys, after)) + skip;
    skip = Math.max(0, start - keys.length);
    for (let i = start; i < keys.length && !more; i++) {
      const issue = state.issues.get(keys[i] as string);
      if (issue === undefined) continue;
      if (items.length < page.limit) items.push(issue);
      else more = true;
    }
  }
  return pageOf(items, total, more, page, orderBy);
}

/** The index of the first key whose issue is after the cursor, in a list in the order. */
function firstAfter(state: TrackerState, keys: readonly string[], after: (issue: Issue) => boolean): number {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (after(state.issues.get(keys[middle] as string) as Issue)) high = middle;
    else low = middle + 1;
  }
  return low;
}

function pageOf(items: Issue[], total: number, more: boolean, page: SearchPage, orderBy: readonly SortKey[]): Page<Issue> {
  const last = items[items.length - 1];
  const next_cursor = more && last !== undefined ? encodeCursor(page.identity, positionValues(orderBy, last)) : null;
  const end = page.offset + items.length;
  const next_offset = page.after === undefined && more ? end : null;
  return { items, total, offset: page.offset, limit: page.limit, next_offset, next_cursor };
}

/** Whether every word occurs in the issue's title or description: one look, no comments. */
function inTitleOrDescription(state: TrackerState, issue: Issue, words: readonly string[], slice: Slice): boolean {
  const text = lowerCased(state, issue, () => `${issue.title}\n${issue.description}`);
  slice.add(text.length * words.length);
  for (const word of words) if (!text.includes(word)) return false;
  return true;
}

/**
 * Whether every word occurs in the title, description or comments. Each text is searched on
 * its own (a word has no spaces, so it cannot span two), which lets the scan pause between
 * the comments of a long discussion.
 */
function* inAnyText(state: TrackerState, issue: Issue, words: readonly string[], slice: Slice): Generator<void, boolean, void> {
  const head = lowerCased(state, issue, () => `${issue.title}\n${issue.description}`);
  for (const word of words) {
    if (head.includes(word)) continue;
    let found = false;
    for (const comment of issue.comments) {
      const text = lowerCased(state, comment, () => comment.body);
      if (slice.spend(text.length)) yield;
      if (text.includes(word)) {
        found = true;
        break;
      }
    }
    if (!found) return false;
  }
  return true;
}
