// First reading: skip this file. It is performance code, the last step of the reading path in docs/reading-path.md.
// The two backends side by side, as a module: backends-bench.ts runs it from the command line, and
// spec-tests/bench (team-figures.ts) calls it for `npm run bench -- --postgres URL`, so the
// measurements and their table exist once.
//
// For each size and backend: load time (writing the issues: the journal file, then copy-journal
// into PostgreSQL, batched transactions of 500 records), open time (a server start: reading every record), mutation
// latency (each one durable: fdatasync of the journal, or a committed transaction), search
// latency, and notification latency between two stores on the same data (two instances):
// from a mutation sent to one until the other's change listener hears of it (spec-tests/bench
// team-instances.ts measures the same across processes, to a subscribed client). The
// journal's second store hears through its file watcher, PostgreSQL's through LISTEN/NOTIFY.
//
// Search is measured on each backend's own path (searchIssuesYielding: on PostgreSQL, SQL over
// the issues read table) and, on PostgreSQL, also on the replica in memory (searchIssues),
// the same searches both ways. Each database and file is removed afterwards.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { alignedTable, percentile } from './store-report.js';
import { createJournal } from '../../lib/store/journal/journal.js';
import { silentLogger } from '../../lib/store/model/log.js';
import type { Issue } from '../../lib/store/model/schema.js';
import type { RecordDraft } from '../../lib/store/model/record-schema.js';
import { openStore, type TrackerStore } from '../../lib/store/index.js';
import { copyJournal, openPostgresStore } from '../../lib/store/postgres/index.js';

const WORDS = ['checkout', 'payment', 'webhook', 'latency', 'refund', 'mobile', 'search', 'cache', 'login', 'export'];

/** One backend at one size; times in milliseconds except the load. */
export interface BackendRow {
  readonly backend: string;
  readonly issues: number;
  readonly loadS: number;
  readonly openMs: number;
  readonly mutationP50Ms: number;
  readonly mutationP99Ms: number;
  /** The backend's own search path: memory for the journal, SQL for PostgreSQL. */
  readonly searchP50Ms: number;
  /** PostgreSQL only: the same searches on the replica in memory. */
  readonly replicaSearchP50Ms: number | null;
  readonly notifyP50Ms: number;
  readonly notifyMaxMs: number;
}

/** Measures both backends at each size; `log` hears what is being done. */
export async function measureBackends(
  url: string,
  sizes: readonly number[],
  log: (line: string) => void = () => {},
): Promise<BackendRow[]> {
  const rows: BackendRow[] = [];
  for (const size of sizes) {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'tracker-backends-'));
    const file = path.join(directory, 'tracker.jsonl');
    const database = `tracker_bench_${process.pid}_${size}`;
    try {
      log(`backends: the journal at ${size} issues`);
      const journalLoad = performance.now();
      createJournal(file, synthetic(size), new Date());
      const journalLoadS = (performance.now() - journalLoad) / 1000;
      const journalOpen = (): Promise<TrackerStore> => openStore({ path: file, log: silentLogger });
      rows.push(await measure('journal', size, journalLoadS, journalOpen));
      log(`backends: PostgreSQL at ${size} issues`);
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
  return rows;
}

/** The searches measured: words of the synthetic text, and queries of the language with an order. */
const SEARCHES = WORDS.flatMap((word, i) => [
  { text: word, offset: i },
  { query: `text ~ ${word} AND status = todo ORDER BY updated DESC`, offset: i },
]);

async function measure(backend: string, issues: number, loadS: number, open: () => Promise<TrackerStore>): Promise<BackendRow> {
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
    const replicaSearches: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (const search of SEARCHES) {
        const query = { ...search, offset: search.offset + round };
        const began = performance.now();
        await writer.searchIssuesYielding(query);
        searches.push(performance.now() - began);
        if (backend !== 'postgres') continue;
        const inMemory = performance.now();
        writer.searchIssues(query);
        replicaSearches.push(performance.now() - inMemory);
      }
    }
    const notifications: number[] = [];
    for (let i = 0; i < 50; i++) notifications.push(await notificationLatency(writer, listener, `PROJ-${i + 1}`));
    return {
      backend,
      issues,
      loadS,
      openMs,
      mutationP50Ms: percentile(mutations, 50),
      mutationP99Ms: percentile(mutations, 99),
      searchP50Ms: percentile(searches, 50),
      replicaSearchP50Ms: replicaSearches.length === 0 ? null : percentile(replicaSearches, 50),
      notifyP50Ms: percentile(notifications, 50),
      notifyMaxMs: percentile(notifications, 100),
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

/** Runs one statement as the URL's user on its own database (CREATE and DROP DATABASE for the benches). */
export async function admin(url: string, sql: string): Promise<void> {
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

/** The rows as the one table both runners print. */
export function backendsTable(rows: readonly BackendRow[]): string {
  const header = [
    'backend',
    'issues',
    'load s',
    'open ms',
    'mutation p50 ms',
    'mutation p99 ms',
    'search p50 ms',
    'in memory p50 ms',
    'notify p50 ms',
    'notify max ms',
  ];
  const cells = rows.map((r) => [
    r.backend,
    String(r.issues),
    r.loadS.toFixed(1),
    r.openMs.toFixed(0),
    r.mutationP50Ms.toFixed(2),
    r.mutationP99Ms.toFixed(2),
    r.searchP50Ms.toFixed(2),
    r.replicaSearchP50Ms === null ? '-' : r.replicaSearchP50Ms.toFixed(2),
    r.notifyP50Ms.toFixed(1),
    r.notifyMaxMs.toFixed(1),
  ]);
  return alignedTable(header, cells);
}
