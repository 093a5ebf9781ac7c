// The database schema, as numbered migrations applied in order at start (and by
// `mcp-tracker migrate`). The applied version is kept in mcp_tracker_meta; a database whose
// version is newer than this build knows is refused, untouched: an older binary must not
// write records a newer one has changed the meaning of.
//
// One table of records, not a table per entity: the tracker's state is what applying the
// records in order builds (apply.ts), the same on both backends, and each instance keeps it in
// memory (replica.ts). The revision is the record's seq, a primary key and not a sequence:
// a sequence leaves gaps when a transaction rolls back, and records must follow each other
// without a gap (check-record.ts checkRecord); the key makes the second writer of a revision fail.
//
// Version 2 adds a read table beside the records (issue-table.ts), for search in SQL. A
// database that already holds records gets its rows by replaying them through apply.ts in the
// migrating process, inside the migration's transaction: an instance that starts meanwhile
// waits on the migration lock and then finds the table complete.
//
// Version 3 adds the sprints and blocking links the ready view reads (ready-tables.ts), filled
// the same way. Version 4 adds the due date to the read table (ORDER BY due), filled the same way.
import type { PoolClient } from 'pg';
import { applyRecord } from '../changes/apply.js';
import type { JournalRecord } from '../model/record-schema.js';
import { createEmptyState } from '../state/state.js';
import { createTextIndex, DUE_COLUMN_SQL, insertIssues, ISSUE_TABLE_SQL } from './issue-table.js';
import { insertReadyRows, READY_TABLES_SQL } from './ready-tables.js';
import type { TrackerState } from '../state/state.js';

interface Migration {
  readonly version: number;
  readonly apply: (client: PoolClient) => Promise<void>;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    apply: async (client) => {
      await client.query(`CREATE TABLE mcp_tracker_records (
            revision bigint PRIMARY KEY CHECK (revision > 0),
            at timestamptz NOT NULL,
            type text NOT NULL,
            record jsonb NOT NULL
          )`);
    },
  },
  {
    version: 2,
    apply: async (client) => {
      for (const sql of ISSUE_TABLE_SQL) await client.query(sql);
      await createTextIndex(client);
      await backfillIssues(client);
    },
  },
  {
    version: 3,
    apply: async (client) => {
      for (const sql of READY_TABLES_SQL) await client.query(sql);
      await insertReadyRows(client, await replayRecords(client));
    },
  },
  {
    version: 4,
    apply: async (client) => {
      for (const sql of DUE_COLUMN_SQL) await client.query(sql);
      await backfillDue(client, await replayRecords(client));
    },
  },
];

/** Records read, and rows written, per statement of the backfill. */
const BACKFILL_BATCH = 1_000;

/** The state the records already there build (apply.ts), for a migration's backfill. */
async function replayRecords(client: PoolClient): Promise<TrackerState> {
  const state = createEmptyState();
  for (;;) {
    const result = await client.query<{ record: JournalRecord }>(
      'SELECT record FROM mcp_tracker_records WHERE revision > $1 ORDER BY revision LIMIT $2',
      [state.lastSeq, BACKFILL_BATCH],
    );
    for (const { record } of result.rows) applyRecord(state, record);
    if (result.rows.length < BACKFILL_BATCH) return state;
  }
}

/** The read table's rows for the records already there: the issues as apply.ts builds them. */
async function backfillIssues(client: PoolClient): Promise<void> {
  const state = await replayRecords(client);
  const issues = [...state.issues.values()];
  for (let start = 0; start < issues.length; start += BACKFILL_BATCH) {
    await insertIssues(client, issues.slice(start, start + BACKFILL_BATCH));
  }
}

/** The due dates of the issues the records already hold (version 4's column). */
async function backfillDue(client: PoolClient, state: TrackerState): Promise<void> {
  const due = [...state.issues.values()].filter((issue) => typeof issue.fields?.due === 'string');
  for (let start = 0; start < due.length; start += BACKFILL_BATCH) {
    const batch = due.slice(start, start + BACKFILL_BATCH);
    await client.query(
      'UPDATE mcp_tracker_issues AS issue SET due = t.due FROM unnest($1::text[], $2::text[]) AS t(key, due) WHERE issue.key = t.key',
      [batch.map((issue) => issue.key), batch.map((issue) => issue.fields?.due)],
    );
  }
}

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** Any two instances starting at once: one migrates, the other waits for it, then finds nothing to do. */
const MIGRATION_LOCK = 'mcp-tracker migrations';

/** Applies the migrations this database lacks; returns the versions applied. Throws on a newer schema. */
export async function migrate(client: PoolClient, shown: string): Promise<number[]> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS mcp_tracker_meta (key text PRIMARY KEY, value text NOT NULL)');
    const found = await client.query<{ value: string }>("SELECT value FROM mcp_tracker_meta WHERE key = 'schema_version'");
    const current = Number(found.rows[0]?.value ?? 0);
    if (current > SCHEMA_VERSION) {
      throw new Error(
        `the database ${shown} has schema version ${current}, newer than this mcp-tracker knows (${SCHEMA_VERSION}). Upgrade mcp-tracker; the database was left unchanged.`,
      );
    }
    const applied: number[] = [];
    for (const migration of MIGRATIONS.filter((m) => m.version > current)) {
      await migration.apply(client);
      applied.push(migration.version);
    }
    await client.query(
      `INSERT INTO mcp_tracker_meta (key, value) VALUES ('schema_version', $1)
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
      [String(Math.max(current, SCHEMA_VERSION))],
    );
    await client.query('COMMIT');
    return applied;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
