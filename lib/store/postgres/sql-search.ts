// search_issues in SQL, over the issues read table (issue-table.ts).
//
// The search is first resolved against the replica's state exactly as the in-memory engine
// resolves it (queries.ts resolveSearch: names checked, currentUser() and openSprints()
// called, relative dates made instants), so both engines answer the same condition tree; this
// file only translates that tree. Every value travels as a parameter ($1, $2...), never inside
// the statement's text: only column names and operators chosen here are written into it.
//
// The order is jql/order.ts's: the sort keys given, then the key (project, then number), so
// the order is total and a page is the same on every read. Each sort key is one or more
// expressions that are never NULL (an empty assignee sorts after every one: `assignee IS NULL`
// first), which lets a keyset cursor compare them with plain = and <.
//
// Pages: by offset (the tool's `offset`), or by keyset: the cursor is the last row's sort
// values, and the next page is the rows after them in the order. A keyset page is found through
// the index and does not skip rows a write moved ahead of the cursor, nor repeat them.
import type pg from 'pg';
import { domainError } from '../errors.js';
import type { SortKey } from '../jql/ast.js';
import type { Condition } from '../jql/resolve.js';
import { ISSUE_TYPES, PRIORITIES, STATUSES } from '../schema.js';

/** The statement's parameters: `add` keeps a value and answers the placeholder that stands for it. */
class Parameters {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** Conditions on one value per issue, by column; labels (several per issue) are apart. */
const ONE_VALUE_COLUMNS = new Set(['project', 'status', 'priority', 'assignee', 'reporter', 'type', 'sprint']);

/** The condition as a boolean SQL expression that is never NULL (NOT of it is then its opposite). */
export function whereSql(condition: Condition, parameters: Parameters): string {
  switch (condition.kind) {
    case 'and':
    case 'or': {
      const operands = condition.operands.map((operand) => whereSql(operand, parameters));
      if (operands.length === 0) return condition.kind === 'and' ? 'true' : 'false';
      return `(${operands.join(condition.kind === 'and' ? ' AND ' : ' OR ')})`;
    }
    case 'not':
      return `NOT ${whereSql(condition.operand, parameters)}`;
    case 'one-of': {
      const matched = oneOfSql(condition.field, [...condition.values], parameters);
      return condition.negated ? `NOT ${matched}` : matched;
    }
    case 'date':
      return dateSql(condition, parameters);
    case 'text': {
      // LIKE '%word%' is what the trigram index answers; \, % and _ in a word are literal.
      const words = condition.words.map((word) => `search_text LIKE ${parameters.add(`%${word.replace(/[\\%_]/g, '\\$&')}%`)}`);
      return words.length === 0 ? 'true' : `(${words.join(' AND ')})`;
    }
  }
}

function oneOfSql(field: string, values: readonly (string | null)[], parameters: Parameters): string {
  const present = values.filter((value): value is string => value !== null);
  const parts: string[] = [];
  if (field === 'labels') {
    if (present.length > 0) parts.push(`labels && ${parameters.add(present)}::text[]`);
    if (present.length < values.length) parts.push('cardinality(labels) = 0');
  } else {
    if (!ONE_VALUE_COLUMNS.has(field)) throw new Error(`no column for the field ${field}`);
    if (present.length > 0) parts.push(`COALESCE(${field} = ANY(${parameters.add(present)}::text[]), false)`);
    if (present.length < values.length) parts.push(`${field} IS NULL`);
  }
  return parts.length === 0 ? 'false' : `(${parts.join(' OR ')})`;
}

/** As jql/evaluate.ts: the timestamp against the span [from, until); ISO timestamps compare as strings ("C" collation). */
function dateSql(condition: Extract<Condition, { kind: 'date' }>, parameters: Parameters): string {
  const at = condition.field === 'created' ? 'created' : 'updated';
  const from = (): string => parameters.add(condition.from);
  const until = (): string => parameters.add(condition.until);
  switch (condition.op) {
    case '=':
      return `(${at} >= ${from()} AND ${at} < ${until()})`;
    case '!=':
      return `(${at} < ${from()} OR ${at} >= ${until()})`;
    case '<':
      return `${at} < ${from()}`;
    case '<=':
      return `${at} < ${until()}`;
    case '>':
      return `${at} >= ${until()}`;
    case '>=':
      return `${at} >= ${from()}`;
  }
}

/** One expression of the order, never NULL, and whether it runs backwards. */
interface OrderExpression {
  readonly sql: string;
  readonly descending: boolean;
}

/** The order of order.ts as expressions: the sort keys, then the key. */
export function orderExpressions(orderBy: readonly SortKey[], parameters: Parameters): OrderExpression[] {
  const rank = (values: readonly string[], column: string): string[] => [
    `array_position(${parameters.add(values)}::text[], ${column})`,
  ];
  const expressions = (key: SortKey): string[] => {
    switch (key.field) {
      case 'key':
        return ['project', 'number'];
      case 'status':
        return rank(STATUSES, 'status');
      case 'priority':
        return rank(PRIORITIES, 'priority');
      case 'type':
        return rank(ISSUE_TYPES, 'type');
      case 'assignee':
        return ['(assignee IS NULL)', "COALESCE(assignee, '')"];
      case 'sprint':
        return ['(sprint IS NULL)', "COALESCE(sprint_prefix, '')", 'COALESCE(sprint_number, 0)'];
      case 'project':
      case 'reporter':
      case 'created':
      case 'updated':
        return [key.field];
    }
  };
  const order = orderBy.flatMap((key) => expressions(key).map((sql) => ({ sql, descending: key.direction === 'DESC' })));
  return [...order, { sql: 'project', descending: false }, { sql: 'number', descending: false }];
}

/** The rows after `values` in the order: the first expression past its value, or equal and the next past, and so on. */
function afterSql(order: readonly OrderExpression[], values: readonly unknown[], parameters: Parameters): string {
  const alternatives = order.map((expression, index) => {
    const equal = order.slice(0, index).map((before, at) => `${before.sql} = ${parameters.add(values[at])}`);
    const past = `${expression.sql} ${expression.descending ? '<' : '>'} ${parameters.add(values[index])}`;
    return `(${[...equal, past].join(' AND ')})`;
  });
  return `(${alternatives.join(' OR ')})`;
}

/** A keyset cursor: the last row's sort values, as base64url JSON. Opaque to the caller; checked when it comes back. */
const encodeCursor = (values: readonly unknown[]): string => Buffer.from(JSON.stringify(values)).toString('base64url');

function decodeCursor(cursor: string, expected: number): unknown[] {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    values = null;
  }
  const scalar = (value: unknown): boolean => ['string', 'number', 'boolean'].includes(typeof value);
  if (!Array.isArray(values) || values.length !== expected || !values.every(scalar)) {
    throw domainError('invalid_argument', 'The cursor is not one this search gave. Start again without a cursor.');
  }
  return values;
}

export interface SqlPageRequest {
  readonly where: Condition | null;
  readonly orderBy: readonly SortKey[];
  readonly limit: number;
  /** Rows skipped (offset paging); not with `after`. */
  readonly offset?: number;
  /** A next_cursor from the previous page of the same search. */
  readonly after?: string;
}

export interface SqlPage {
  /** The keys of the page, in order. */
  readonly keys: readonly string[];
  /** How many issues match in all (not only after the cursor). */
  readonly total: number;
  /** The cursor of the next page, or null on the last. */
  readonly next_cursor: string | null;
  /** The newest revision the answer saw: its rows are as they were after that record. */
  readonly revision: number;
}

/**
 * One page, the total and the newest revision in one statement: one round trip, and one
 * snapshot, so the three agree. The page's rows come back as one JSON array, aggregated in
 * the page's order (an aggregate keeps no order it is not told).
 */
export async function searchPage(pool: pg.Pool, request: SqlPageRequest): Promise<SqlPage> {
  const parameters = new Parameters();
  const where = request.where === null ? 'true' : whereSql(request.where, parameters);
  const order = orderExpressions(request.orderBy, parameters);
  const after = request.after === undefined ? 'true' : afterSql(order, decodeCursor(request.after, order.length), parameters);
  const selected = order.map((expression, index) => `${expression.sql} AS s${index}`);
  const ordered = order.map((expression) => `${expression.sql}${expression.descending ? ' DESC' : ''}`);
  const reordered = order.map((expression, index) => `s${index}${expression.descending ? ' DESC' : ''}`);
  const row = ['key', ...order.map((_, index) => `s${index}`)].join(', ');
  const result = await pool.query<{ revision: string; total: string; rows: [string, ...unknown[]][] }>(
    `SELECT (SELECT COALESCE(max(revision), 0) FROM mcp_tracker_records) AS revision,
            (SELECT count(*) FROM mcp_tracker_issues WHERE ${where}) AS total,
            (SELECT COALESCE(json_agg(json_build_array(${row}) ORDER BY ${reordered.join(', ')}), '[]')
             FROM (SELECT key, ${selected.join(', ')} FROM mcp_tracker_issues
                   WHERE ${where} AND ${after} ORDER BY ${ordered.join(', ')}
                   LIMIT ${parameters.add(request.limit + 1)} OFFSET ${parameters.add(request.offset ?? 0)}) AS page) AS rows`,
    parameters.values,
  );
  const answer = result.rows[0];
  if (answer === undefined) throw new Error('the search statement answered no row');
  const page = answer.rows.slice(0, request.limit);
  const last = page[page.length - 1];
  return {
    keys: page.map(([key]) => key),
    total: Number(answer.total),
    next_cursor: answer.rows.length > request.limit && last !== undefined ? encodeCursor(last.slice(1)) : null,
    revision: Number(answer.revision),
  };
}
