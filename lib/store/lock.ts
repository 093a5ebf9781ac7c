// A cross-process lock: a file that holds our pid, created only if it does not exist.
//
// Rules:
// - Creating the file is taking the lock; deleting it is releasing it. The file appears with
//   its content in one step: written under a name of our own, then hard-linked into place
//   (link, like open with O_EXCL, fails if the lock exists). Created empty and then written,
//   a holder killed in between left a lock without a pid, which nobody could judge stale for
//   30 s (found by the crash test under load).
// - Within one process, lock use is queued: one acquire-section-release at a
//   time. Without the queue, two pipelined mutations would both be in
//   acquire(), and the second would take the first's live lock for a
//   leftover (its pid is ours) and remove it, letting another process in
//   while the first still appends: two writers, one file, a corrupt journal
//   (found by spec-tests/tests/two-writers.test.ts). With it, a lock file
//   carrying our own pid while we are not holding it is always a leftover
//   (e.g. from an earlier process that had the same pid in a container).
//   (Worker threads sharing a data file would break this rule; the store
//   does not support that.)
// - A lock is stale when its pid is dead, or it is older than `staleMs`
//   (critical sections take milliseconds; a pid may have been reused).
// - Breaking a stale lock is itself guarded by `<lock>.break`, so two
//   processes that both saw the same stale lock cannot both remove it and
//   end up holding two locks: under the guard we re-read the lock and remove
//   it only if it is still the very one (same random nonce) we judged stale.
// - Waiting is bounded: after `timeoutMs` the caller gets a clear error.
//
// Known limit: a holder that stalls for longer than `staleMs` (SIGSTOP, a
// debugger) can lose its lock to a breaker. Local file systems only; lock
// files on network file systems are not reliable.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { errnoCode, storeFileError } from './errors.js';

export interface LockOptions {
  /** The data file the lock protects, for error messages. */
  readonly dataFile: string;
  readonly timeoutMs: number;
  readonly staleMs: number;
  /** Told when a stale lock is broken. */
  readonly onStaleLock: (description: string) => void;
}

interface LockContent {
  readonly pid: number;
  readonly nonce: string;
  readonly acquired_at: string;
}

interface Observed {
  readonly raw: string;
  readonly content: LockContent | null;
  readonly ageMs: number;
}

const BREAK_GUARD_STALE_MS = 2_000;
const MAX_SLEEP_MS = 16;

/** The last queued use of each lock file in this process. */
const queues = new Map<string, Promise<unknown>>();

/** Runs `criticalSection` while holding the lock at `lockFile`, after this process's earlier uses of it. */
export function withFileLock<T>(lockFile: string, options: LockOptions, criticalSection: () => T): Promise<T> {
  const run = async (): Promise<T> => {
    const nonce = await acquire(lockFile, options);
    try {
      return criticalSection();
    } finally {
      release(lockFile, nonce);
    }
  };
  const previous = queues.get(lockFile) ?? Promise.resolve();
  const next = previous.then(run, run);
  // The queue goes on after a failure (a timeout, a domain error): the next use runs regardless.
  queues.set(
    lockFile,
    next.catch(() => undefined),
  );
  return next;
}

async function acquire(lockFile: string, options: LockOptions): Promise<string> {
  const nonce = randomBytes(8).toString('hex');
  const deadline = Date.now() + options.timeoutMs;
  for (let attempt = 0; ; attempt++) {
    if (tryCreate(lockFile, nonce)) return nonce;
    const observed = observe(lockFile);
    if (observed === null) continue; // released between our two calls: try again now
    const staleBecause = staleReason(observed, options.staleMs);
    if (staleBecause !== null && breakIfUnchanged(lockFile, observed)) {
      options.onStaleLock(`removed a stale lock ${lockFile} (${staleBecause})`);
      continue;
    }
    // A live lock, or a stale one another process is breaking right now: wait, do not spin.
    if (Date.now() >= deadline) throw lockTimeout(lockFile, observed, options);
    await sleep(Math.min(MAX_SLEEP_MS, 2 ** attempt) * (0.5 + Math.random()));
  }
}

function tryCreate(lockFile: string, nonce: string): boolean {
  const content: LockContent = { pid: process.pid, nonce, acquired_at: new Date().toISOString() };
  // A process killed between these steps leaves this small draft behind, never a lock.
  const draft = `${lockFile}.${process.pid}.${nonce}`;
  fs.writeFileSync(draft, JSON.stringify(content), { flag: 'wx' });
  try {
    fs.linkSync(draft, lockFile);
    return true;
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return false;
    // A file system without hard links (FAT, exFAT): create and write, with the old window.
    if (NO_HARD_LINKS.has(errnoCode(error) ?? '')) return createThenWrite(lockFile, JSON.stringify(content));
    throw error;
  } finally {
    fs.rmSync(draft, { force: true });
  }
}

const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK']);

function createThenWrite(lockFile: string, text: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(lockFile, 'wx');
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return false;
    throw error;
  }
  try {
    fs.writeSync(fd, text);
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

/** Deletes the lock only if it is still ours. */
function release(lockFile: string, nonce: string): void {
  const observed = observe(lockFile);
  if (observed?.content?.nonce === nonce) fs.rmSync(lockFile, { force: true });
}

/** The lock's content and age, or null if there is no lock right now. */
function observe(lockFile: string): Observed | null {
  try {
    const raw = fs.readFileSync(lockFile, 'utf8');
    const ageMs = Date.now() - fs.statSync(lockFile).mtimeMs;
    return { raw, content: parseLockContent(raw), ageMs };
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw error;
  }
}

/** Null for garbage (a lock always appears with its content). */
function parseLockContent(raw: string): LockContent | null {
  try {
    const value = JSON.parse(raw) as Partial<LockContent> | null;
    return typeof value?.pid === 'number' && typeof value.nonce === 'string' ? (value as LockContent) : null;
  } catch {
    return null;
  }
}

function staleReason(observed: Observed, staleMs: number): string | null {
  if (observed.ageMs > staleMs) return `held for ${Math.round(observed.ageMs / 1000)} s`;
  const pid = observed.content?.pid;
  if (pid === undefined) return null;
  if (pid === process.pid) return 'left by an earlier process with our pid';
  return isAlive(pid) ? null : `its process ${pid} is gone`;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0); // signal 0: existence check only
    return true;
  } catch (error) {
    return errnoCode(error) === 'EPERM'; // exists, but belongs to another user
  }
}

/** Removes the lock if it still is exactly the one observed. True if removed. */
function breakIfUnchanged(lockFile: string, observed: Observed): boolean {
  const guard = `${lockFile}.break`;
  if (!tryCreate(guard, 'breaker')) {
    const guardState = observe(guard);
    // A breaker died mid-break (a microseconds-long window): clear its guard.
    if (guardState !== null && guardState.ageMs > BREAK_GUARD_STALE_MS) fs.rmSync(guard, { force: true });
    return false;
  }
  try {
    const now = observe(lockFile);
    if (now === null || now.raw !== observed.raw) return false;
    fs.rmSync(lockFile, { force: true });
    return true;
  } finally {
    fs.rmSync(guard, { force: true });
  }
}

function lockTimeout(lockFile: string, observed: Observed, options: LockOptions) {
  const holder = observed.content === null ? 'another process' : `process ${observed.content.pid}`;
  return storeFileError(
    'lock_timeout',
    options.dataFile,
    null,
    `Timed out after ${options.timeoutMs} ms waiting for ${holder} to release the lock ${lockFile}. Retry; if no other mcp-tracker is running, delete the lock file.`,
  );
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
