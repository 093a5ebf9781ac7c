// Several writers on one data file, and crashes.
//
// This file is also the child program of its own tests: run with
// STORE_TEST_CHILD set, it opens the store and performs mutations, printing
// one "ack" line on stdout after each mutation has returned (= acknowledged).
// The parent then checks that nothing acknowledged was lost.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isDomainError, openStore, type ChangeEvent, type TrackerStore } from '../store/index.js';

interface ChildPlan {
  readonly file: string;
  readonly name: string;
  readonly seed: number;
  /** How many mutations; null: until killed. */
  readonly mutations: number | null;
}

type Ack =
  | { readonly kind: 'created'; readonly key: string; readonly title: string }
  | { readonly kind: 'commented'; readonly key: string; readonly body: string }
  | { readonly kind: 'other' };

const THIS_FILE = fileURLToPath(import.meta.url);
const childPlan = process.env['STORE_TEST_CHILD'];

if (childPlan === undefined) defineTests();
else
  runChild(JSON.parse(childPlan) as ChildPlan).catch((error: unknown) => {
    process.stderr.write(`child failed: ${(error as Error).stack}\n`);
    process.exit(1);
  });

// ---------------------------------------------------------------------------
// The child
// ---------------------------------------------------------------------------

async function runChild(plan: ChildPlan): Promise<void> {
  const store = await openStore({
    path: plan.file,
    log: (level, message) => process.stderr.write(`${level}: ${message}\n`),
    watch: false,
  });
  const random = seededRandom(plan.seed);
  process.stdout.write('ready\n');
  for (let i = 0; plan.mutations === null || i < plan.mutations; i++) {
    const ack = await mutateOnce(store, plan.name, i, random);
    process.stdout.write(`${JSON.stringify(ack)}\n`);
  }
  store.close();
}

/** Creates and comments dominate: they can be checked afterwards, since nothing deletes them. */
async function mutateOnce(store: TrackerStore, name: string, i: number, random: () => number): Promise<Ack> {
  const choice = random();
  const someIssue = `PROJ-${101 + Math.floor(random() * 14)}`;
  if (choice < 0.35) {
    const title = `${name} issue ${i}`;
    const { issue } = await store.createIssue({ project: 'PROJ', title });
    return { kind: 'created', key: issue.key, title };
  }
  if (choice < 0.7) {
    const body = `${name} comment ${i}`;
    await store.addComment('PROJ-101', { body, author: 'bob' });
    return { kind: 'commented', key: 'PROJ-101', body };
  }
  if (choice < 0.85) await nextStatus(store, someIssue, i);
  else await store.assignIssue(someIssue, random() < 0.5 ? null : 'carol');
  return { kind: 'other' };
}

/**
 * One step along the workflow. Another process may move the issue between the look and the
 * write; the store then refuses the step (its plan sees the current status), which is right.
 */
async function nextStatus(store: TrackerStore, key: string, i: number): Promise<void> {
  const moves = store.getTransitions(key);
  try {
    await store.updateStatus(key, moves[i % moves.length] ?? 'todo');
  } catch (error) {
    if (!isDomainError(error)) throw error;
  }
}

/** mulberry32: a tiny deterministic PRNG, so failures can be replayed. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

// ---------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------

function defineTests(): void {
  const directories: string[] = [];

  function tempFile(): string {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'tracker-processes-'));
    directories.push(directory);
    return path.join(directory, 'tracker.jsonl');
  }

  function open(file: string, watch = false): Promise<TrackerStore> {
    return openStore({ path: file, log: () => {}, watch, pollIntervalMs: 100 });
  }

  test.after(() => {
    for (const directory of directories) fs.rmSync(directory, { recursive: true, force: true });
  });

  test('two stores on one file see each other’s changes and never reuse a key', async () => {
    const file = tempFile();
    const a = await open(file);
    const b = await open(file);
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? a : b).createIssue({ project: 'PROJ', title: `from ${i % 2 === 0 ? 'a' : 'b'} ${i}` }),
      ),
    );
    const keys = created.map((c) => c.issue.key);
    assert.is(new Set(keys).size, 20);
    assert.equal([...keys].sort(), Array.from({ length: 20 }, (_, i) => `PROJ-${115 + i}`).sort());
    await b.updateStatus('PROJ-101', 'in_review');
    assert.is(a.getIssue('PROJ-101').status, 'in_review', 'a reads b’s write at once');
    await a.addComment('PROJ-101', { body: 'from a' });
    await b.addComment('PROJ-101', { body: 'from b' });
    assert.equal(
      a
        .getIssue('PROJ-101')
        .comments.map((c) => [c.id, c.body])
        .slice(-2),
      [
        [2, 'from a'],
        [3, 'from b'],
      ],
    );
    assert.equal(a.listIssues({ limit: 100 }), b.listIssues({ limit: 100 }));
    a.close();
    b.close();
  });

  test('searches and stats asked twice see another store’s change in between (their cache is per revision)', async () => {
    const file = tempFile();
    const a = await open(file);
    const b = await open(file);
    const query = { project: 'PROJ', status: 'done' };
    const doneBefore = a.searchIssues(query).total;
    const pctBefore = a.getCurrentSprintStats('PROJ').progress_pct;
    assert.is(a.searchIssues(query).total, doneBefore, 'asked again: the same answer');
    await b.updateStatus('PROJ-103', 'done');
    assert.is(a.searchIssues(query).total, doneBefore + 1);
    assert.ok(a.getCurrentSprintStats('PROJ').progress_pct > pctBefore);
    assert.ok(Object.isFrozen(a.searchIssues(query).items), 'a kept answer cannot be changed by a caller');
    a.close();
    b.close();
  });

  test('a mutation is checked against the latest state, including other writers’ changes', async () => {
    const file = tempFile();
    const a = await open(file);
    const b = await open(file);
    await a.updateStatus('PROJ-104', 'in_progress');
    // b has not read anything since opening; its no-op check must still see a's change.
    const result = await b.updateStatus('PROJ-104', 'in_progress');
    assert.equal(result.change.issues, [], 'nothing changed: b caught up first');
    a.close();
    b.close();
  });

  test('onChange fires for our own changes and, within a second, for another store’s', async () => {
    const file = tempFile();
    const watcher = await open(file, true);
    const writer = await open(file);
    const events: ChangeEvent[] = [];
    const unsubscribe = watcher.onChange((event) => events.push(event));
    await watcher.updateStatus('PROJ-101', 'in_review');
    assert.is(events.length, 1);
    assert.is(events[0]?.source, 'local');
    // Within a second of the write's acknowledgement: the writer's first write (its first lock,
    // its fsync) is not part of that second, and a loaded machine stretches it.
    const { issue } = await writer.createIssue({ project: 'PROJ', title: 'Seen from afar', sprint: 'PROJ-S42' });
    const external = await waitFor(() => events.find((e) => e.source === 'external'), 1_000);
    assert.equal(external.issues, [issue.key]);
    assert.equal(external.sprints, ['PROJ-S42']);
    assert.equal(external.projects, ['PROJ']);
    assert.is(external.issueSetChanged, true);
    assert.is(external.changes[0]?.description, `${issue.key} created: Seen from afar`);
    unsubscribe();
    await writer.updateStatus('PROJ-102', 'in_review');
    await sleep(400);
    assert.is(events.length, 2, 'no events after unsubscribing');
    watcher.close();
    writer.close();
  });

  test('two processes doing 200 interleaved mutations each lose nothing', async () => {
    const file = tempFile(); // missing: both children race to create it
    const children = ['alpha', 'beta'].map((name, i) => startChild({ file, name, seed: 1000 + i, mutations: 200 }));
    const results = await Promise.all(children.map((child) => child.finished));
    for (const result of results) assert.is(result.code, 0, result.stderr);
    const acks = results.flatMap((r) => r.acks);
    assert.is(acks.length, 400);
    const store = await open(file);
    assertAcknowledgedPresent(store, acks);
    const created = acks.filter((a) => a.kind === 'created');
    assert.is(new Set(created.map((a) => (a.kind === 'created' ? a.key : ''))).size, created.length, 'unique keys');
    assert.is(store.listIssues({ project: 'PROJ' }).total, 14 + created.length);
    const comments = store.getIssue('PROJ-101').comments;
    assert.equal(
      comments.map((c) => c.id),
      comments.map((_, i) => i + 1),
    );
    store.close();
  });

  test('kill -9 at random moments never loses an acknowledged mutation', async () => {
    const file = tempFile();
    const random = seededRandom(20250615);
    const acks: Ack[] = [];
    for (let round = 0; round < 20; round++) {
      const child = startChild({ file, name: `run${round}`, seed: round, mutations: null });
      // From the first acknowledgement, so a slow machine cannot kill every child before it writes.
      await child.firstAck;
      await sleep(5 + random() * 60);
      child.process.kill('SIGKILL');
      const result = await child.finished;
      assert.is(result.signal, 'SIGKILL', `round ${round} ended by itself: ${result.stderr}`);
      acks.push(...result.acks);
    }
    assert.ok(acks.length >= 40, `only ${acks.length} acknowledged mutations: the test would prove little`);
    const store = await open(file);
    assertAcknowledgedPresent(store, acks);
    store.close();
  });

  function assertAcknowledgedPresent(store: TrackerStore, acks: readonly Ack[]): void {
    const commentsByIssue = new Map<string, Set<string>>();
    for (const ack of acks) {
      if (ack.kind === 'created') assert.is(store.getIssue(ack.key).title, ack.title);
      if (ack.kind !== 'commented') continue;
      let bodies = commentsByIssue.get(ack.key);
      if (bodies === undefined) {
        bodies = new Set(store.getIssue(ack.key).comments.map((c) => c.body));
        commentsByIssue.set(ack.key, bodies);
      }
      assert.ok(bodies.has(ack.body), `acknowledged comment "${ack.body}" is missing`);
    }
  }

  test.run();
}

// ---------------------------------------------------------------------------
// Child process plumbing
// ---------------------------------------------------------------------------

interface ChildResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly acks: Ack[];
  readonly stderr: string;
}

interface RunningChild {
  readonly process: ChildProcess;
  readonly ready: Promise<void>;
  /** Resolves on the first acknowledged mutation (or when the child ends). */
  readonly firstAck: Promise<void>;
  readonly finished: Promise<ChildResult>;
}

function startChild(plan: ChildPlan): RunningChild {
  const child = spawn(process.execPath, ['--import', 'tsx', THIS_FILE], {
    env: { ...process.env, STORE_TEST_CHILD: JSON.stringify(plan) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const acks: Ack[] = [];
  let stderr = '';
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  let markFirstAck: () => void = () => {};
  const firstAck = new Promise<void>((resolve) => (markFirstAck = resolve));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // Only whole lines count: a line cut off by the kill was never an ack.
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    if (line === 'ready') markReady();
    else {
      acks.push(JSON.parse(line) as Ack);
      markFirstAck();
    }
  });
  const finished = new Promise<ChildResult>((resolve) => {
    child.on('close', (code, signal) => {
      markReady();
      markFirstAck();
      resolve({ code, signal, acks, stderr });
    });
  });
  return { process: child, ready, firstAck, finished };
}

async function waitFor<T>(find: () => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`nothing happened within ${timeoutMs} ms`);
    await sleep(10);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
