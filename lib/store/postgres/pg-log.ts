// The records in PostgreSQL (record-log.ts RecordLog), through the `pg` client library.
//
// - Appends: one transaction per batch; a record whose revision another writer already took
//   violates the primary key, the transaction rolls back, and append answers false (nothing of
//   it was written). pg_notify in the same transaction is delivered only if it commits.
// - Writes in turn (appendInTurn): the transaction first takes the writers' lock, then reads
//   what others appended and lets the caller plan on it, so a write never loses a race. Without
//   it, an instance that just won plans its next write on a state it already has, while the
//   loser must read first: under steady load the loser can lose every time (the bench's four
//   instances made a write give up after 20 lost races in a row).
// - The change feed: a connection of its own that LISTENs on one channel; the payload is the
//   newest revision. When that connection drops, it reconnects with growing pauses and then
//   reports null, so the replica reads everything after the revision it has: revision numbers
//   tell it what it missed, not hope.
// - Every other query goes through a bounded pool with timeouts, so a database that stops
//   answering turns into errors within bounded time instead of requests that hang.
import pg from 'pg';
import type { Logger } from '../model/log.js';
import type { RecordLog } from '../backend/record-log.js';
import type { JournalRecord } from '../model/record-schema.js';
import { applyToIssueTable } from './issue-table.js';
import { applyToReadyTables } from './ready-tables.js';
import { migrate } from './migrations.js';
import { searchPage, type SqlPage, type SqlPageRequest } from './sql-search.js';

export const CHANGE_CHANNEL = 'mcp_tracker_records';

export interface PgLogOptions {
  /** The URL given to pg; never printed. */
  readonly url: string;
  /** The URL without credentials, for messages. */
  readonly shown: string;
  readonly log: Logger;
  /** Connections in the pool. Default: 10. */
  readonly maxConnections?: number;
  /** How long to wait for a connection, and for one statement. Default: 5000 ms. */
  readonly timeoutMs?: number;
}

const DEFAULTS = { maxConnections: 10, timeoutMs: 5_000 };
/** The pauses between attempts to reconnect the change feed grow up to this. */
const MAX_RECONNECT_PAUSE_MS = 5_000;
const UNIQUE_VIOLATION = '23505';
/** Writers take this transaction lock in turn (PostgreSQL queues them in order), so none starves. */
const WRITERS_LOCK = 'mcp-tracker writers';
/** Records read per query inside a writer's turn. */
const MISSED_BATCH = 1_000;

/** The records, and searches of the issues read table beside them (sql-search.ts) through the same pool. */
export interface PgLog extends RecordLog {
  searchPage(request: SqlPageRequest): Promise<SqlPage>;
}

/** Opens the pool, applies missing migrations (refusing a newer schema), and returns the log. */
export async function openPgLog(options: PgLogOptions): Promise<PgLog> {
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const config: pg.PoolConfig = {
    connectionString: options.url,
    max: options.maxConnections ?? DEFAULTS.maxConnections,
    connectionTimeoutMillis: timeoutMs,
    idleTimeoutMillis: 30_000,
    statement_timeout: timeoutMs,
    query_timeout: timeoutMs + 1_000,
    application_name: 'mcp-tracker',
  };
  const pool = new pg.Pool(config);
  // An idle connection the server closes is reported here; unheard, it would end the process.
  pool.on('error', (error) => options.log('warn', `${options.shown}: an idle connection failed (${error.message})`));
  const client = await pool.connect().catch(async (error: Error) => {
    await pool.end();
    throw error;
  });
  try {
    const applied = await migrate(client, options.shown);
    if (applied.length > 0) options.log('info', `${options.shown}: applied schema migrations ${applied.join(', ')}`);
  } catch (error) {
    client.release();
    await pool.end();
    throw error;
  }
  client.release();
  return pgLog(pool, config, options);
}

function pgLog(pool: pg.Pool, config: pg.PoolConfig, options: PgLogOptions): PgLog {
  let stopFeed = (): void => {};
  return {
    name: options.shown,

    searchPage: (request) => searchPage(pool, request),

    async readSince(revision, limit) {
      const result = await pool.query<{ record: JournalRecord }>(
        'SELECT record FROM mcp_tracker_records WHERE revision > $1 ORDER BY revision LIMIT $2',
        [revision, limit],
      );
      return result.rows.map((row) => row.record);
    },

    append(expected, records) {
      return inTransaction(pool, async (client) => {
        await insertRecords(client, expected, records);
        return true;
      });
    },

    appendInTurn(revision, write) {
      return inTransaction(pool, async (client) => {
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [WRITERS_LOCK]);
        const missed: JournalRecord[] = [];
        for (;;) {
          const result = await client.query<{ record: JournalRecord }>(
            'SELECT record FROM mcp_tracker_records WHERE revision > $1 ORDER BY revision LIMIT $2',
            [revision + missed.length, MISSED_BATCH],
          );
          missed.push(...result.rows.map((row) => row.record));
          if (result.rows.length < MISSED_BATCH) break;
        }
        const records = write(missed);
        if (records.length > 0) await insertRecords(client, revision + missed.length, records);
        return true;
      });
    },

    watch(onRevision) {
      stopFeed();
      stopFeed = listen(config, options, onRevision);
      return () => stopFeed();
    },

    async close() {
      stopFeed();
      await pool.end();
    },
  };
}

/**
 * Runs `work` in one transaction on a pooled connection. A record whose revision another
 * writer took violates the primary key: the transaction rolls back and this resolves false.
 */
async function inTransaction(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<true>): Promise<boolean> {
  const client = await pool.connect();
  let broken = false;
  // A connection lost while checked out fails its query; without a listener its 'error' event would end the process.
  const lost = (): void => void (broken = true);
  client.on('error', lost);
  try {
    await client.query('BEGIN');
    await work(client);
    await client.query('COMMIT');
    return true;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => (broken = true));
    if ((error as { code?: unknown }).code === UNIQUE_VIOLATION) return false;
    broken = true;
    throw error;
  } finally {
    // A connection whose transaction state is unknown is closed, not handed to the next caller.
    client.off('error', lost);
    client.release(broken);
  }
}

/**
 * Inserts records following `expected`, in one statement (a batch of copy-journal is one round
 * trip, not one per record), brings the issues read table along in the same transaction
 * (issue-table.ts), and notifies the listeners at commit (pg_notify waits for it).
 */
async function insertRecords(client: pg.PoolClient, expected: number, records: readonly JournalRecord[]): Promise<void> {
  for (const [index, record] of records.entries()) {
    if (record.seq !== expected + index + 1) throw new Error(`record seq ${record.seq} does not follow ${expected + index}`);
  }
  await client.query(
    `INSERT INTO mcp_tracker_records (revision, at, type, record)
     SELECT * FROM unnest($1::bigint[], $2::timestamptz[], $3::text[], $4::jsonb[])`,
    [
      records.map((record) => record.seq),
      records.map((record) => record.at),
      records.map((record) => record.type),
      records.map((record) => JSON.stringify(record)),
    ],
  );
  await applyToIssueTable(client, records);
  for (const record of records) await applyToReadyTables(client, record);
  await client.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, String(expected + records.length)]);
}

/** Keeps one LISTEN connection open, reconnecting when it drops. Returns the function that stops it. */
function listen(config: pg.PoolConfig, options: PgLogOptions, onRevision: (revision: number | null) => void): () => void {
  let stopped = false;
  let client: pg.Client | null = null;
  let pause = 100;
  let timer: NodeJS.Timeout | undefined;

  const retry = (reason: string): void => {
    if (stopped || timer !== undefined) return;
    options.log('warn', `${options.shown}: the change feed is down (${reason}); reconnecting in ${pause} ms`);
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, pause);
    pause = Math.min(pause * 2, MAX_RECONNECT_PAUSE_MS);
  };

  async function connect(): Promise<void> {
    const next = new pg.Client({ ...config, keepAlive: true });
    next.on('error', (error) => {
      next.end().catch(() => undefined);
      if (client === next) client = null;
      retry(error.message);
    });
    next.on('end', () => {
      if (client === next) client = null;
      retry('the connection closed');
    });
    next.on('notification', (note) => {
      const revision = Number(note.payload);
      onRevision(Number.isSafeInteger(revision) ? revision : null);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANGE_CHANNEL}`);
    } catch (error) {
      next.removeAllListeners('end');
      next.end().catch(() => undefined);
      retry((error as Error).message);
      return;
    }
    if (stopped) {
      void next.end().catch(() => undefined);
      return;
    }
    client = next;
    pause = 100;
    onRevision(null); // whatever was appended while we were not listening
  }

  void connect();
  return () => {
    stopped = true;
    clearTimeout(timer);
    const last = client;
    client = null;
    last?.removeAllListeners('end');
    void last?.end().catch(() => undefined);
  };
}
