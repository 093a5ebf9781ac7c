// The issues read table (mcp_tracker_issues): one row per issue with the fields a search
// filters and orders on, so search_issues can be answered by SQL (sql-search.ts) instead of
// from the replica's memory.
//
// It is written in the transaction that appends the records (pg-log.ts insertRecords): it
// commits with them or not at all, so it never disagrees with the log. The log stays the
// truth; the table is what applying its records gives for these fields, and each record type
// below changes the row as apply.ts changes the issue (the tests compare the two).
//
// Text search keeps the meaning of the in-memory search: a word matches where it occurs
// inside the text, case-insensitively, in the title, description or a comment. The text is
// lower-cased here, by JavaScript, as word-index.ts lower-cases it: PostgreSQL's lower()
// follows the database's locale and would disagree on letters outside ASCII. Search words
// have no whitespace, so the newlines joining the parts never make a match of their own.
import type pg from 'pg';
import type { Issue } from '../model/schema.js';
import type { JournalRecord, RecordOf } from '../model/record-schema.js';
import { issueNumber, sprintNumber } from '../state/state.js';
import { dueOf } from '../queries/jql/order.js';

type Client = pg.PoolClient | pg.Client;

/**
 * The due date, for ORDER BY due (schema version 4, migrations.ts): a day as YYYY-MM-DD, which
 * sorts as bytes; NULL when the issue has none. Added after the table is created (version 2),
 * and by version 4 to a table created before it existed.
 */
export const DUE_COLUMN_SQL = [
  'ALTER TABLE mcp_tracker_issues ADD COLUMN IF NOT EXISTS due text COLLATE "C"',
  'CREATE INDEX IF NOT EXISTS mcp_tracker_issues_due ON mcp_tracker_issues (due)',
];

/** The table, its indexes, and the trigram extension its text index needs (trusted: a database owner may create it). */
export const ISSUE_TABLE_SQL = [
  'CREATE EXTENSION IF NOT EXISTS pg_trgm',
  `CREATE TABLE mcp_tracker_issues (
     key text PRIMARY KEY,
     project text COLLATE "C" NOT NULL,
     number integer NOT NULL,
     type text NOT NULL,
     status text NOT NULL,
     priority text NOT NULL,
     assignee text COLLATE "C",
     reporter text COLLATE "C" NOT NULL,
     sprint text COLLATE "C",
     sprint_prefix text COLLATE "C",
     sprint_number integer,
     labels text[] NOT NULL,
     parent text,
     created text COLLATE "C" NOT NULL,
     updated text COLLATE "C" NOT NULL,
     title text NOT NULL,
     description text NOT NULL,
     title_lower text NOT NULL,
     description_lower text NOT NULL,
     comment_text text NOT NULL,
     search_text text GENERATED ALWAYS AS (title_lower || E'\\n' || description_lower || comment_text) STORED,
     UNIQUE (project, number)
   )`,
  'CREATE INDEX mcp_tracker_issues_status ON mcp_tracker_issues (status)',
  'CREATE INDEX mcp_tracker_issues_priority ON mcp_tracker_issues (priority)',
  'CREATE INDEX mcp_tracker_issues_assignee ON mcp_tracker_issues (assignee)',
  'CREATE INDEX mcp_tracker_issues_sprint ON mcp_tracker_issues (sprint)',
  'CREATE INDEX mcp_tracker_issues_created ON mcp_tracker_issues (created)',
  'CREATE INDEX mcp_tracker_issues_updated ON mcp_tracker_issues (updated)',
  'CREATE INDEX mcp_tracker_issues_labels ON mcp_tracker_issues USING gin (labels)',
  ...DUE_COLUMN_SQL,
];

/**
 * The trigram index on the text. Its operator class lives in the schema the extension was
 * installed in, which need not be on this connection's search path (another schema of the
 * same database may have installed it first), so it is named with its schema.
 */
export async function createTextIndex(client: Client): Promise<void> {
  const found = await client.query<{ schema: string }>(
    "SELECT extnamespace::regnamespace::text AS schema FROM pg_extension WHERE extname = 'pg_trgm'",
  );
  const schema = found.rows[0]?.schema ?? 'public';
  const quoted = `"${schema.replace(/^"|"$/g, '').replace(/"/g, '""')}"`;
  await client.query(`CREATE INDEX mcp_tracker_issues_text ON mcp_tracker_issues USING gin (search_text ${quoted}.gin_trgm_ops)`);
}

const COLUMNS = [
  'key',
  'project',
  'number',
  'type',
  'status',
  'priority',
  'assignee',
  'reporter',
  'sprint',
  'sprint_prefix',
  'sprint_number',
  'labels',
  'parent',
  'created',
  'updated',
  'due',
  'title',
  'description',
  'title_lower',
  'description_lower',
  'comment_text',
] as const;

/** The type of each column's parameter array: labels travel as one array literal per row (text), cast after unnest. */
const TYPES: Record<(typeof COLUMNS)[number], string> = {
  key: 'text',
  project: 'text',
  number: 'int',
  type: 'text',
  status: 'text',
  priority: 'text',
  assignee: 'text',
  reporter: 'text',
  sprint: 'text',
  sprint_prefix: 'text',
  sprint_number: 'int',
  labels: 'text',
  parent: 'text',
  created: 'text',
  updated: 'text',
  due: 'text',
  title: 'text',
  description: 'text',
  title_lower: 'text',
  description_lower: 'text',
  comment_text: 'text',
};

/** A sprint id as the ORDER BY of order.ts compares it: its project part, then its number. */
export function sprintColumns(sprint: string | null): [string | null, number | null] {
  return sprint === null ? [null, null] : [sprint.slice(0, sprint.lastIndexOf('-')), sprintNumber(sprint)];
}

/** The comments' part of the text: each lower-cased body after a newline. */
const commentText = (bodies: readonly string[]): string => bodies.map((body) => `\n${body.toLowerCase()}`).join('');

function rowOf(issue: Issue): unknown[] {
  return [
    issue.key,
    issue.project,
    issueNumber(issue.key),
    issue.type,
    issue.status,
    issue.priority,
    issue.assignee,
    issue.reporter,
    issue.sprint,
    ...sprintColumns(issue.sprint),
    // Labels are lower-case letters, digits, '-' and '_' (schema.ts): nothing to escape in the literal.
    `{${issue.labels.join(',')}}`,
    issue.parent ?? null,
    issue.created_at,
    issue.updated_at,
    dueOf(issue),
    issue.title,
    issue.description,
    issue.title.toLowerCase(),
    issue.description.toLowerCase(),
    commentText(issue.comments.map((comment) => comment.body)),
  ];
}

/** Inserts whole issues in one statement (a batch of created issues, or the migration's backfill). */
export async function insertIssues(client: Client, issues: readonly Issue[]): Promise<void> {
  if (issues.length === 0) return;
  const rows = issues.map(rowOf);
  const columns = COLUMNS.map((_, index) => rows.map((row) => row[index]));
  const arrays = COLUMNS.map((column, index) => `$${index + 1}::${TYPES[column]}[]`);
  const selected = COLUMNS.map((column) => (column === 'labels' ? 'labels::text[]' : column));
  await client.query(
    `INSERT INTO mcp_tracker_issues (${COLUMNS.join(', ')})
     SELECT ${selected.join(', ')} FROM unnest(${arrays.join(', ')}) AS t(${COLUMNS.join(', ')})`,
    columns,
  );
}

/**
 * Changes the table as `records` change the issues: created issues inserted in one statement,
 * every other record that touches an issue's row one UPDATE. Records that touch no row (links,
 * projects, sprints other than closing one) change nothing here.
 */
export async function applyToIssueTable(client: Client, records: readonly JournalRecord[]): Promise<void> {
  let created: Issue[] = [];
  for (const record of records) {
    if (record.type === 'issue.created') {
      created.push(record.issue);
      continue;
    }
    await insertIssues(client, created);
    created = [];
    await applyOne(client, record);
  }
  await insertIssues(client, created);
}

async function applyOne(client: Client, record: JournalRecord): Promise<void> {
  const set = (key: string, assignments: string, values: unknown[]) =>
    client.query(`UPDATE mcp_tracker_issues SET ${assignments} WHERE key = $1`, [key, ...values]);
  switch (record.type) {
    case 'issue.status_changed':
      await set(record.key, 'status = $2, updated = $3', [record.to, record.at]);
      return;
    case 'issue.assigned':
      await set(record.key, 'assignee = $2, updated = $3', [record.to, record.at]);
      return;
    case 'issue.commented':
      await set(record.key, 'comment_text = comment_text || $2, updated = $3', [commentText([record.comment.body]), record.at]);
      return;
    case 'issue.sprint_changed':
      await set(record.key, 'sprint = $2, sprint_prefix = $3, sprint_number = $4, updated = $5', [
        record.to,
        ...sprintColumns(record.to),
        record.at,
      ]);
      return;
    case 'issue.parent_changed':
      await set(record.key, 'parent = $2', [record.to]);
      return;
    case 'issue.edited':
      await applyEdit(client, record);
      return;
    case 'issue.attachment_added':
      // The attachment's own time, never back (apply.ts applyAttachmentAdded).
      await set(record.key, 'updated = GREATEST(updated, $2)', [record.attachment.created_at]);
      return;
    case 'project.workflow_set':
      // The issues in a status the workflow drops move as the mapping says (apply.ts does the same in memory).
      for (const [from, to] of Object.entries(record.mapping ?? {})) {
        await client.query('UPDATE mcp_tracker_issues SET status = $3, updated = $4 WHERE project = $1 AND status = $2', [
          record.project,
          from,
          to,
          record.at,
        ]);
      }
      return;
    case 'sprint.closed':
      await client.query(
        'UPDATE mcp_tracker_issues SET sprint = $2, sprint_prefix = $3, sprint_number = $4, updated = $5 WHERE key = ANY($1)',
        [record.carried, record.carried_to, ...sprintColumns(record.carried_to), record.at],
      );
      return;
    default:
      return;
  }
}

/** The edited fields the table keeps, each with its columns and their values (of `fields`, the due date); story points are not searched. */
async function applyEdit(client: Client, record: RecordOf<'issue.edited'>): Promise<void> {
  const { title, description, type, priority, labels } = record.to;
  const values: unknown[] = [record.key, record.at];
  const assignments = ['updated = $2'];
  const assign = (column: string, value: unknown): void => {
    values.push(value);
    assignments.push(`${column} = $${values.length}`);
  };
  if (title !== undefined) {
    assign('title', title);
    assign('title_lower', title.toLowerCase());
  }
  if (description !== undefined) {
    assign('description', description);
    assign('description_lower', description.toLowerCase());
  }
  if (type !== undefined) assign('type', type);
  if (priority !== undefined) assign('priority', priority);
  if (labels !== undefined) assign('labels', labels);
  if (record.to.fields !== undefined) {
    const due = record.to.fields?.due;
    assign('due', typeof due === 'string' ? due : null);
  }
  await client.query(`UPDATE mcp_tracker_issues SET ${assignments.join(', ')} WHERE key = $1`, values);
}
