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
// Pages: by offset (a listing), or by keyset (search_issues' cursor, search-cursor.ts): the
// position is the last row's values of the sort fields and its key, and the next page is the
// rows after it in the order, found through the index. The position is the one both engines
// read; each expression of the order says its own value there (OrderExpression.at).
import type pg from 'pg';
import type { SortKey } from '../queries/jql/ast.js';
import type { Condition } from '../queries/jql/conditions.js';
import { dueOf, type SortFields } from '../queries/jql/order.js';
import { ISSUE_TYPES, PRIORITIES, STATUSES } from '../model/schema.js';
import type { SortValue } from '../queries/search-cursor.js';
import { issueNumber } from '../state/state.js';
import { sprintColumns } from './issue-table.js';
import { readySql } from './ready-tables.js';

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
      const column = TEXT_COLUMNS[condition.field ?? 'all'];
      const words = condition.words.map((word) => `${column} LIKE ${parameters.add(`%${word.replace(/[\\%_]/g, '\\$&')}%`)}`);
      return words.length === 0 ? 'true' : `(${words.join(' AND ')})`;
    }
    case 'keys':
      // Keys the resolver found in the replica's indexes (jql/issue-sets.ts): parents, links, resolutions.
      return `key = ANY(${parameters.add([...condition.keys])}::text[])`;
  }
}

/** The lower-cased text a text condition looks in: all of it, or one part (summary ~, description ~, comment ~). */
const TEXT_COLUMNS = { all: 'search_text', summary: 'title_lower', description: 'description_lower', comment: 'comment_text' };

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

/** One expression of the order, never NULL, whether it runs backwards, and its value at a position. */
interface OrderExpression {
  readonly sql: string;
  readonly descending: boolean;
  readonly at: (position: SortFields) => unknown;
}

type Expression = Omit<OrderExpression, 'descending'>;

/** The order of order.ts as expressions: the sort keys, then the key. */
export function orderExpressions(orderBy: readonly SortKey[], parameters: Parameters): OrderExpression[] {
  const byKey: Expression[] = [
    { sql: 'project', at: (position) => position.project },
    { sql: 'number', at: (position) => issueNumber(position.key) },
  ];
  // array_position counts from 1; a value not listed (a status of a project's own workflow) ranks after them all.
  const rank = (values: readonly string[], column: string, of: (position: SortFields) => string): Expression[] => [
    {
      sql: `COALESCE(array_position(${parameters.add(values)}::text[], ${column}), ${values.length + 1})`,
      at: (position) => values.indexOf(of(position)) + 1 || values.length + 1,
    },
  ];
  const expressions = (key: SortKey): Expression[] => {
    switch (key.field) {
      case 'key':
        return byKey;
      case 'status':
        // As order.ts: the default's statuses in order, then the others by id, compared as bytes (the column has the database's collation).
        return [
          ...rank(STATUSES, 'status', (position) => position.status),
          { sql: 'status COLLATE "C"', at: (position) => position.status },
        ];
      case 'priority':
        return rank(PRIORITIES, 'priority', (position) => position.priority);
      case 'type':
        return rank(ISSUE_TYPES, 'type', (position) => position.type);
      case 'assignee':
        return [
          { sql: '(assignee IS NULL)', at: (position) => position.assignee === null },
          { sql: "COALESCE(assignee, '')", at: (position) => position.assignee ?? '' },
        ];
      case 'sprint':
        return [
          { sql: '(sprint IS NULL)', at: (position) => position.sprint === null },
          { sql: "COALESCE(sprint_prefix, '')", at: (position) => sprintColumns(position.sprint)[0] ?? '' },
          { sql: 'COALESCE(sprint_number, 0)', at: (position) => sprintColumns(position.sprint)[1] ?? 0 },
        ];
      case 'project':
        return [{ sql: 'project', at: (position) => position.project }];
      case 'reporter':
        return [{ sql: 'reporter', at: (position) => position.reporter }];
      case 'created':
        return [{ sql: 'created', at: (position) => position.created_at }];
      case 'updated':
        return [{ sql: 'updated', at: (position) => position.updated_at }];
      case 'due':
        return [
          { sql: '(due IS NULL)', at: (position) => dueOf(position) === null },
          { sql: "COALESCE(due, '')", at: (position) => dueOf(position) ?? '' },
        ];
    }
  };
  const descending = (key: SortKey) => (expression: Expression) => ({ ...expression, descending: key.direction === 'DESC' });
  const order = orderBy.flatMap((key) => expressions(key).map(descending(key)));
  return [...order, ...byKey.map((expression) => ({ ...expression, descending: false }))];
}

/** The rows after `position` in the order: the first expression past its value, or equal and the next past, and so on. */
function afterSql(order: readonly OrderExpression[], position: SortFields, parameters: Parameters): string {
  const alternatives = order.map((expression, index) => {
    const equal = order.slice(0, index).map((before) => `${before.sql} = ${parameters.add(before.at(position))}`);
    const past = `${expression.sql} ${expression.descending ? '<' : '>'} ${parameters.add(expression.at(position))}`;
    return `(${[...equal, past].join(' AND ')})`;
  });
  return `(${alternatives.join(' OR ')})`;
}

/** The column of a sort field's value as the issue holds it (search-cursor.ts sortValue): what a position is made of. */
const valueColumn = (key: SortKey): string => key.field;

export interface ReadyStatuses {
  readonly open: readonly string[];
  readonly done: readonly string[];
}

export interface SqlPageRequest {
  readonly where: Condition | null;
  /** Only the ready view's issues (ready-tables.ts), with the statuses that are open and done in every workflow. */
  readonly ready?: ReadyStatuses;
  readonly orderBy: readonly SortKey[];
  readonly limit: number;
  /** Rows skipped (offset paging); not with `after`. */
  readonly offset?: number;
  /** Where the previous page ended (a cursor's position, search-cursor.ts positionOf). */
  readonly after?: SortFields;
}

export interface SqlPage {
  /** The keys of the page, in order. */
  readonly keys: readonly string[];
  /** How many issues match in all (not only after the cursor). */
  readonly total: number;
  /** Where the page ends (the last row's values of the sort fields, then its key) when more rows follow; null on the last page. */
  readonly next_position: SortValue[] | null;
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
  const condition = request.where === null ? 'true' : whereSql(request.where, parameters);
  const ready = request.ready;
  const readyStatuses = ready?.open.filter((status) => status !== 'blocked');
  const where =
    ready === undefined ? condition : `${condition} AND ${readySql(parameters.add(readyStatuses), parameters.add(ready.done))}`;
  const order = orderExpressions(request.orderBy, parameters);
  const after = request.after === undefined ? 'true' : afterSql(order, request.after, parameters);
  const selected = order.map((expression, index) => `${expression.sql} AS s${index}`);
  const ordered = order.map((expression) => `${expression.sql}${expression.descending ? ' DESC' : ''}`);
  const reordered = order.map((expression, index) => `s${index}${expression.descending ? ' DESC' : ''}`);
  const values = request.orderBy.map(valueColumn);
  const row = [...values.map((_, index) => `v${index}`), 'key'].join(', ');
  const valuesSelected = values.map((column, index) => `${column} AS v${index}`);
  const result = await pool.query<{ revision: string; total: string; rows: SortValue[][] }>(
    `SELECT (SELECT COALESCE(max(revision), 0) FROM mcp_tracker_records) AS revision,
            (SELECT count(*) FROM mcp_tracker_issues AS issue WHERE ${where}) AS total,
            (SELECT COALESCE(json_agg(json_build_array(${row}) ORDER BY ${reordered.join(', ')}), '[]')
             FROM (SELECT ${['key', ...valuesSelected, ...selected].join(', ')} FROM mcp_tracker_issues AS issue
                   WHERE ${where} AND ${after} ORDER BY ${ordered.join(', ')}
                   LIMIT ${parameters.add(request.limit + 1)} OFFSET ${parameters.add(request.offset ?? 0)}) AS page) AS rows`,
    parameters.values,
  );
  const answer = result.rows[0];
  if (answer === undefined) throw new Error('the search statement answered no row');
  const page = answer.rows.slice(0, request.limit);
  const last = page[page.length - 1];
  return {
    keys: page.map((values) => values[values.length - 1] as string),
    total: Number(answer.total),
    next_position: answer.rows.length > request.limit && last !== undefined ? last : null,
    revision: Number(answer.revision),
  };
}
