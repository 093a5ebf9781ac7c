// Reading issues: one, a page of all, or a filtered and paginated search.
//
// Order is always stable: by project key, then issue number. A search is a
// linear scan (100,000 issues scan in a few milliseconds); the lower-cased
// text of each issue is computed on its first search and dropped when the
// issue changes, so opening the store pays nothing for it.
import {
  parseHandle,
  parseIssueKey,
  parseOneOrMany,
  parsePage,
  parsePriority,
  parseProjectKey,
  parseSprintId,
  parseStatus,
  quote,
  type PageRequest,
} from './args.js';
import { domainError } from './errors.js';
import { requireIssue, requireProject } from './lookup.js';
import { LABEL_PATTERN, type Issue } from './schema.js';
import { sortedProjectKeys, type TrackerState } from './state.js';

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

export function searchIssues(state: TrackerState, query: SearchIssuesQuery): Page<Issue> {
  const page = parsePage(query.offset, query.limit);
  const keyLists = issueKeyLists(state, query.project);
  const matches = issueFilter(state, query);
  return matches === null ? pageOfAll(state, keyLists, page) : pageOfMatches(state, keyLists, matches, page);
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

function pageOfMatches(
  state: TrackerState,
  keyLists: ReadonlyArray<readonly string[]>,
  matches: IssuePredicate,
  page: PageRequest,
): Page<Issue> {
  const items: Issue[] = [];
  let total = 0;
  for (const keys of keyLists) {
    for (const key of keys) {
      const issue = state.issues.get(key);
      if (issue === undefined || !matches(issue)) continue;
      if (total >= page.offset && items.length < page.limit) items.push(issue);
      total += 1;
    }
  }
  return pageOf(items, total, page);
}

function pageOf<T>(items: T[], total: number, page: PageRequest): Page<T> {
  const end = page.offset + items.length;
  return { items, total, offset: page.offset, limit: page.limit, next_offset: end < total ? end : null };
}

type IssuePredicate = (issue: Issue) => boolean;

/** Parses every filter once, up front, then combines the ones given; null when none are. */
function issueFilter(state: TrackerState, query: SearchIssuesQuery): IssuePredicate | null {
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
  const words = parseWords(query.text);
  if (words.length > 0) tests.push((issue) => words.every((word) => searchTextOf(state, issue).includes(word)));
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

function parseWords(text: unknown): string[] {
  if (text === undefined || text === null) return [];
  if (typeof text !== 'string') throw domainError('invalid_argument', `text must be a string, got ${quote(text)}.`);
  return text
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word.length > 0);
}

function searchTextOf(state: TrackerState, issue: Issue): string {
  let text = state.searchText.get(issue.key);
  if (text === undefined) {
    text = [issue.title, issue.description, ...issue.comments.map((c) => c.body)].join('\n').toLowerCase();
    state.searchText.set(issue.key, text);
  }
  return text;
}
