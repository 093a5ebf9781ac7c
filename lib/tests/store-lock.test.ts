// The lock and the fences around an append: whose lock is alive, what a writer that lost its
// lock may still do to the file (nothing that stops it from opening), lock drafts that must not
// pile up, and a failed write that cannot be undone.
//
// This file is also the child program of its own tests: run with STORE_LOCK_CHILD set, it opens
// the store, stalls inside its first journal write (printing "stalling"), and prints "ack" once
// its one mutation has returned.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isStoreFileError, openStore, type Logger, type TrackerStore } from '../store/index.js';

interface ChildPlan {
  readonly file: string;
  readonly stallMs: number;
  readonly staleLockMs: number;
}

const THIS_FILE = fileURLToPath(import.meta.url);
const childPlan = process.env['STORE_LOCK_CHILD'];

if (childPlan === undefined) defineTests();
else
  runChild(JSON.parse(childPlan) as ChildPlan).catch((error: unknown) => {
    process.stderr.write(`child failed: ${(error as Error).stack}\n`);
    process.exit(1);
  });

// ---------------------------------------------------------------------------
// The child: a writer that stalls inside its write (a slow disk)
// ---------------------------------------------------------------------------

async function runChild(plan: ChildPlan): Promise<void> {
  const store = await openStore({
    path: plan.file,
    log: (level, message) => process.stderr.write(`${level}: ${message}\n`),
    watch: false,
    staleLockMs: plan.staleLockMs,
  });
  const write = fs.writeSync;
  let stalled = false;
  (fs as { writeSync: unknown }).writeSync = (fd: number, data: unknown, ...rest: unknown[]): number => {
    if (!stalled && Buffer.isBuffer(data) && data.toString('utf8', 0, 7) === '{"seq":') {
      stalled = true;
      process.stdout.write('stalling\n'); // a pipe: written at once, even though we block next
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, plan.stallMs);
    }
    return (write as (...args: unknown[]) => number)(fd, data, ...rest);
  };
  await store.addComment('PROJ-101', { body: 'from the stalled writer' });
  process.stdout.write('ack\n');
  store.close();
}

interface RunningChild {
  readonly process: ChildProcess;
  readonly stalling: Promise<void>;
  readonly finished: Promise<{ code: number | null; acked: boolean; stderr: string }>;
}

function startChild(plan: ChildPlan): RunningChild {
  const child = spawn(process.execPath, ['--import', 'tsx', THIS_FILE], {
    env: { ...process.env, STORE_LOCK_CHILD: JSON.stringify(plan) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let acked = false;
  let markStalling: () => void = () => {};
  const stalling = new Promise<void>((resolve) => (markStalling = resolve));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    if (line === 'stalling') markStalling();
    if (line === 'ack') acked = true;
  });
  const finished = new Promise<{ code: number | null; acked: boolean; stderr: string }>((resolve) =>
    child.on('close', (code) => {
      markStalling();
      resolve({ code, acked, stderr });
    }),
  );
  return { process: child, stalling, finished };
}

// ---------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------

function defineTests(): void {
  const directories: string[] = [];

  function tempFile(): string {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'tracker-lock-'));
    directories.push(directory);
    return path.join(directory, 'tracker.jsonl');
  }

  function recordingLogger(): { log: Logger; lines: string[] } {
    const lines: string[] = [];
    return { log: (level, message) => lines.push(`${level}: ${message}`), lines };
  }

  async function demoFile(): Promise<string> {
    const file = tempFile();
    (await openStore({ path: file, log: () => {}, watch: false })).close();
    return file;
  }

  /** Replaces `name` on `fs` until the returned function is called. */
  function patchFs(name: 'writeFileSync' | 'fdatasyncSync' | 'ftruncateSync', replacement: (...args: never[]) => unknown) {
    const original = fs[name];
    (fs as Record<string, unknown>)[name] = replacement;
    return () => void ((fs as Record<string, unknown>)[name] = original);
  }

  const ioError = (code: string): Error => Object.assign(new Error(`${code}: injected fault`), { code });

  const commentsWithBody = (store: TrackerStore, body: string): number =>
    store.getIssue('PROJ-101').comments.filter((c) => c.body === body).length;

  test.after(() => {
    for (const directory of directories) fs.rmSync(directory, { recursive: true, force: true });
  });

  test('a fresh lock holding our pid from another PID namespace is alive: waited for, not broken', async () => {
    const file = await demoFile();
    // As a server in another container (pid 1 there, and perhaps our pid here) would leave it.
    const foreign = { pid: process.pid, nonce: 'f0', owner: 'another-container', pid_ns: 'pid:[1]', acquired_at: '' };
    fs.writeFileSync(`${file}.lock`, JSON.stringify(foreign));
    const { log, lines } = recordingLogger();
    const store = await openStore({ path: file, log, watch: false, lockTimeoutMs: 300 });
    try {
      await store.addComment('PROJ-101', { body: 'must wait' });
      assert.unreachable('the other namespace’s live lock was broken');
    } catch (error) {
      assert.ok(isStoreFileError(error), String(error));
      assert.is(error.reason, 'lock_timeout');
    }
    assert.not.match(lines.join('\n'), 'stale lock');
    assert.ok(fs.existsSync(`${file}.lock`), 'the other holder’s lock is still there');
    store.close();
  });

  test('a lock whose heartbeat stopped is broken, whoever holds it', async () => {
    const file = await demoFile();
    fs.writeFileSync(`${file}.lock`, JSON.stringify({ pid: 1, nonce: 'f1', owner: 'elsewhere', pid_ns: 'pid:[1]' }));
    const longAgo = new Date(Date.now() - 60_000);
    fs.utimesSync(`${file}.lock`, longAgo, longAgo);
    const { log, lines } = recordingLogger();
    const store = await openStore({ path: file, log, watch: false, lockTimeoutMs: 2_000 });
    await store.addComment('PROJ-101', { body: 'after the break' });
    assert.match(lines.join('\n'), /removed a stale lock .* \(no heartbeat for 60 s\)/);
    store.close();
  });

  test('a writer stalled inside its write keeps its lock by heartbeat: the other writer waits for it', async () => {
    const file = await demoFile();
    const child = startChild({ file, stallMs: 5_000, staleLockMs: 3_000 });
    await child.stalling;
    const { log, lines } = recordingLogger();
    const store = await openStore({ path: file, log, watch: false, staleLockMs: 3_000, lockTimeoutMs: 30_000 });
    await store.addComment('PROJ-101', { body: 'from the waiting writer' });
    const result = await child.finished;
    assert.is(result.code, 0, result.stderr);
    assert.ok(result.acked);
    assert.not.match(lines.join('\n'), 'stale lock', 'the stalled writer’s lock was taken for abandoned');
    const reopened = await openStore({ path: file, log: () => {}, watch: false });
    assert.is(commentsWithBody(reopened, 'from the stalled writer'), 1);
    assert.is(commentsWithBody(reopened, 'from the waiting writer'), 1);
    reopened.close();
    store.close();
  });

  test('a writer frozen mid-write loses its lock, and its late write cannot break the journal', async () => {
    const file = await demoFile();
    const child = startChild({ file, stallMs: 3_000, staleLockMs: 30_000 });
    await child.stalling;
    // Frozen whole (its heartbeat too), as by SIGSTOP or a paused VM: its lock goes stale.
    child.process.kill('SIGSTOP');
    try {
      const { log, lines } = recordingLogger();
      const store = await openStore({ path: file, log, watch: false, staleLockMs: 500, lockTimeoutMs: 30_000 });
      await store.addComment('PROJ-101', { body: 'from the writer that broke the lock' });
      assert.match(lines.join('\n'), 'removed a stale lock');
      store.close();
    } finally {
      child.process.kill('SIGCONT');
    }
    // It resumes inside its write, after the other writer appended with the same seq.
    const result = await child.finished;
    assert.is(result.code, 0, result.stderr);
    assert.ok(result.acked, 'its mutation still succeeded (written again, after the other)');
    const { log, lines } = recordingLogger();
    const reopened = await openStore({ path: file, log, watch: false });
    assert.is(commentsWithBody(reopened, 'from the stalled writer'), 1);
    assert.is(commentsWithBody(reopened, 'from the writer that broke the lock'), 1);
    const ids = reopened.getIssue('PROJ-101').comments.map((c) => c.id);
    assert.equal(
      ids,
      ids.map((_, i) => i + 1),
    );
    assert.match(lines.join('\n'), 'lost its lock', 'the void line is reported with where it is');
    reopened.close();
  });

  test('lock drafts do not pile up: failed writes remove theirs, and old ones are swept', async () => {
    const file = await demoFile();
    const drafts = (directory = path.dirname(file)): string[] =>
      fs.readdirSync(directory).filter((name) => /\.lock\.[^.]+\.[^.]+$/.test(name));
    const store = await openStore({ path: file, log: () => {}, watch: false });
    // A full disk: the draft is created, its content cannot be written.
    const restore = patchFs('writeFileSync', ((target: string, ...rest: never[]) => {
      if (String(target).includes('.lock.')) {
        fs.closeSync(fs.openSync(target, 'wx'));
        throw ioError('ENOSPC');
      }
      return (fs.writeFileSync as (...args: unknown[]) => void).call(fs, target, ...rest);
    }) as never);
    let failures = 0;
    try {
      for (let i = 0; i < 50; i++) await store.addComment('PROJ-101', { body: `full ${i}` }).catch(() => failures++);
    } finally {
      restore();
    }
    assert.is(failures, 50);
    assert.equal(drafts(), [], 'a failed write left its draft behind');
    store.close();

    // Drafts of killed writers: the old one is swept when the lock is first taken, a fresh one is not.
    const copy = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tracker-lock-')), 'tracker.jsonl');
    directories.push(path.dirname(copy));
    fs.copyFileSync(file, copy); // a file this process has not locked yet, as after a restart
    const old = `${copy}.lock.4242.0123456789abcdef`;
    const fresh = `${copy}.lock.4343.fedcba9876543210`;
    fs.writeFileSync(old, '{}');
    fs.writeFileSync(fresh, '{}');
    const longAgo = new Date(Date.now() - 3_600_000);
    fs.utimesSync(old, longAgo, longAgo);
    const next = await openStore({ path: copy, log: () => {}, watch: false });
    await next.addComment('PROJ-101', { body: 'sweeps' });
    assert.equal(drafts(path.dirname(copy)), [path.basename(fresh)]);
    next.close();
  });

  test('a short write is cut off, not continued (a second write could land after another writer’s line)', async () => {
    const file = await demoFile();
    const store = await openStore({ path: file, log: () => {}, watch: false });
    const before = fs.readFileSync(file);
    const write = fs.writeSync;
    (fs as { writeSync: unknown }).writeSync = (fd: number, data: Buffer, offset = 0, length = data.length): number =>
      write(fd, data, offset, Math.ceil(length / 2)); // the disk filled up halfway
    try {
      await store.addComment('PROJ-101', { body: 'half of it' });
      assert.unreachable('half a line written, yet reported as a success');
    } catch (error) {
      assert.match((error as Error).message, 'short write');
    } finally {
      (fs as { writeSync: unknown }).writeSync = write;
    }
    assert.equal(fs.readFileSync(file), before, 'the half line was cut off again');
    await store.addComment('PROJ-101', { body: 'the whole of it' });
    store.close();
  });

  test('a failed write that cannot be undone makes the store read-only until restart; reads go on', async () => {
    const file = await demoFile();
    const { log, lines } = recordingLogger();
    const store = await openStore({ path: file, log, watch: false });
    const restoreSync = patchFs('fdatasyncSync', () => {
      throw ioError('EIO');
    });
    const restoreTruncate = patchFs('ftruncateSync', () => {
      throw ioError('EIO');
    });
    let first: unknown = null;
    try {
      await store.addComment('PROJ-101', { body: 'maybe saved' });
    } catch (error) {
      first = error;
    } finally {
      restoreSync();
      restoreTruncate();
    }
    assert.ok(isStoreFileError(first), `expected a StoreFileError, got ${String(first)}`);
    assert.match(first.message, 'may be in the journal');
    assert.match(first.message, 'read-only until restart');
    // The client retries: refused, so the comment cannot end up in the journal twice.
    try {
      await store.addComment('PROJ-101', { body: 'maybe saved' });
      assert.unreachable('a write was accepted after the failed rollback');
    } catch (error) {
      assert.ok(isStoreFileError(error));
      assert.match(error.message, 'read-only until restart');
    }
    assert.is(store.getIssue('PROJ-102').key, 'PROJ-102', 'queries still work');
    assert.match(lines.join('\n'), 'read-only');
    store.close();
    const reopened = await openStore({ path: file, log: () => {}, watch: false });
    assert.ok(commentsWithBody(reopened, 'maybe saved') <= 1);
    reopened.close();
  });

  test.run();
}
