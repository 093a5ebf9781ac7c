// Keyset cursors of search_issues: where a page ended, as the values the order compares.
//
// A page ends at an issue; the next page is the matching issues after it in the search's order
// (jql/order.ts: the sort keys, then the key, so no two issues tie). The cursor keeps that
// issue's values of the sort fields and its key, not its index in the list: an issue created,
// edited or deleted between two pages moves no other issue across the cursor, so an issue that
// matched throughout, with the same sort values, is shown once, never twice nor skipped. An
// offset would shift by one for each issue that came or went before it.
//
// As the spec's cursors (https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination),
// it is an opaque string, the server chooses the page size (at most the `limit` asked), and a
// cursor the server did not give is refused with a sentence saying to start again. It is
// base64url JSON: [check, ...values]. The check is a hash of the search's arguments and the
// values, so a cursor of another search, or one whose values were edited, is refused. It is
// not a secret signature, and need not be: a forged position only starts a page elsewhere in
// the same search. Both backends (memory and PostgreSQL, postgres/sql-search.ts) read and write
// this one cursor, so any instance can answer the next page, from SQL or from its memory.
import * as crypto from 'node:crypto';
import { domainError } from '../model/errors.js';
import { compareBy, dueOf, type SortFields } from './jql/order.js';
import type { OrderField, SortKey } from './jql/ast.js';
import {
  DATE_PATTERN,
  HANDLE_PATTERN,
  ISSUE_KEY_PATTERN,
  ISSUE_TYPES,
  PRIORITIES,
  PROJECT_KEY_PATTERN,
  SPRINT_ID_PATTERN,
  WORKFLOW_ID_PATTERN,
  TIMESTAMP_PATTERN,
} from '../model/schema.js';

/** One value of the sort fields: a string, or null for no assignee or no sprint. */
export type SortValue = string | null;

/** The ready view's order (ready.ts): most urgent first, then by key. */
export const READY_ORDER: readonly SortKey[] = [{ field: 'priority', direction: 'ASC', column: 0 }];

/** Longer than any cursor this file writes (a handful of short values); past it, nothing is decoded. */
const CURSOR_MAX = 2_000;

const refused = () =>
  domainError(
    'invalid_argument',
    'The cursor is not one this search gave (same query and filters). Start again without a cursor.',
  );

/** The issue's value of one sort field, as the cursor keeps it. */
export function sortValue(issue: SortFields, field: OrderField): SortValue {
  if (field === 'created') return issue.created_at;
  if (field === 'updated') return issue.updated_at;
  if (field === 'due') return dueOf(issue);
  return issue[field];
}

/** The values of the order's fields, then the key: where a page ending at `issue` ends. */
export function positionValues(orderBy: readonly SortKey[], issue: SortFields): SortValue[] {
  return [...orderBy.map((key) => sortValue(issue, key.field)), issue.key];
}

/** The arguments that say where a page is, not what is searched. */
const PAGE_ARGUMENTS: ReadonlySet<string> = new Set(['limit', 'offset', 'cursor']);

/**
 * What a cursor is bound to: the search's arguments but the page (limit, offset, cursor), as
 * [name, value] pairs by name. Made for every search, so without copies of the arguments.
 */
export function searchIdentity(arguments_: object): string {
  const search: [string, unknown][] = [];
  for (const name of Object.keys(arguments_).sort()) {
    const value = (arguments_ as Record<string, unknown>)[name];
    if (value !== undefined && !PAGE_ARGUMENTS.has(name)) search.push([name, value]);
  }
  return JSON.stringify(search);
}

/**
 * The one-shot `crypto.hash` (Node 20.12 and later) gives the same digest as a `Hash` object
 * without making one (docs/performance.md); older Node makes the object.
 */
const sha256 =
  typeof crypto.hash === 'function'
    ? (text: string): string => crypto.hash('sha256', text, 'base64url')
    : (text: string): string => crypto.createHash('sha256').update(text).digest('base64url');

const checkOf = (identity: string, values: readonly SortValue[]): string =>
  sha256(JSON.stringify([identity, values])).slice(0, 16);

export function encodeCursor(identity: string, values: readonly SortValue[]): string {
  return Buffer.from(JSON.stringify([checkOf(identity, values), ...values])).toString('base64url');
}

/** The position a cursor holds, if this search gave it; otherwise a domain error. */
export function decodeCursor(cursor: unknown, identity: string): SortValue[] {
  if (typeof cursor !== 'string' || cursor.length > CURSOR_MAX) throw refused();
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw refused();
  }
  if (!Array.isArray(decoded) || decoded.length < 2) throw refused();
  const [check, ...values] = decoded as unknown[];
  if (!values.every((value): value is SortValue => value === null || typeof value === 'string')) throw refused();
  if (check !== checkOf(identity, values)) throw refused();
  return values;
}

/** The form each sort field's value has in an issue; a cursor's values are checked against it. */
const FORMS: Record<OrderField, (value: SortValue) => boolean> = {
  key: (value) => value !== null && ISSUE_KEY_PATTERN.test(value),
  project: (value) => value !== null && PROJECT_KEY_PATTERN.test(value),
  status: (value) => value !== null && WORKFLOW_ID_PATTERN.test(value),
  priority: (value) => (PRIORITIES as readonly SortValue[]).includes(value),
  type: (value) => (ISSUE_TYPES as readonly SortValue[]).includes(value),
  assignee: (value) => value === null || HANDLE_PATTERN.test(value),
  reporter: (value) => value !== null && HANDLE_PATTERN.test(value),
  sprint: (value) => value === null || SPRINT_ID_PATTERN.test(value),
  created: (value) => value !== null && TIMESTAMP_PATTERN.test(value),
  updated: (value) => value !== null && TIMESTAMP_PATTERN.test(value),
  due: (value) => value === null || DATE_PATTERN.test(value),
};

/**
 * The position as the fields the order compares, checked against the order: as many values as
 * it has fields, each of its field's form. The fields the order does not name are never
 * compared; they keep the values of a plain issue of the same key.
 */
export function positionOf(orderBy: readonly SortKey[], values: readonly SortValue[]): SortFields {
  const key = values[orderBy.length] ?? null;
  if (values.length !== orderBy.length + 1 || !FORMS.key(key)) throw refused();
  const project = (key as string).slice(0, (key as string).lastIndexOf('-'));
  const at = new Date(0).toISOString();
  const position: { -readonly [F in keyof SortFields]: SortFields[F] } = {
    ...{ key: key as string, project, status: 'todo', priority: 'P2', type: 'task', assignee: null, reporter: 'nobody' },
    ...{ sprint: null, created_at: at, updated_at: at },
  };
  orderBy.forEach(({ field }, index) => {
    const value = values[index] ?? null;
    if (!FORMS[field](value) || (field === 'key' && value !== key) || (field === 'project' && value !== project)) throw refused();
    if (field === 'created') position.created_at = value as string;
    else if (field === 'updated') position.updated_at = value as string;
    else if (field === 'due') position.fields = value === null ? undefined : { due: value };
    else if (field !== 'key' && field !== 'project') Object.assign(position, { [field]: value });
  });
  return position;
}

/** Whether an issue comes after the position in the order: on the next page, or a later one. */
export function afterPosition(orderBy: readonly SortKey[], values: readonly SortValue[]): (issue: SortFields) => boolean {
  const position = positionOf(orderBy, values);
  const compare = compareBy(orderBy);
  return (issue) => compare(issue, position) > 0;
}
