// The journal file as a store backend (record-log.ts): one machine, zero setup.
//
// An append, step by step (all of it synchronous once the lock is held, so nothing else in
// this process can run in between):
//   1. take the lock (waiting, bounded, for other processes),
//   2. catch up: apply what other processes appended since our last read,
//   3. plan: check the request against the now-current state (DomainError
//      if it does not fit; nothing is written),
//   4. append the record, fdatasync, apply it to our state (fenced: if another
//      writer got in while we stalled, plan again from step 1, see lock.ts),
//   5. release the lock and return.
// The promise resolves only after step 4, so an acknowledged change is on disk. A read picks
// up complete lines other processes appended (one byte read past what we have read: was
// anything appended?), and a file watcher does the same in the background.
//
// The file replaced under us (deleted, moved, another file renamed onto the path, or cut
// shorter than what we have read) is noticed by a `stat` of the path: before every write, so a
// replaced file is never written to, and at every look of the file watcher (at once where the
// system reports changes, else within `pollIntervalMs`). Reads do not look at the path: until
// the watcher reports it, they answer from the file the store opened, as they did before it was
// replaced. A `stat` per read was a good share of what a read allocated (docs/performance.md),
// to notice at once a replacement nobody makes to a running server but by mistake.
import fs from 'node:fs';
import path from 'node:path';
import type { Change } from '../state/change.js';
import { demoRecords } from '../model/demo-data.js';
import { domainError, isStoreFileError, storeFileError, type StoreFileError } from '../model/errors.js';
import {
  appendRecord,
  catchUp,
  closeJournal,
  createJournal,
  ensureSameFile,
  hasAppended,
  openJournal,
  snapshotJournal,
} from './journal.js';
import { withFileLock, type LockOptions } from './lock.js';
import type { Logger } from '../model/log.js';
import type { Plan, StoreBackend } from '../backend/record-log.js';
import { LIMITS } from '../model/schema.js';
import type { TrackerState } from '../state/state.js';
import { watchForAppends } from './watch.js';

export interface JournalLogOptions {
  /** Absolute path of the data file. Created with demo data if missing. */
  readonly path: string;
  readonly log: Logger;
  readonly now: () => Date;
  readonly lockTimeoutMs: number;
  readonly staleLockMs: number;
  readonly pollIntervalMs: number;
  readonly maxFileBytes?: number;
  /** A missing file starts with the demo data (true) or with no records. */
  readonly seed: boolean;
}

/** How often a write is planned again after losing its lock mid-write (see lock.ts) before giving up. */
const FENCED_WRITE_ATTEMPTS = 3;
/** appendRecord's "not taken": another writer appended first. */
const FENCED_OUT = Symbol('fenced out');

export async function openJournalLog(options: JournalLogOptions): Promise<StoreBackend> {
  const file = path.resolve(options.path);
  const { now, log } = options;
  const lock: LockOptions = {
    dataFile: file,
    timeoutMs: options.lockTimeoutMs,
    staleMs: options.staleLockMs,
    onStaleLock: (message) => log('warn', message),
  };
  const lockFile = `${file}.lock`;
  const locked = <T>(section: () => T): Promise<T> => withFileLock(lockFile, lock, section);

  await createIfMissing(file, locked, now, log, options.seed);
  const opened = openJournal(file, log, options.maxFileBytes ?? LIMITS.maxJournalBytes);
  const journal = opened.journal;
  if (opened.tailBytes > 0) {
    try {
      await locked(() => catchUp(journal, { holdsLock: true, now, log }));
    } catch (error) {
      closeJournal(journal); // a store that failed to open keeps no file open
      throw error;
    }
  }

  let failure: StoreFileError | null = null;
  /** Set when a failed write could not be undone: appends are refused, reads go on. */
  let readOnly: StoreFileError | null = null;
  let closed = false;

  function state(): TrackerState {
    if (failure !== null) throw failure;
    return journal.state;
  }

  function writableState(): TrackerState {
    const current = state();
    if (readOnly === null) return current;
    throw storeFileError(
      'read_only',
      file,
      null,
      `The store is read-only until restart: an earlier write failed and could not be undone, so it may be in the journal. Nothing was written. Restart the server, then check whether that change is there before making it again.`,
    );
  }

  /** Runs journal work; a StoreFileError makes the store unusable (or read-only) until reopened. */
  function guarded<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      if (!isStoreFileError(error)) throw error;
      if (error.reason === 'read_only' && readOnly === null) {
        readOnly = error;
        log('error', error.message);
      } else if (error.reason !== 'read_only' && failure === null) {
        failure = error;
        log('error', error.message);
      }
      throw error;
    }
  }

  /** Picks up complete lines other processes appended, after checking the path still names our file. Never touches a tail. */
  function catchUpNow(): Change[] {
    state();
    return guarded(() => catchUp(journal, { holdsLock: false, now, log }, ensureSameFile(journal)));
  }

  /** A read's look (store.ts asks for the state first): catchUpNow only when a byte follows what we have read. */
  function catchUpIfAppended(): Change[] {
    return hasAppended(journal) ? catchUpNow() : [];
  }

  async function append(plan: Plan, external: Change[]): Promise<Change | null> {
    for (let attempt = 1; attempt <= FENCED_WRITE_ATTEMPTS; attempt++) {
      const local = await appendOnce(plan, external);
      if (local !== FENCED_OUT) return local;
      log('warn', `${file}: another writer appended while this one was stalled past the stale limit; planning the change again.`);
    }
    throw domainError(
      'conflict',
      `Another process took the lock of ${file} in the middle of this write ${FENCED_WRITE_ATTEMPTS} times (this process stalled for longer than the stale limit each time). The change did not take effect; retry.`,
    );
  }

  function appendOnce(plan: Plan, external: Change[]): Promise<Change | null | typeof FENCED_OUT> {
    writableState();
    return locked(() =>
      guarded(() => {
        const current = writableState(); // failed while we waited?
        external.push(...catchUp(journal, { holdsLock: true, now, log }, ensureSameFile(journal)));
        const at = now().toISOString();
        const draft = plan(current, at);
        return draft === null ? null : (appendRecord(journal, draft, at, log, external) ?? FENCED_OUT);
      }),
    );
  }

  return {
    name: file,
    state,
    catchUp: catchUpIfAppended,
    append,
    watch(onExternal) {
      // The watcher's catch-up: errors are already logged once by guarded().
      return watchForAppends(
        file,
        () => {
          if (closed || failure !== null) return;
          try {
            onExternal(catchUpNow());
          } catch (error) {
            if (!isStoreFileError(error)) log('error', `refresh failed: ${(error as Error).message}`);
          }
        },
        { pollIntervalMs: options.pollIntervalMs, log },
      );
    },
    close() {
      closed = true;
      // A clean close leaves a snapshot for the next open, unless the state is in doubt or unchanged.
      const unchanged = journal.snapshot?.offset === journal.offset;
      if (failure === null && readOnly === null && !unchanged) snapshotJournal(journal, log);
      closeJournal(journal);
    },
  };
}

/** First open of a missing file: create it (with demo data when seeded), under the lock so two first opens agree. */
async function createIfMissing(
  file: string,
  locked: <T>(section: () => T) => Promise<T>,
  now: () => Date,
  log: Logger,
  seed: boolean,
): Promise<void> {
  if (fs.existsSync(file)) return;
  refuseDanglingLink(file);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await locked(() => {
    if (fs.existsSync(file)) return; // another process created it while we waited
    refuseDanglingLink(file);
    createJournal(file, seed ? demoRecords(now()) : [], now());
    log('info', seed ? `created ${file} with demo data (projects PROJ and WEB)` : `created ${file}, empty`);
  });
}

/**
 * A data path that is a symbolic link to nothing (a drive not mounted, a target moved) is
 * refused: creating the file would replace the link, and when the target came back the
 * data would be split between two files (see data-path.ts).
 */
function refuseDanglingLink(file: string): void {
  let target: string;
  try {
    target = path.resolve(path.dirname(file), fs.readlinkSync(file));
  } catch {
    return; // not a symbolic link, or nothing there at all
  }
  throw storeFileError(
    'dangling_link',
    file,
    null,
    `The data path is a symbolic link to ${target}, which does not exist or cannot be reached. Nothing was created, so the link is intact. Reconnect or restore ${target} (a drive that is not mounted?), point --data (or MCP_TRACKER_DATA) at another file, or remove the link to start over with demo data.`,
  );
}
