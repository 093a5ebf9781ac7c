// Reading issues: one, a page of all, or a filtered and paginated search.
//
// Order is always stable: by project key, then issue number. A search is a
// linear scan; the lower-cased text
// of an issue and of each comment is computed on its first search, so opening
// the store pays nothing for it.
//
// The scan runs in slices of bounded work (searchInSlices). A caller that can
// wait (the search_issues tool) lets other requests run between slices, so
// many large searches at once never hold up a ping for long; a caller that
// must answer at once (a resource read) runs the slices back to back.
import {
  parseHandle,
  parseIssueKey,
  parseOneOrMany,
  parsePage,
  parsePriority,
  parseProjectKey,
  parseSprintId,
  quote,
  type PageRequest,
} from './args.js';
import { domainError } from './errors.js';
import { requireIssue, requireProject } from './lookup.js';
import { LABEL_PATTERN, LIMITS, type Issue } from './schema.js';
import { commentCount, sortedProjectKeys, type TrackerState } from './state.js';
import { parseStatus } from './workflow.js';

export interface Page<T> {
  readonly items: readonly T[];
  /** How many match in all, not only on this page. */
  readonly total: number;
  readonly offset: number;
  readonly limit: number;
  /** Offset of the next page, or null on the last page. */
  readonly next_offset: number | null;
}

export interface ListIssuesQuery {
  readonly project?: string;
  readonly offset?: number;
  readonly limit?: number;
}

export interface SearchIssuesQuery extends ListIssuesQuery {
  /** One status or a list (any of them). */
  readonly status?: string | readonly string[];
  /** One priority or a list (any of them). */
  readonly priority?: string | readonly string[];
  /** A handle; null for unassigned issues. */
  readonly assignee?: string | null;
  /** A sprint id; null for the backlog (issues in no sprint). */
  readonly sprint?: string | null;
  /** Issues carrying this label. */
  readonly label?: string;
  /** Words that must all occur (case-insensitive) in the title, description or comments. */
  readonly text?: string;
}

export function getIssue(state: TrackerState, key: unknown): Issue {
  return requireIssue(state, parseIssueKey(key));
}

export function listIssues(state: TrackerState, query: ListIssuesQuery = {}): Page<Issue> {
  return searchIssues(state, { project: query.project, offset: query.offset, limit: query.limit });
}

/** The whole search at once: every slice of the scan back to back. */
export function searchIssues(state: TrackerState, query: SearchIssuesQuery): Page<Issue> {
  const scan = searchInSlices(state, query);
  for (;;) {
    const step = scan.next();
    if (step.done === true) return step.value;
  }
}

/**
 * The same search, pausing (a turn of the event loop by default) after each slice. A record
 * applied during a pause is seen by the rest of the scan: each issue is tested as it is when
 * the scan reaches it.
 */
export async function searchIssuesYielding(
  state: TrackerState,
  query: SearchIssuesQuery,
  pause: () => Promise<void> = nextTurn,
): Promise<Page<Issue>> {
  const scan = searchInSlices(state, query);
  for (;;) {
    const step = scan.next();
    if (step.done === true) return step.value;
    await pause();
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
export function* searchInSlices(state: TrackerState, query: SearchIssuesQuery): Generator<void, Page<Issue>, void> {
  const page = parsePage(query.offset, query.limit);
  const keyLists = issueKeyLists(state, query.project);
  const fieldsMatch = fieldFilter(query);
  const words = parseWords(query.text);
  if (fieldsMatch === null && words.length === 0) return pageOfAll(state, keyLists, page);
  const slice = new Slice();
  const items: Issue[] = [];
  let total = 0;
  for (const keys of keyLists) {
    for (const key of keys) {
      if (slice.spend(ISSUE_WORK)) yield;
      const issue = state.issues.get(key);
      if (issue === undefined || (fieldsMatch !== null && !fieldsMatch(issue))) continue;
      if (words.length > 0 && !inTitleOrDescription(state, issue, words, slice)) {
        if (commentCount(state, key) === 0 || !(yield* inAnyText(state, issue, words, slice))) continue;
      }
      if (total >= page.offset && items.length < page.limit) items.push(issue);
      total += 1;
    }
  }
  return pageOf(items, total, page);
}

/** The issue key lists to scan, in stable order: all projects, or one. */
function issueKeyLists(state: TrackerState, project: unknown): ReadonlyArray<readonly string[]> {
  const projects = project === undefined ? sortedProjectKeys(state) : [requireProject(state, parseProjectKey(project)).key];
  return projects.map((key) => state.issueKeysByProject.get(key) ?? []);
}

/** No filters: the page is a slice, no scan needed. */
function pageOfAll(state: TrackerState, keyLists: ReadonlyArray<readonly string[]>, page: PageRequest): Page<Issue> {
  const items: Issue[] = [];
  let skip = page.offset;
  let total = 0;
  for (const keys of keyLists) {
    total += keys.length;
    for (let i = skip; i < keys.length && items.length < page.limit; i++) {
      const issue = state.issues.get(keys[i] as string);
      if (issue !== undefined) items.push(issue);
    }
    skip = Math.max(0, skip - keys.length);
  }
  return pageOf(items, total, page);
}

function pageOf<T>(items: T[], total: number, page: PageRequest): Page<T> {
  const end = page.offset + items.length;
  return { items, total, offset: page.offset, limit: page.limit, next_offset: end < total ? end : null };
}

type IssuePredicate = (issue: Issue) => boolean;

/** Parses the filters on an issue's fields once, up front, and combines them; null when none are given. */
function fieldFilter(query: SearchIssuesQuery): IssuePredicate | null {
  const tests: IssuePredicate[] = [];
  if (query.status !== undefined) {
    const statuses = new Set(parseOneOrMany(query.status, parseStatus));
    tests.push((issue) => statuses.has(issue.status));
  }
  if (query.priority !== undefined) {
    const priorities = new Set(parseOneOrMany(query.priority, parsePriority));
    tests.push((issue) => priorities.has(issue.priority));
  }
  if (query.assignee !== undefined) {
    const assignee = query.assignee === null ? null : parseHandle(query.assignee, 'assignee');
    tests.push((issue) => issue.assignee === assignee);
  }
  if (query.sprint !== undefined) {
    const sprint = query.sprint === null ? null : parseSprintId(query.sprint);
    tests.push((issue) => issue.sprint === sprint);
  }
  if (query.label !== undefined) {
    const label = parseLabelFilter(query.label);
    tests.push((issue) => issue.labels.includes(label));
  }
  if (tests.length === 0) return null;
  return (issue) => {
    for (const test of tests) if (!test(issue)) return false;
    return true;
  };
}

function parseLabelFilter(value: unknown): string {
  const label = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (!LABEL_PATTERN.test(label)) {
    throw domainError('invalid_argument', `Invalid label ${quote(value)}. Labels are lower-case words such as backend.`);
  }
  return label;
}

/**
 * The distinct lower-cased words of `text`. Both limits are checked before the work they
 * bound: the length before the text is split, the count before any issue is searched.
 */
function parseWords(text: unknown): string[] {
  if (text === undefined || text === null) return [];
  if (typeof text !== 'string') throw domainError('invalid_argument', `text must be a string, got ${quote(text)}.`);
  if (text.length > LIMITS.searchTextMax) {
    throw domainError(
      'invalid_argument',
      `text is ${text.length} characters long; the limit is ${LIMITS.searchTextMax}. Search for a few distinctive words.`,
    );
  }
  const words = new Set(
    text
      .toLowerCase()
      .split(/\s+/)
      .filter((word) => word.length > 0),
  );
  if (words.size > LIMITS.searchWordsMax) {
    throw domainError(
      'invalid_argument',
      `text has ${words.size} different words; the limit is ${LIMITS.searchWordsMax}. Search for a few distinctive words.`,
    );
  }
  return [...words];
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

/** Lower-cased once per frozen issue snapshot or comment, then kept while it lives. */
function lowerCased(state: TrackerState, owner: object, text: () => string): string {
  let lower = state.searchText.get(owner);
  if (lower === undefined) {
    lower = text().toLowerCase();
    state.searchText.set(owner, lower);
  }
  return lower;
}
