// A cross-process lock: a file naming its holder, created only if it does not exist.
//
// Rules:
// - Creating the file is taking the lock; deleting it is releasing it. The file appears with
//   its content in one step: written under a name of our own (a draft), then hard-linked into
//   place (link, like open with O_EXCL, fails if the lock exists). Created empty and then
//   written, a holder killed in between left a lock without a holder, which nobody could judge
//   stale for 30 s (found by the crash test under load). A draft is removed on every path out
//   of tryCreate (on a full disk every failed write used to leave one); drafts of killed
//   processes are swept, now and then, once older than `staleMs`.
// - Within one process, lock use is queued: one acquire-section-release at a time. Without
//   the queue, two pipelined mutations would both be in acquire(), and the second would take
//   the first's live lock for a leftover and remove it (found by
//   spec-tests/tests/two-writers.test.ts). (Worker threads sharing a data file would break
//   this rule; the store does not support that.)
// - Who holds it: pid, a random id per process (`owner`), the PID namespace and the boot.
//   A pid alone names nobody: two containers sharing a volume are both pid 1, each in its own
//   namespace, and each would take the other's live lock for its own leftover (then a key is
//   confirmed twice and the journal no longer opens).
// - Liveness is a heartbeat: while held, a second thread refreshes the lock file's mtime every
//   `staleMs / 6` (lock-heartbeat.ts; the main thread may be stuck in a slow write). A lock is
//   stale when its heartbeat is older than `staleMs`, or when its holder is provably dead: it
//   shares our PID namespace and boot, and its pid is gone or is ours (our queue says we do
//   not hold it). A holder in another namespace, on another boot, or with no identity (an
//   older version) is judged by its heartbeat alone.
// - Breaking a stale lock is itself guarded by `<lock>.break`, so two processes that both saw
//   the same stale lock cannot both remove it and end up holding two locks: under the guard
//   we re-read the lock and remove it only if it is still the very one we judged stale.
// - Waiting is bounded: after `timeoutMs` the caller gets a clear error.
//
// The lock can still be lost: a holder frozen whole for longer than `staleMs` (SIGSTOP, a
// paused VM, its heartbeat frozen with it) is taken for dead, and resumes believing it holds
// the lock. So the lock is not what keeps the journal whole; the fences around each append
// are (journal-file.ts appendFenced): the writer checks, right before its write, that the
// file still ends where it caught up; it writes its line in one write() on an O_APPEND
// descriptor, so its bytes land after anyone else's and never among them; right after, it
// checks that they landed where it checked. If another writer got in between, both lines
// carry the same seq, and every reader keeps the first and skips the later one (journal.ts):
// a record counts only with the seq that follows the records before it, so the loser's line
// is void for everyone, and the loser, which had not acknowledged it, writes again.
//
// Supported: local file systems, shared by processes on one host, including containers that
// share a volume. Not network file systems (NFS, SMB): their locking, O_APPEND and mtimes are
// not reliable across hosts. Several hosts need a database server (team mode, docs/team-mode.md).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { errnoCode, storeFileError } from '../model/errors.js';
import { heldLocks, watchLock } from './lock-heartbeat.js';

export interface LockOptions {
  /** The data file the lock protects, for error messages. */
  readonly dataFile: string;
  readonly timeoutMs: number;
  /** A lock whose heartbeat is older than this is presumed abandoned. */
  readonly staleMs: number;
  /** Told when a stale lock is broken. */
  readonly onStaleLock: (description: string) => void;
}

interface Holder {
  readonly pid: number;
  /** Random per process: a pid reused by a later process is someone else. */
  readonly owner: string;
  /** `readlink /proc/self/ns/pid`: a pid means something only inside its PID namespace... */
  readonly pid_ns: string | null;
  /** ...and its boot (/proc/sys/kernel/random/boot_id, which also differs between hosts). */
  readonly boot_id: string | null;
  readonly host: string;
}

interface LockContent extends Holder {
  /** Random per acquisition: tells this holding from the next one. */
  readonly nonce: string;
  readonly acquired_at: string;
}

interface Observed {
  readonly raw: string;
  readonly content: (Partial<LockContent> & { readonly pid: number; readonly nonce: string }) | null;
  /** Time since the last heartbeat (the file's mtime). */
  readonly ageMs: number;
}

const BREAK_GUARD_STALE_MS = 2_000;
const MAX_SLEEP_MS = 16;
/** Heartbeats per `staleMs`: a holder misses five in a row before it looks abandoned. */
const HEARTBEATS_PER_STALE_PERIOD = 6;

const US: Holder = {
  pid: process.pid,
  owner: randomBytes(8).toString('hex'),
  pid_ns: readOrNull(() => fs.readlinkSync('/proc/self/ns/pid')),
  boot_id: readOrNull(() => fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()),
  host: os.hostname(),
};

/** The last queued use of each lock file in this process. */
const queues = new Map<string, Promise<unknown>>();
/** When each lock file's directory was last swept for drafts left by killed processes. */
const lastSweep = new Map<string, number>();

/** Runs `criticalSection` while holding the lock at `lockFile`, after this process's earlier uses of it. */
export function withFileLock<T>(lockFile: string, options: LockOptions, criticalSection: () => T): Promise<T> {
  const run = async (): Promise<T> => {
    const nonce = await acquire(lockFile, options);
    heldLocks(1);
    try {
      watchLock(lockFile, US.owner, options.staleMs / HEARTBEATS_PER_STALE_PERIOD);
      sweepOldDrafts(lockFile, options.staleMs);
      return criticalSection();
    } finally {
      heldLocks(-1);
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
    if (staleBecause !== null && breakIfUnchanged(lockFile, observed, options.staleMs)) {
      options.onStaleLock(`removed a stale lock ${lockFile} (${staleBecause})`);
      continue;
    }
    // A live lock, or a stale one another process is breaking right now: wait, do not spin.
    if (Date.now() >= deadline) throw lockTimeout(lockFile, observed, options);
    await sleep(Math.min(MAX_SLEEP_MS, 2 ** attempt) * (0.5 + Math.random()));
  }
}

function tryCreate(lockFile: string, nonce: string): boolean {
  const content: LockContent = { ...US, nonce, acquired_at: new Date().toISOString() };
  // A process killed between these steps leaves this small draft behind, never a lock.
  const draft = `${lockFile}.${process.pid}.${nonce}`;
  try {
    fs.writeFileSync(draft, JSON.stringify(content), { flag: 'wx' });
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

/** Null for garbage (a lock always appears with its content). Fields other than pid and nonce may be missing (older versions). */
function parseLockContent(raw: string): Observed['content'] {
  try {
    const value = JSON.parse(raw) as Partial<LockContent> | null;
    return typeof value?.pid === 'number' && typeof value.nonce === 'string'
      ? { ...value, pid: value.pid, nonce: value.nonce }
      : null;
  } catch {
    return null;
  }
}

function staleReason(observed: Observed, staleMs: number): string | null {
  if (observed.ageMs > staleMs) return `no heartbeat for ${Math.round(observed.ageMs / 1000)} s`;
  const holder = observed.content;
  if (holder?.pid === undefined || !sharesOurPids(holder)) return null; // its heartbeat will tell
  // Our queue means we hold no lock while acquiring: a lock with our pid is an earlier process's.
  if (holder.pid === process.pid) return 'left by an earlier process with our pid';
  return isAlive(holder.pid) ? null : `its process ${holder.pid} is gone`;
}

/** True when the holder's pid names a process we can ask about: same PID namespace, same boot. */
function sharesOurPids(holder: Partial<Holder>): boolean {
  return US.pid_ns !== null && US.boot_id !== null && holder.pid_ns === US.pid_ns && holder.boot_id === US.boot_id;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0); // signal 0: existence check only
    return true;
  } catch (error) {
    return errnoCode(error) === 'EPERM'; // exists, but belongs to another user
  }
}

/** Removes the lock if it still is exactly the one observed, and still stale (its heartbeat may have resumed). True if removed. */
function breakIfUnchanged(lockFile: string, observed: Observed, staleMs: number): boolean {
  const guard = `${lockFile}.break`;
  if (!tryCreate(guard, 'breaker')) {
    const guardState = observe(guard);
    // A breaker died mid-break (a microseconds-long window): clear its guard.
    if (guardState !== null && guardState.ageMs > BREAK_GUARD_STALE_MS) fs.rmSync(guard, { force: true });
    return false;
  }
  try {
    const now = observe(lockFile);
    if (now === null || now.raw !== observed.raw || staleReason(now, staleMs) === null) return false;
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
    `Timed out after ${options.timeoutMs} ms waiting for ${holder} to release the lock ${lockFile}${whereHolderRuns(observed, options.staleMs)}. Retry; if no other mcp-tracker is running, delete the lock file.`,
  );
}

function whereHolderRuns(observed: Observed, staleMs: number): string {
  const holder = observed.content;
  if (holder === null || sharesOurPids(holder)) return '';
  return ` (its pid is not ours to check: it runs on ${holder.host ?? 'an unknown host'} in another PID namespace or boot; its lock counts as abandoned once its heartbeat is ${Math.round(staleMs / 1000)} s old)`;
}

/**
 * Removes lock drafts older than `olderThanMs`: a draft lives for microseconds, so an old one
 * was left by a killed process. At most once per `olderThanMs` per lock, so the cost of a
 * directory listing does not fall on every write.
 */
function sweepOldDrafts(lockFile: string, olderThanMs: number): void {
  const now = Date.now();
  if (now - (lastSweep.get(lockFile) ?? 0) < olderThanMs) return;
  lastSweep.set(lockFile, now);
  const directory = path.dirname(lockFile);
  const prefix = `${path.basename(lockFile)}.`;
  try {
    const listing = fs.opendirSync(directory);
    try {
      for (let entry = listing.readSync(); entry !== null; entry = listing.readSync()) {
        if (!entry.name.startsWith(prefix) || !DRAFT_SUFFIX.test(entry.name.slice(prefix.length))) continue;
        const draft = path.join(directory, entry.name);
        const stat = fs.statSync(draft, { throwIfNoEntry: false });
        if (stat !== undefined && now - stat.mtimeMs > olderThanMs) fs.rmSync(draft, { force: true });
      }
    } finally {
      listing.closeSync();
    }
  } catch {
    // Sweeping is housekeeping: a write must not fail because a listing did (the next sweep retries).
  }
}

/** What follows `<lock>.` in a draft's name: `<pid>.<nonce>`, or `break.<pid>.breaker` for the guard's. */
const DRAFT_SUFFIX = /^(break\.)?\d+\.[0-9a-z]+$/;

function readOrNull(read: () => string): string | null {
  try {
    return read();
  } catch {
    return null; // no /proc (not Linux, or not mounted): pids are then judged by heartbeat alone
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
