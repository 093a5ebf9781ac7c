// The store: answers queries from memory and performs mutations through its backend (the
// journal file, or PostgreSQL: see record-log.ts), which does not change what it answers.
//
// A mutation plans against the newest state and appends one record (see the backend for how
// it keeps two writers apart); the promise resolves only after the record is durable. Queries
// first pick up what other processes appended that can be read at once (for the journal, one
// byte read past what it has read, shared by the reads of one synchronous run, when there is
// nothing), and
// the backend's watcher does the same in the background so change listeners hear about other
// processes' changes.
//
// storeOn keeps the backend's lifecycle, the change listeners and who a call acts for; the
// reads (store-reads.ts) and the mutations (store-mutations.ts, loaded on the first write by
// writes-loader.ts) are given what they need of it (StoreAccess, store-access.ts).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Change } from './state/change.js';
import { parseHandle } from './model/args.js';
import { storeFileError } from './model/errors.js';
import { openJournalLog } from './journal/journal-log.js';
import type { TrackerState } from './state/state.js';
import type { Plan, StoreBackend } from './backend/record-log.js';
import type { ChangeEvent, ChangeListener, OpenStoreOptions, TrackerStore } from './store-api.js';
import { mergeChanges, type StoreAccess } from './store-access.js';
import { storeReads, type SearchPushdown } from './store-reads.js';
import { mutationsOnFirstUse } from './writes-loader.js';

const DEFAULTS = { actor: 'assistant', lockTimeoutMs: 5_000, staleLockMs: 30_000, pollIntervalMs: 250 };

export async function openStore(options: OpenStoreOptions): Promise<TrackerStore> {
  const backend = await openJournalLog({
    path: options.path,
    log: options.log,
    now: options.now ?? (() => new Date()),
    lockTimeoutMs: options.lockTimeoutMs ?? DEFAULTS.lockTimeoutMs,
    staleLockMs: options.staleLockMs ?? DEFAULTS.staleLockMs,
    pollIntervalMs: options.pollIntervalMs ?? DEFAULTS.pollIntervalMs,
    maxFileBytes: options.maxFileBytes,
    seed: options.seed ?? true,
  });
  return storeOn(backend, options);
}

/** What storeOn takes from OpenStoreOptions: everything but where the data lives. */
export type StoreOptions = Pick<OpenStoreOptions, 'log' | 'now' | 'actor' | 'user' | 'watch'>;

/** The tracker's store over any backend (record-log.ts), searching through `pushdown` when one is given. */
export function storeOn(backend: StoreBackend, options: StoreOptions, pushdown?: SearchPushdown): TrackerStore {
  const now = options.now ?? (() => new Date());
  const log = options.log;
  const user = options.user === undefined ? null : parseHandle(options.user, 'user');
  const own = { user, actor: parseHandle(options.actor ?? user ?? DEFAULTS.actor, 'actor') };
  // Who a call acts for, carried through its awaits by Node's AsyncLocalStorage rather than
  // passed down every method: many users share this one store over HTTP.
  const acting = new AsyncLocalStorage<{ readonly user: string | null; readonly actor: string }>();
  const who = () => acting.getStore() ?? own;
  const listeners = new Set<ChangeListener>();
  let closed = false;
  let stopWatching = (): void => {};

  /** Throws if the store can no longer be used; otherwise returns the state. */
  function usableState(): TrackerState {
    if (closed) throw storeFileError('closed', backend.name, null, 'The store is closed.');
    return backend.state();
  }

  function emit(source: ChangeEvent['source'], changes: readonly Change[]): void {
    if (changes.length === 0) return;
    const event = mergeChanges(source, changes);
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        log('error', `a change listener threw: ${(error as Error).message}`);
      }
    }
  }

  /** Picks up what other processes appended that can be read at once. */
  function refresh(): void {
    usableState();
    emit('external', backend.catchUp());
  }

  // Queries read memory after a cheap check for appends by others (the journal: one byte read).
  // The check is made once per synchronous run of code: nothing can be appended between two
  // reads in it that this process could know about (its own mutations, and another store's
  // in this process, all await), so they may as well share one look. A batch of pipelined
  // requests is dispatched in one run and costs one system call instead of one per read
  // (docs/performance.md).
  let looked = false;
  const lookAgain = (): void => {
    looked = false;
  };

  function read<T>(query: (state: TrackerState) => T): T {
    if (!looked) {
      refresh();
      looked = true;
      queueMicrotask(lookAgain);
    }
    return query(usableState());
  }

  /** Every record this store writes says who wrote it (the history's "who"). */
  const signed = (plan: Plan): Plan => {
    const { actor } = who();
    return (state, at) => {
      const draft = plan(state, at);
      return draft === null ? null : { by: actor, ...draft };
    };
  };

  async function mutate(plan: Plan): Promise<Change | null> {
    usableState();
    const external: Change[] = [];
    const local = await backend.append(signed(plan), external).finally(() => emit('external', external));
    if (local !== null) emit('local', [local]);
    return local;
  }

  const access: StoreAccess = { backend, now, who, read, mutate };
  const store: TrackerStore = {
    path: backend.name,
    ...storeReads(access, pushdown),
    ...mutationsOnFirstUse(access),

    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    refresh,

    actingAs(name, call) {
      const user = parseHandle(name, 'user');
      return acting.run({ user, actor: user }, call);
    },

    close() {
      if (closed) return;
      closed = true;
      stopWatching();
      listeners.clear();
      backend.close();
    },
  };

  if (options.watch ?? true) stopWatching = backend.watch((changes) => emit('external', changes));
  return store;
}
