// Team mode's store on PostgreSQL: the domain suite against it, two stores on one database
// (as two instances are), a connection killed mid-transaction, the database going away and
// coming back, migrations, copying a journal in, and credentials never shown.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as plainTest } from 'uvu';
import * as assert from 'uvu/assert';
import { isDomainError, openStore, type ChangeEvent, type TrackerStore } from '../../lib/store/index.js';
import { copyJournal, openPostgresStore } from '../../lib/store/postgres/index.js';
import { SCHEMA_VERSION } from '../../lib/store/postgres/migrations.js';
import { UNAVAILABLE } from '../../lib/store/replica.js';
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

test.after(() => dropDatabases());

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
