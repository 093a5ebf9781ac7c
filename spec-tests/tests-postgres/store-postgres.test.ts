// Team mode's store on PostgreSQL: the domain suite against it, two stores on one database
// (as two instances are), connections killed mid-transaction (an outside writer's, and ours in
// the middle of an append), the change feed's connection killed while a revision goes
// unannounced, the database going away and coming back, migrations, copying a journal in, and
// credentials never shown.
import { spawnSync } from 'node:child_process';
import pg from 'pg';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as plainTest } from 'uvu';
import * as assert from 'uvu/assert';
import { isDomainError, openStore, type ChangeEvent, type TrackerStore } from '../../lib/store/index.js';
import { copyJournal, openPostgresStore } from '../../lib/store/postgres/index.js';
import { openPgLog } from '../../lib/store/postgres/pg-log.js';
import type { JournalRecord } from '../../lib/store/model/record-schema.js';
import { SCHEMA_VERSION } from '../../lib/store/postgres/migrations.js';
import { openReplica, UNAVAILABLE } from '../../lib/store/postgres/replica.js';
import { storeOn } from '../../lib/store/store.js';
import { parsePostgresUrl } from '../../lib/store/store-url.js';
import { admin, dropDatabases, freshDatabase, freshStore, postgresTest } from './postgres-test-db.js';

const test = postgresTest('the PostgreSQL store tests');
const open = (url: string, watch = false): Promise<TrackerStore> =>
  openPostgresStore({ url, shown: 'the test database', log: () => {}, watch });

const until = async (check: () => boolean, what: string, ms = 5_000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

const eventually = async (check: () => Promise<boolean>, what: string): Promise<void> => {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

test.after(() => dropDatabases());

/** The backends LISTENing in a database: the change feeds. */
const listenerPids = (database: string): Promise<number[]> =>
  admin(async (client) => {
    const found = await client.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND query LIKE 'LISTEN %'",
      [database],
    );
    return found.rows.map((row) => row.pid);
  });

/** The backend in a database that waits on a lock, if any. */
const waitingOnLock = (database: string): Promise<number | undefined> =>
  admin(async (client) => {
    const found = await client.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'",
      [database],
    );
    return found.rows[0]?.pid;
  });

const headRevision = (url: string): Promise<number> =>
  admin(
    async (client) => Number((await client.query('SELECT max(revision) AS head FROM mcp_tracker_records')).rows[0].head),
    url,
  );

const comment = (id: number) => ({ id, author: 'bob', body: `comment ${id}`, created_at: new Date().toISOString() });

/** Runs a store suite of lib/tests with its stores on PostgreSQL. */
function passesOnPostgres(file: string, least: number): void {
  const run = spawnSync(
    process.execPath,
    ['node_modules/uvu/bin.js', '-r', 'tsx', 'lib/tests', `${file.replace(/\./g, '\\.')}$`],
    {
      encoding: 'utf8',
      timeout: 6 * 60_000,
      env: { ...process.env, MCP_TEST_STORE_BACKEND: 'postgres', FORCE_COLOR: '0' },
    },
  );
  const passed = /Passed:\s+(?:\x1b\[\d+m)*(\d+)/.exec(run.stdout)?.[1];
  const total = /Total:\s+(?:\x1b\[\d+m)*(\d+)/.exec(run.stdout)?.[1];
  assert.is(run.status, 0, run.stdout + run.stderr);
  assert.ok(Number(total) >= least && passed === total, `${passed} of ${total} passed`);
}

test('the domain suite (store-domain.test.ts) passes against PostgreSQL', () => passesOnPostgres('store-domain.test.ts', 20));

test('the sprint suite (store-sprints.test.ts) passes against PostgreSQL', () => passesOnPostgres('store-sprints.test.ts', 5));

test('the people suite (store-people.test.ts) passes against PostgreSQL', () => passesOnPostgres('store-people.test.ts', 8));

test('two stores on one database: no key given twice, every change heard by the other', async () => {
  const url = await freshStore();
  const [a, b] = [await open(url, true), await open(url, true)];
  const heardByB: ChangeEvent[] = [];
  b.onChange((event) => void heardByB.push(event));
  const created = await Promise.all(
    Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).createIssue({ project: 'WEB', title: `race ${i}` })),
  );
  const keys = created.map((m) => m.issue.key);
  assert.is(new Set(keys).size, 20, `keys given once each: ${keys.join(' ')}`);
  const moved = keys[0]!;
  await a.updateStatus(moved, 'in_progress');
  await until(
    () => heardByB.some((e) => e.issues.includes(moved) && e.source === 'external') && b.getIssue(moved).status === 'in_progress',
    'b to hear a',
  );
  assert.is(b.getIssue(moved).status, 'in_progress');
  // Both sides agree on everything.
  await until(() => b.listIssues({ limit: 100 }).total === a.listIssues({ limit: 100 }).total, 'b to catch up');
  assert.equal(b.listIssues({ limit: 100 }), a.listIssues({ limit: 100 }));
  a.close();
  b.close();
});

test('a connection killed mid-transaction leaves nothing half-written; the next write takes that revision', async () => {
  const url = await freshStore();
  const store = await open(url);
  const revision = await admin(async (client) => {
    const next = Number((await client.query('SELECT max(revision) AS head FROM mcp_tracker_records')).rows[0].head) + 1;
    await client.query('BEGIN');
    const record = {
      seq: next,
      at: new Date().toISOString(),
      type: 'issue.status_changed',
      key: 'PROJ-101',
      from: 'in_progress',
      to: 'in_review',
    };
    await client.query('INSERT INTO mcp_tracker_records (revision, at, type, record) VALUES ($1, $2, $3, $4)', [
      next,
      record.at,
      record.type,
      JSON.stringify(record),
    ]);
    // Killed from another connection before COMMIT, as a crash of the writer would.
    await admin(
      (killer) => killer.query('SELECT pg_terminate_backend($1)', [(client as unknown as { processID: number }).processID]),
      url,
    );
    await client.query('COMMIT').catch(() => undefined);
    return next;
  }, url).catch((error: Error) => error);
  assert.ok(typeof revision !== 'number' || revision > 0);
  const rows = await admin(
    (client) => client.query('SELECT count(*)::int AS n FROM mcp_tracker_records WHERE type = $1', ['issue.status_changed']),
    url,
  );
  assert.is(rows.rows[0].n, 0, 'the killed transaction wrote nothing');
  const moved = await store.updateStatus('PROJ-101', 'in_review');
  assert.is(moved.issue.status, 'in_review');
  const reopened = await open(url);
  assert.is(reopened.getIssue('PROJ-101').status, 'in_review');
  store.close();
  reopened.close();
});

/** The records in a database, in bytes as a journal file would hold them. */
const recordBytes = (url: string): Promise<number> =>
  admin(async (client) => {
    const found = await client.query<{ record: JournalRecord }>('SELECT record FROM mcp_tracker_records');
    return found.rows.reduce((sum, row) => sum + Buffer.byteLength(JSON.stringify(row.record)) + 1, 0);
  }, url);

test('the records have the size limit of a data file, counting every instance’s writes: past it a write is refused, nothing is written, reads go on', async () => {
  const url = await freshStore();
  const unlimited = await open(url, true);
  const limit = (await recordBytes(url)) + 600; // room for a status change and a short comment, not for a long one
  const limited = await openPostgresStore({ url, shown: 'the test database', log: () => {}, watch: true, maxBytes: limit });
  const comments = limited.getIssue('PROJ-101').comments.length;
  const refused = await limited.addComment('PROJ-101', { body: 'x'.repeat(700) }).then(
    () => null,
    (error: unknown) => error,
  );
  assert.ok(isDomainError(refused), String(refused));
  assert.is(refused.code, 'conflict');
  assert.match(refused.message, `have reached their size limit of ${limit} bytes`);
  assert.is(limited.getIssue('PROJ-101').comments.length, comments, 'reads go on; nothing was written');
  await limited.updateStatus('PROJ-101', 'in_review'); // a small write still fits
  // Another instance's writes count too: after its long comment, the limited one has no room left.
  await unlimited.addComment('PROJ-102', { body: 'y'.repeat(700) });
  const after = await limited.updateStatus('PROJ-101', 'in_progress').then(
    () => null,
    (error: unknown) => error,
  );
  assert.ok(isDomainError(after), `the other instance's record counts: ${String(after)}`);
  assert.ok((await recordBytes(url)) > limit, 'only the unlimited instance went past the limit');
  unlimited.close();
  limited.close();
});

test('the database going away: reads go on, writes fail with a clear error, and it recovers by itself', async () => {
  const url = await freshDatabase();
  const name = new URL(url).pathname.slice(1);
  const store = await open(url, true);
  const other = await open(url);
  const heard: string[] = [];
  store.onChange((event) => void heard.push(...event.issues));
  await admin(async (client) => {
    await client.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
  });
  assert.is(store.getIssue('PROJ-101').status, 'in_progress', 'reads are answered from memory');
  let failure: unknown = null;
  await store.updateStatus('PROJ-101', 'in_review').catch((error: unknown) => (failure = error));
  assert.ok(isDomainError(failure) && failure.message.startsWith(UNAVAILABLE), String(failure));
  await admin((client) => client.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`));
  const moved = await store.updateStatus('PROJ-101', 'in_review');
  assert.is(moved.issue.status, 'in_review', 'the next write works, with no restart');
  await other.addComment('PROJ-102', { body: 'after the outage' });
  await until(() => heard.includes('PROJ-102'), 'the feed to reconnect and bring the other store’s change', 15_000);
  store.close();
  other.close();
});

test('four writers at once take turns: none ever loses a race, so none needs a second attempt', async () => {
  const url = await freshStore();
  (await open(url)).close(); // seeded once, so the four below start on the same records
  const writers = await Promise.all(
    [1, 2, 3, 4].map(async () => {
      const log = await openPgLog({ url, shown: 'the test database', log: () => {} });
      return storeOn(await openReplica(log, { log: () => {}, now: () => new Date(), maxAttempts: 1 }), { log: () => {} });
    }),
  );
  try {
    const created = await Promise.all(
      writers.map(async (store, w) => {
        const keys: string[] = [];
        for (let i = 0; i < 25; i++)
          keys.push((await store.createIssue({ project: 'WEB', title: `writer ${w} ${i}` })).issue.key);
        return keys;
      }),
    );
    assert.is(new Set(created.flat()).size, 100, 'a hundred writes, each on its first attempt, no key twice');
  } finally {
    for (const store of writers) store.close();
  }
});

test('a newer schema: the server exits with the reason, and the database is left as it was', async () => {
  const url = await freshDatabase();
  (await open(url)).close();
  await admin((client) => client.query("UPDATE mcp_tracker_meta SET value = '99' WHERE key = 'schema_version'"), url);
  const before = await headRevision(url);
  const run = spawnSync(process.execPath, ['dist/mcp-tracker.mjs', '--store', url, '--http', '0'], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.is(run.status, 1, run.stderr);
  assert.match(run.stderr, /schema version 99, newer than this mcp-tracker knows/);
  assert.is(await headRevision(url), before, 'no record written');
  const version = await admin((client) => client.query("SELECT value FROM mcp_tracker_meta WHERE key = 'schema_version'"), url);
  assert.is(version.rows[0].value, '99', 'the version left as it was');
});

test('the change feed’s connection killed: it reconnects and reads the revision it was never told of', async () => {
  const url = await freshDatabase();
  const name = new URL(url).pathname.slice(1);
  const store = await open(url, true);
  const heard: string[] = [];
  store.onChange((event) => void heard.push(...event.issues));
  await eventually(async () => (await listenerPids(name)).length === 1, 'the feed to LISTEN');
  // A record committed without NOTIFY: only reading from the last applied revision finds it.
  await admin(async (client) => {
    const head = Number((await client.query('SELECT max(revision) AS head FROM mcp_tracker_records')).rows[0].head);
    const record = { seq: head + 1, at: new Date().toISOString(), type: 'issue.status_changed', key: 'PROJ-101' };
    await client.query('INSERT INTO mcp_tracker_records (revision, at, type, record) VALUES ($1, $2, $3, $4)', [
      head + 1,
      record.at,
      record.type,
      JSON.stringify({ ...record, from: 'in_progress', to: 'in_review' }),
    ]);
  }, url);
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.is(store.getIssue('PROJ-101').status, 'in_progress', 'not told, so not yet read');
  const [pid] = await listenerPids(name);
  await admin((client) => client.query('SELECT pg_terminate_backend($1)', [pid]));
  await until(() => heard.includes('PROJ-101'), 'the feed to reconnect and read the missed revision', 10_000);
  assert.is(store.getIssue('PROJ-101').status, 'in_review');
  const [again] = await listenerPids(name);
  assert.ok(again !== undefined && again !== pid, 'a new LISTEN connection');
  store.close();
});

test('our writer’s connection killed mid-append (one record in, waiting on the next): neither is there; the next write takes that revision', async () => {
  const url = await freshDatabase();
  const name = new URL(url).pathname.slice(1);
  const log = await openPgLog({ url, shown: 'the test database', log: () => {} });
  const store = await open(url);
  const head = await headRevision(url);
  const record = (seq: number) =>
    ({ seq, at: new Date().toISOString(), type: 'issue.commented', key: 'PROJ-101', comment: comment(seq) }) as JournalRecord;
  // Another transaction holds head + 2 uncommitted: the append inserts head + 1, then waits on the key of head + 2.
  const blocker = new pg.Client({ connectionString: url });
  await blocker.connect();
  await blocker.query('BEGIN');
  await blocker.query('INSERT INTO mcp_tracker_records (revision, at, type, record) VALUES ($1, now(), $2, $3)', [
    head + 2,
    'blocker',
    '{}',
  ]);
  const appending = log.append(head, [record(head + 1), record(head + 2)]).catch((error: Error) => error);
  let writer: number | undefined;
  await eventually(async () => (writer = await waitingOnLock(name)) !== undefined, 'the append to wait on the key');
  await admin((client) => client.query('SELECT pg_terminate_backend($1)', [writer]));
  assert.instance(await appending, Error, 'the append fails');
  await blocker.query('ROLLBACK');
  await blocker.end();
  assert.is(await headRevision(url), head, 'nothing of the killed transaction was written');
  const commented = await store.addComment('PROJ-101', { body: 'after the kill' });
  assert.is(commented.comment.body, 'after the kill');
  assert.is(await headRevision(url), head + 1, 'the next write took the revision');
  await log.close();
  store.close();
});

test('a database with a newer schema version is refused and left unchanged', async () => {
  const url = await freshStore();
  (await open(url)).close();
  await admin(
    (client) => client.query("UPDATE mcp_tracker_meta SET value = $1 WHERE key = 'schema_version'", [String(SCHEMA_VERSION + 1)]),
    url,
  );
  let failure: unknown = null;
  await open(url).catch((error: unknown) => (failure = error));
  assert.match(String(failure), /newer than this mcp-tracker knows/);
});

test('copy-journal: a journal file copied into an empty database opens with the same data; a second copy is refused', async () => {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'tracker-copy-'));
  const file = path.join(directory, 'tracker.jsonl');
  const journal = await openStore({ path: file, log: () => {}, watch: false });
  await journal.createIssue({ project: 'WEB', title: 'Moved to team mode' });
  await journal.addComment('PROJ-101', { body: 'kept' });
  const before = journal.listIssues({ limit: 100 });
  journal.close();
  const url = await freshStore();
  assert.ok((await copyJournal(file, url, 'the test database', () => {})) > 20);
  const team = await open(url);
  assert.equal(team.listIssues({ limit: 100 }), before);
  team.close();
  let failure: unknown = null;
  await copyJournal(file, url, 'the test database', () => {}).catch((error: unknown) => (failure = error));
  assert.match(String(failure), /already holds tracker records/);
  fs.rmSync(directory, { recursive: true, force: true });
});

plainTest('store URLs: the password never appears in what is shown', () => {
  const shown = parsePostgresUrl('postgres://alice:s3cret@db.example:5432/tracker?sslpassword=x').shown;
  assert.is(shown, 'postgres://alice:***@db.example:5432/tracker');
  assert.throws(
    () => parsePostgresUrl('mysql://alice:s3cret@db/x'),
    (error: Error) => !error.message.includes('s3cret'),
  );
  assert.throws(
    () => parsePostgresUrl('not a url s3cret'),
    (error: Error) => !error.message.includes('s3cret'),
  );
});

test.run();
