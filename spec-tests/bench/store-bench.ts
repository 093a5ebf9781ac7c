// First reading: skip this file. It is performance or flow-control code, the last step of the reading path in docs/reading-path.md.
// Store benchmark: npx tsx spec-tests/bench/store-bench.ts [sizes...]   (default: 1000 100000)
//
// For each size, writes a journal with that many issues (plus some history:
// status changes and comments, as a real journal would have), then measures
// the open with no snapshot (a replay) and the writing of the snapshot at its
// close, open time from that snapshot, mutation latency (each one a durable append: write + fdatasync),
// search, list-page and completion latency, and prints a table; then, for the query language,
// the first query (which builds the field and word indexes), the first by time (which builds
// the time indexes) and the p50 of each of ten representative queries, with the answer's size
// and first keys.
//
// This is a command-line tool, not the server, so it prints its report to
// stdout. Data goes to a temporary directory that is removed afterwards.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { alignedTable, percentile } from './store-report.js';
import { createJournal } from '../../lib/store/journal/journal.js';
import { silentLogger } from '../../lib/store/model/log.js';
import type { Issue } from '../../lib/store/model/schema.js';
import type { RecordDraft } from '../../lib/store/model/record-schema.js';
import { openStore, type TrackerStore } from '../../lib/store/index.js';

/** Ten queries of the kinds people write: by field, by word, by date, ordered. */
const JQL_QUERIES = [
  'status = todo AND assignee = alice',
  'priority IN (P0, P1) AND sprint IN openSprints()',
  'assignee IS EMPTY AND status != done',
  'text ~ checkout',
  'text ~ "payment latency" AND priority = P0',
  'labels = refund AND status = in_progress',
  'created >= -7d',
  'sprint = PROJ-S4 ORDER BY priority, updated DESC',
  '(assignee = bob OR reporter = bob) AND NOT status = done ORDER BY created DESC',
  'project = PROJ ORDER BY key DESC',
];

interface JqlRow {
  readonly query: string;
  readonly total: number;
  readonly firstKeys: readonly string[];
  readonly p50: number;
}

interface Row {
  readonly issues: number;
  readonly fileMb: number;
  /** The open from the snapshot a clean close left. */
  readonly openMs: number;
  /** The open with no snapshot: a replay of every record. */
  readonly replayMs: number;
  /** The clean close after the replay: writing the snapshot. */
  readonly snapshotWriteMs: number;
  readonly mutationP50: number;
  readonly mutationP99: number;
  readonly searchP50: number;
  readonly listP50: number;
  readonly completeP50: number;
  /** The first query: it builds the field and word indexes. */
  readonly firstQueryMs: number;
  /** The first query by time: it builds the time indexes (created, updated). */
  readonly firstTimeQueryMs: number;
  readonly jql: readonly JqlRow[];
}

const PRIORITIES = ['P0', 'P1', 'P2', 'P3'] as const;
const PEOPLE = ['alice', 'bob', 'carol', 'dmitri', 'priya', 'sam', 'tomas', 'yuki'];
const WORDS = ['checkout', 'payment', 'webhook', 'latency', 'refund', 'mobile', 'search', 'cache', 'login', 'export'];

async function main(): Promise<void> {
  const sizes = process.argv
    .slice(2)
    .map(Number)
    .filter((n) => n > 0);
  const rows: Row[] = [];
  for (const size of sizes.length > 0 ? sizes : [1_000, 100_000]) rows.push(await benchmark(size));
  process.stdout.write(formatTable(rows));
  for (const row of rows) process.stdout.write(formatJqlTable(row));
}

async function benchmark(issueCount: number): Promise<Row> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'tracker-bench-'));
  const file = path.join(directory, 'tracker.jsonl');
  try {
    createJournal(file, syntheticJournal(issueCount), new Date());
    const fileMb = fs.statSync(file).size / 1e6;
    collectGarbage(); // so the open is not charged for the generator's garbage
    // The first open replays the whole journal (there is no snapshot yet); its clean close
    // writes the snapshot (journal-snapshot.ts) that the open after it, as a server restart
    // does, reads instead.
    const replayed = await timed(() => openStore({ path: file, log: silentLogger, watch: false }));
    const closeStart = performance.now();
    replayed.value.close();
    const snapshotWriteMs = performance.now() - closeStart;
    collectGarbage();
    const opened = await timed(() => openStore({ path: file, log: silentLogger, watch: false }));
    const openMs = opened.ms;
    const store = opened.value;
    try {
      // Before anything else has built the indexes; the mutations after it keep them up to date.
      const firstQueryMs = median(measureSync(1, () => store.searchIssues({ query: 'text ~ webhook AND status = todo' })));
      const firstTimeQueryMs = median(
        measureSync(1, () => store.searchIssues({ query: 'updated >= -30d ORDER BY created DESC' })),
      );
      const mutations = await measureMutations(store, issueCount);
      return {
        issues: issueCount,
        fileMb,
        openMs,
        replayMs: replayed.ms,
        snapshotWriteMs,
        mutationP50: percentile(mutations, 50),
        mutationP99: percentile(mutations, 99),
        searchP50: median(measureSync(50, (i) => store.searchIssues(searchQuery(i)))),
        listP50: median(measureSync(50, (i) => store.listIssues({ offset: (i * 997) % issueCount, limit: 50 }))),
        completeP50: median(measureSync(50, (i) => store.completeIssueKeys(`PROJ-${(i % 9) + 1}`))),
        firstQueryMs,
        firstTimeQueryMs,
        jql: JQL_QUERIES.map((query) => measureQuery(store, query)),
      };
    } finally {
      store.close();
    }
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

/** One project, a few sprints, `count` issues, and history on a tenth of them. */
function syntheticJournal(count: number): RecordDraft[] {
  const drafts: RecordDraft[] = [
    { type: 'project.created', project: { key: 'PROJ', name: 'Bench', description: '', lead: 'alice' } },
  ];
  for (let s = 1; s <= 5; s++) {
    const state = s < 4 ? 'closed' : s === 4 ? 'active' : 'future';
    drafts.push({
      type: 'sprint.created',
      sprint: {
        id: `PROJ-S${s}`,
        name: `Sprint ${s}`,
        project: 'PROJ',
        state,
        start_date: '2025-01-01',
        end_date: '2025-01-14',
        goal: '',
      },
    });
  }
  const at = new Date().toISOString();
  // Created over the last 60 days, so date queries have something to tell apart.
  const now = Date.now();
  for (let n = 1; n <= count; n++) {
    const created = new Date(now - (n % 60) * 86_400_000).toISOString();
    drafts.push({ type: 'issue.created', issue: syntheticIssue(n, created) });
  }
  for (let n = 1; n <= count; n += 10) {
    drafts.push({ type: 'issue.status_changed', key: `PROJ-${n}`, from: 'todo', to: 'in_progress' });
    drafts.push({
      type: 'issue.commented',
      key: `PROJ-${n}`,
      comment: { id: 1, author: 'bob', body: `Looked at the ${pick(WORDS, n + 3)} part.`, created_at: at },
    });
  }
  return drafts;
}

function syntheticIssue(n: number, at: string): Issue {
  return {
    key: `PROJ-${n}`,
    project: 'PROJ',
    title: `Improve ${pick(WORDS, n)} handling for ${pick(WORDS, n * 7)} (${n})`,
    description: `When the ${pick(WORDS, n * 3)} service is slow, the ${pick(WORDS, n * 5)} page times out. Steps to reproduce and logs are attached.`,
    type: 'task',
    status: 'todo',
    priority: pick(PRIORITIES, n),
    assignee: n % 5 === 0 ? null : pick(PEOPLE, n),
    reporter: pick(PEOPLE, n + 1),
    story_points: n % 4 === 0 ? null : (n % 8) + 1,
    sprint: n % 3 === 0 ? null : `PROJ-S${(n % 5) + 1}`,
    labels: [pick(WORDS, n), pick(WORDS, n + 1)],
    comments: [],
    created_at: at,
    updated_at: at,
  };
}

/** p50 over 20 runs; each asks for another page (offset), since the same question again is answered from a cache. */
function measureQuery(store: TrackerStore, query: string): JqlRow {
  const first = store.searchIssues({ query, limit: 5 });
  const p50 = median(measureSync(20, (i) => store.searchIssues({ query, offset: i + 1, limit: 20 })));
  return { query, total: first.total, firstKeys: first.items.map((issue) => issue.key), p50 };
}

async function measureMutations(store: TrackerStore, issueCount: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < 200; i++) {
    const key = `PROJ-${((i * 7919) % issueCount) + 1}`;
    // A status change the workflow allows from where the issue is now.
    const next = pick(store.getTransitions(key), i);
    const run =
      i % 2 === 0
        ? () => store.updateStatus(key, next)
        : () => store.addComment(key, { body: `bench comment ${i}`, author: 'bob' });
    times.push((await timed(run)).ms);
  }
  return times;
}

/** A different query every time (the offset, at least): the same one again is answered from a cache. */
function searchQuery(i: number) {
  const queries = [
    { text: pick(WORDS, i) },
    { text: `${pick(WORDS, i)} ${pick(WORDS, i + 1)}`, status: 'todo' },
    { status: ['todo', 'in_progress'], priority: 'P0' },
    { assignee: pick(PEOPLE, i), sprint: 'PROJ-S4' },
    { label: pick(WORDS, i) },
  ];
  return { ...queries[i % queries.length], offset: i };
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await run();
  return { value, ms: performance.now() - start };
}

function measureSync(times: number, run: (i: number) => unknown): number[] {
  const results: number[] = [];
  for (let i = 0; i < times; i++) {
    const start = performance.now();
    run(i);
    results.push(performance.now() - start);
  }
  return results;
}

/** The bench's only trick: expose V8's gc() at run time instead of asking for --expose-gc. */
function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  gc();
}

function pick<T>(items: readonly T[], n: number): T {
  return items[n % items.length] as T;
}

function median(values: readonly number[]): number {
  return percentile(values, 50);
}

function formatJqlTable(row: Row): string {
  const lines = [
    '',
    `JQL at ${row.issues} issues: the first query (it builds the field and word indexes) ${row.firstQueryMs.toFixed(0)} ms,`,
    `the first by time (it builds the time indexes) ${row.firstTimeQueryMs.toFixed(0)} ms; then, p50 of 20 runs each:`,
    ...row.jql.map(
      (q) =>
        `  ${q.p50.toFixed(2).padStart(7)} ms  ${String(q.total).padStart(6)} found  ${q.query}  [${q.firstKeys.join(', ')}]`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

function formatTable(rows: readonly Row[]): string {
  const header = [
    'issues',
    'file MB',
    'open ms',
    'mutation p50 ms',
    'mutation p99 ms',
    'search p50 ms',
    'list p50 ms',
    'complete p50 ms',
    'replay ms',
    'snapshot write ms',
  ];
  const cells = rows.map((r) => [
    String(r.issues),
    r.fileMb.toFixed(1),
    r.openMs.toFixed(0),
    r.mutationP50.toFixed(2),
    r.mutationP99.toFixed(2),
    r.searchP50.toFixed(2),
    r.listP50.toFixed(2),
    r.completeP50.toFixed(2),
    r.replayMs.toFixed(0),
    r.snapshotWriteMs.toFixed(0),
  ]);
  return alignedTable(header, cells);
}

await main();
