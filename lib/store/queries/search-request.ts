// What a search asks, read from its arguments before anything is searched: the page (an
// offset, or a cursor's position: search-cursor.ts), and the filters as conditions of the query
// language (jql/resolve.ts), so `status: "todo"` and `status = todo` mean one thing. The
// in-memory search (queries.ts) and a backend's own (postgres/sql-search.ts) both start here.
import {
  parseOneOrMany,
  parsePage,
  parsePriority,
  parseProjectKey,
  parseSprintId,
  quote,
  type PageRequest,
} from '../model/args.js';
import { domainError } from '../model/errors.js';
import { requireProject, requireSprint } from '../state/lookup.js';
import { requirePersonNamed } from '../state/people.js';
import { READY_ORDER, decodeCursor, searchIdentity, type SortValue } from './search-cursor.js';
import { LABEL_PATTERN } from '../model/schema.js';
import type { FieldValue, IndexedField } from '../indexes/index-fields.js';
import type { SortKey } from './jql/ast.js';
import { allOf, type Condition, type ResolveContext } from './jql/conditions.js';
import { queryLanguage } from './jql-loader.js';
import type { TrackerState } from '../state/state.js';
import { searchWords } from '../indexes/word-index.js';
import { statusesKnownAs } from '../state/workflows.js';

export interface Page<T> {
  readonly items: readonly T[];
  /** How many match in all, not only on this page. */
  readonly total: number;
  readonly offset: number;
  readonly limit: number;
  /** Offset of the next page, or null on the last page (and on every page after a cursor). */
  readonly next_offset: number | null;
  /** The cursor of the next page (search-cursor.ts), or null on the last page. */
  readonly next_cursor: string | null;
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
  /** A query in the query language (jql/), ANDed with the other filters given. */
  readonly query?: string;
  /** Only the ready view (ready.ts), most urgent first instead of in key order. */
  readonly ready?: boolean;
  /** The next_cursor of the previous page of the same search; not with an offset. */
  readonly cursor?: string;
}

/** The page asked for: an offset and a limit, and the position of a cursor (bound to this search). */
export interface SearchPage extends PageRequest {
  readonly identity: string;
  readonly after?: readonly SortValue[];
}

export function pageRequest(query: SearchIssuesQuery): SearchPage {
  const page = parsePage(query.offset, query.limit);
  const identity = searchIdentity(query);
  if (query.cursor === undefined) return { ...page, identity };
  if (query.offset !== undefined) {
    throw domainError('invalid_argument', 'Give a cursor or an offset, not both: the cursor says where the page starts.');
  }
  return { ...page, identity, after: decodeCursor(query.cursor, identity) };
}

/** What a search means, resolved against the state: every argument and the query as one condition (null: every issue), and the query's order. */
export interface ResolvedSearch {
  readonly page: SearchPage;
  readonly where: Condition | null;
  readonly orderBy: readonly SortKey[];
  /** Only the ready view's issues (ready.ts). */
  readonly ready: boolean;
}

/**
 * The search resolved as searchInSlices (queries.ts) resolves it, for a backend that answers it another way
 * (PostgreSQL: postgres/sql-search.ts).
 */
export function resolveSearch(state: TrackerState, query: SearchIssuesQuery, context: ResolveContext): ResolvedSearch {
  const page = pageRequest(query);
  // In searchInSlices' order, so a search with two mistakes names the same one first.
  const project = projectCondition(state, query.project);
  const filters = filterConditions(state, query);
  const words = searchWords(query.text);
  const parsed = query.query === undefined ? null : queryLanguage().parseQuery(query.query);
  const conditions = [
    ...(parsed?.where == null ? [] : [queryLanguage().resolve(state, parsed.where, context)]),
    ...project,
    ...filters,
    ...(words.length > 0 ? [textCondition(words)] : []),
  ];
  const where = allOf(conditions);
  // As searchInSlices: the ready view comes most urgent first unless the query orders it.
  const ready = query.ready === true;
  const orderBy = parsed?.orderBy ?? [];
  return { page, where, orderBy: ready && orderBy.length === 0 ? READY_ORDER : orderBy, ready };
}

export function projectCondition(state: TrackerState, project: unknown): Condition[] {
  if (project === undefined) return [];
  return [
    { kind: 'one-of', field: 'project', values: new Set([requireProject(state, parseProjectKey(project)).key]), negated: false },
  ];
}

export const textCondition = (words: readonly string[]): Condition => ({ kind: 'text', words });

/**
 * The filters given as arguments, parsed once up front, as conditions of the query language
 * (jql/resolve.ts): one meaning for `status: "todo"` and `status = todo`.
 */
export function filterConditions(state: TrackerState, query: SearchIssuesQuery): Condition[] {
  const conditions: Condition[] = [];
  const oneOf = (field: IndexedField, values: readonly FieldValue[]) =>
    conditions.push({ kind: 'one-of', field, values: new Set(values), negated: false });
  if (query.status !== undefined) oneOf('status', parseOneOrMany(query.status, (item) => statusesKnownAs(state, item)).flat());
  if (query.priority !== undefined) oneOf('priority', parseOneOrMany(query.priority, parsePriority));
  if (query.assignee !== undefined)
    oneOf('assignee', [query.assignee === null ? null : requirePersonNamed(state, query.assignee, 'assignee')]);
  if (query.sprint !== undefined)
    oneOf('sprint', [query.sprint === null ? null : requireSprint(state, parseSprintId(query.sprint)).id]);
  if (query.label !== undefined) oneOf('labels', [parseLabelFilter(query.label)]);
  return conditions;
}

function parseLabelFilter(value: unknown): string {
  const label = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (!LABEL_PATTERN.test(label)) {
    throw domainError('invalid_argument', `Invalid label ${quote(value)}. Labels are lower-case words such as backend.`);
  }
  return label;
}
