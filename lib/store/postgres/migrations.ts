// The database schema, as numbered migrations applied in order at start (and by
// `mcp-tracker migrate`). The applied version is kept in mcp_tracker_meta; a database whose
// version is newer than this build knows is refused, untouched: an older binary must not
// write records a newer one has changed the meaning of.
//
// One table of records, not a table per entity: the tracker's state is what applying the
// records in order builds (apply.ts), the same on both backends, and each instance keeps it in
// memory (replica.ts). The revision is the record's seq, a primary key and not a sequence:
// a sequence leaves gaps when a transaction rolls back, and records must follow each other
// without a gap (apply.ts checkRecord); the key makes the second writer of a revision fail.
import type { PoolClient } from 'pg';

interface Migration {
  readonly version: number;
  readonly sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `CREATE TABLE mcp_tracker_records (
            revision bigint PRIMARY KEY CHECK (revision > 0),
            at timestamptz NOT NULL,
            type text NOT NULL,
            record jsonb NOT NULL
          )`,
  },
];

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
      await client.query(migration.sql);
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
