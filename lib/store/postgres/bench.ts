// First reading: skip this file. It is performance code, the last chapter of the reading path in README.md.
// The two backends side by side: npx tsx lib/store/postgres/bench.ts POSTGRES_URL [sizes...]
// (default sizes: 1000 100000; the URL's user must be allowed to create databases).
//
// For each size and backend: load time (writing the issues: the journal file, then copy-journal
// into PostgreSQL, batched transactions of 500 records), open time (a server start: reading every record), mutation
// latency (each one durable: fdatasync of the journal, or a committed transaction), search
// latency, and notification latency between two stores on the same data (two instances):
// from a mutation sent to one until the other's change listener hears of it (spec-tests/bench
// team-instances.ts measures the same across processes, to a subscribed client). The
// journal's second store hears through its file watcher, PostgreSQL's through LISTEN/NOTIFY.
// Prints a table on stdout; each database and file is removed afterwards.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { alignedTable, percentile } from '../bench-report.js';
import { createJournal } from '../journal.js';
import { silentLogger } from '../log.js';
import type { Issue, RecordDraft } from '../schema.js';
import { openStore, type TrackerStore } from '../store.js';
import { copyJournal, openPostgresStore } from './index.js';

const WORDS = ['checkout', 'payment', 'webhook', 'latency', 'refund', 'mobile', 'search', 'cache', 'login', 'export'];

interface Row {
  readonly backend: string;
  readonly issues: number;
  readonly loadS: number;
  readonly openMs: number;
  readonly mutationP50: number;
  readonly mutationP99: number;
  readonly searchP50: number;
  readonly notifyP50: number;
  readonly notifyMax: number;
}

async function main(): Promise<void> {
  const [url, ...rest] = process.argv.slice(2);
  if (url === undefined) throw new Error('usage: npx tsx lib/store/postgres/bench.ts POSTGRES_URL [sizes...]');
  const sizes = rest.map(Number).filter((n) => n > 0);
  const rows: Row[] = [];
  for (const size of sizes.length > 0 ? sizes : [1_000, 100_000]) {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'tracker-backends-'));
    const file = path.join(directory, 'tracker.jsonl');
    const database = `tracker_bench_${process.pid}_${size}`;
    try {
      const journalLoad = performance.now();
      createJournal(file, synthetic(size), new Date());
      const journalLoadS = (performance.now() - journalLoad) / 1000;
      const journalOpen = (): Promise<TrackerStore> => openStore({ path: file, log: silentLogger });
      rows.push(await measure('journal', size, journalLoadS, journalOpen));
      await admin(url, `CREATE DATABASE ${database}`);
      const target = new URL(url);
      target.pathname = `/${database}`;
      const copyStart = performance.now();
      await copyJournal(file, target.href, database, silentLogger);
      const copyS = (performance.now() - copyStart) / 1000;
      const postgresOpen = (): Promise<TrackerStore> =>
        openPostgresStore({ url: target.href, shown: database, log: silentLogger });
      rows.push(await measure('postgres', size, copyS, postgresOpen));
    } finally {
      fs.rmSync(directory, { recursive: true, force: true });
      await admin(url, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    }
  }
  process.stdout.write(table(rows));
}

async function measure(backend: string, issues: number, loadS: number, open: () => Promise<TrackerStore>): Promise<Row> {
  const start = performance.now();
  const writer = await open();
  const openMs = performance.now() - start;
  const listener = await open();
  try {
    const mutations: number[] = [];
    for (let i = 0; i < 200; i++) {
      const began = performance.now();
      await writer.addComment(`PROJ-${((i * 7919) % issues) + 1}`, { body: `bench ${i}`, author: 'bob' });
      mutations.push(performance.now() - began);
    }
    const searches: number[] = [];
    for (let i = 0; i < 50; i++) {
      const began = performance.now();
      writer.searchIssues({ text: WORDS[i % WORDS.length]!, offset: i });
      searches.push(performance.now() - began);
    }
    const notifications: number[] = [];
    for (let i = 0; i < 50; i++) notifications.push(await notificationLatency(writer, listener, `PROJ-${i + 1}`));
    return {
      backend,
      issues,
      loadS,
      openMs,
      mutationP50: percentile(mutations, 50),
      mutationP99: percentile(mutations, 99),
      searchP50: percentile(searches, 50),
      notifyP50: percentile(notifications, 50),
      notifyMax: percentile(notifications, 100),
    };
  } finally {
    writer.close();
    listener.close();
  }
}

/** From the write's send until the other store hears of it (it may hear before the writer's acknowledgement arrives). */
async function notificationLatency(writer: TrackerStore, listener: TrackerStore, key: string): Promise<number> {
  let heardAt = 0;
  const stop = listener.onChange((event) => {
    if (event.issues.includes(key)) heardAt = performance.now();
  });
  const sent = performance.now();
  await writer.addComment(key, { body: 'heard?', author: 'bob' });
  while (heardAt === 0) await new Promise((resolve) => setTimeout(resolve, 1));
  stop();
  return heardAt - sent;
}

async function admin(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function synthetic(count: number): RecordDraft[] {
  const at = new Date().toISOString();
  const drafts: RecordDraft[] = [
    { type: 'project.created', project: { key: 'PROJ', name: 'Bench', description: '', lead: 'alice' } },
  ];
  for (let n = 1; n <= count; n++) drafts.push({ type: 'issue.created', issue: issue(n, at) });
  return drafts;
}

function issue(n: number, at: string): Issue {
  const word = (k: number): string => WORDS[k % WORDS.length]!;
  return {
    key: `PROJ-${n}`,
    project: 'PROJ',
    title: `Improve ${word(n)} handling for ${word(n * 7)} (${n})`,
    description: `When the ${word(n * 3)} service is slow, the ${word(n * 5)} page times out.`,
    type: 'task',
    status: 'todo',
    priority: 'P2',
    assignee: null,
    reporter: 'alice',
    story_points: null,
    sprint: null,
    labels: [word(n)],
    comments: [],
    created_at: at,
    updated_at: at,
  };
}

function table(rows: readonly Row[]): string {
  const header = [
    'backend',
    'issues',
    'load s',
    'open ms',
    'mutation p50 ms',
    'mutation p99 ms',
    'search p50 ms',
    'notify p50 ms',
    'notify max ms',
  ];
  const cells = rows.map((r) => [
    r.backend,
    String(r.issues),
    r.loadS.toFixed(1),
    r.openMs.toFixed(0),
    r.mutationP50.toFixed(2),
    r.mutationP99.toFixed(2),
    r.searchP50.toFixed(2),
    r.notifyP50.toFixed(1),
    r.notifyMax.toFixed(1),
  ]);
  return alignedTable(header, cells);
}

await main();
