// The heartbeat of held locks: a second thread that keeps refreshing the lock file's mtime
// while this process holds the lock. It has to be a thread: the critical section is
// synchronous, so while the main thread is stuck in a write to a slow disk, no timer of its
// own can run, and a lock refreshed from there would look abandoned after `staleMs` however
// alive its holder is. The thread is started on the first lock taken and never keeps the
// process alive. Frozen whole (SIGSTOP, a paused VM), the process stops beating, and the
// lock does go stale: the fences in journal-file.ts keep that case harmless.
import { Worker } from 'node:worker_threads';

// Plain JavaScript, run as given (eval), so that it works the same from the TypeScript
// sources and from the bundle. It refreshes a lock only when the file still names this
// process as its owner: never another holder's lock (a stale read costs nothing worse
// than one late beat on a lock just taken by someone else).
const BEATER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const held = new Int32Array(workerData.held);
parentPort.on('message', ({ lockFile, intervalMs }) => {
  setInterval(() => {
    if (Atomics.load(held, 0) === 0) return;
    try {
      if (JSON.parse(fs.readFileSync(lockFile, 'utf8')).owner !== workerData.owner) return;
      const now = new Date();
      fs.utimesSync(lockFile, now, now);
    } catch {
      // Released (or broken) while we looked: nothing to refresh.
    }
  }, intervalMs);
});
`;

/** How many of our locks are held right now: read by the beater thread. */
const held = new Int32Array(new SharedArrayBuffer(4));
const registered = new Set<string>();
let beater: Worker | null = null;

/**
 * Makes sure `lockFile` is refreshed every `intervalMs` while held by `owner` (this process).
 * One timer per lock file this process has ever taken (one for a server: its data file).
 * If the thread cannot start, locks still work: they just go stale after `staleMs` of holding.
 */
export function watchLock(lockFile: string, owner: string, intervalMs: number): void {
  if (registered.has(lockFile)) return;
  registered.add(lockFile);
  if (beater === null) {
    try {
      beater = new Worker(BEATER_SOURCE, { eval: true, workerData: { held: held.buffer, owner } });
    } catch {
      return; // no thread to spare (a thread limit): the lock works, without a heartbeat
    }
    beater.unref();
    beater.on('error', () => (beater = null));
  }
  beater.postMessage({ lockFile, intervalMs });
}

export function heldLocks(change: 1 | -1): void {
  Atomics.add(held, 0, change);
}
