// A store backend (record-log.ts) that keeps the tracker's state in memory, current with a
// RecordLog in a database that other instances append to as well.
//
// Every read is answered from this in-memory state, exactly as with the journal file, so each
// query the tracker has (search included) works unchanged on both backends. Other instances'
// records arrive through the log's change feed: a revision newer than ours makes the replica
// read what follows its own revision, in order. A write takes the writers' turn in the
// database, reads what others appended meanwhile, plans against that newest state, and
// appends at the next revision before the turn passes on, so a key is never given twice, no
// update is lost, and no instance is starved by faster ones. Reading and appending take turns (one at a time), so the state only ever moves
// forward by whole records, in revision order.
//
// Because every instance holds all of it, the records are bounded as a data file is: a write
// that would take them past LIMITS.maxJournalBytes (as the journal encodes them) is refused,
// so an instance's memory has the same bound as a one-person tracker's. Reads still work.
import { applyRecord } from '../changes/apply.js';
import { checkRecord } from '../changes/check-record.js';
import type { Change } from '../state/change.js';
import { demoRecords } from '../model/demo-data.js';
import { domainError } from '../model/errors.js';
import { encodeRecord } from '../journal/journal-format.js';
import type { Logger } from '../model/log.js';
import type { Plan, RecordLog, StoreBackend } from '../backend/record-log.js';
import { LIMITS } from '../model/schema.js';
import type { JournalRecord } from '../model/record-schema.js';
import { createEmptyState, type TrackerState } from '../state/state.js';

export interface ReplicaOptions {
  readonly log: Logger;
  readonly now: () => Date;
  /** Writes in a row lost to other instances before a write gives up. Default: 20. */
  readonly maxAttempts?: number;
  /** An empty database gets the demo data. Default: true; an import starts from nothing. */
  readonly seed?: boolean;
  /** A write that would take the records past this many bytes is refused. Default: LIMITS.maxJournalBytes. */
  readonly maxBytes?: number;
}

/** Records read per query while catching up: bounds one answer's memory. */
const READ_BATCH = 1_000;
const DEFAULT_ATTEMPTS = 20;

export const UNAVAILABLE = 'the tracker database is unavailable; retrying';

/** Reads the whole log into memory (seeding an empty one with the demo data) and follows it. */
export async function openReplica(log: RecordLog, options: ReplicaOptions): Promise<StoreBackend> {
  const state = createEmptyState();
  const maxBytes = options.maxBytes ?? LIMITS.maxJournalBytes;
  /** The records applied so far, in bytes as the journal would hold them. */
  let bytes = 0;
  let onExternal: (changes: readonly Change[]) => void = () => {};
  let turn: Promise<unknown> = Promise.resolve();
  let closed = false;

  /** One reader or writer at a time, in the order they asked. */
  function inTurn<T>(work: () => Promise<T>): Promise<T> {
    const next = turn.then(work);
    turn = next.catch(() => undefined);
    return next;
  }

  /** Applies every record after our revision; returns their changes. */
  async function pull(): Promise<Change[]> {
    const changes: Change[] = [];
    for (;;) {
      const records = await unavailableOnFailure(() => log.readSince(state.lastSeq, READ_BATCH));
      for (const record of records) {
        changes.push(applyOrReport(state, record, log.name));
        bytes += recordBytes(record);
      }
      if (records.length < READ_BATCH) return changes;
    }
  }

  function pullInBackground(): void {
    void inTurn(pull).then(
      (changes) => {
        if (!closed && changes.length > 0) onExternal(changes);
      },
      (error: Error) => options.log('warn', `${log.name}: could not read new records (${error.message}); the feed will retry`),
    );
  }

  async function appendOnce(plan: Plan, external: Change[]): Promise<Change | null | 'lost'> {
    external.push(...(await pull())); // most of what is missed, read before taking the writers' turn
    let record: JournalRecord | null = null;
    let size = 0;
    let refused: unknown = null;
    const write = (missed: readonly JournalRecord[]): JournalRecord[] => {
      try {
        for (const other of missed) {
          external.push(applyOrReport(state, other, log.name));
          bytes += recordBytes(other);
        }
        const at = options.now().toISOString();
        const draft = plan(state, at);
        if (draft !== null) record = { seq: state.lastSeq + 1, at, ...draft } as JournalRecord;
        if (record !== null) {
          size = checkBeforeWriting(state, record);
          refuseGrowthPastLimit(log.name, bytes + size, maxBytes);
        }
      } catch (error) {
        refused = error; // our refusal, not the database's: handed to the caller as it is
        record = null;
      }
      return record === null ? [] : [record];
    };
    const taken = await unavailableOnFailure(() => log.appendInTurn(state.lastSeq, write));
    if (refused !== null) throw refused;
    if (!taken) return 'lost';
    if (record === null) return null;
    bytes += size; // measured as it was encoded for the checks
    return applyRecord(state, record);
  }

  async function append(plan: Plan, external: Change[]): Promise<Change | null> {
    const attempts = options.maxAttempts ?? DEFAULT_ATTEMPTS;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const outcome = await inTurn(() => appendOnce(plan, external));
      if (outcome !== 'lost') return outcome;
    }
    throw domainError(
      'conflict',
      `Other instances wrote first ${attempts} times in a row; the change did not take effect. Retry it.`,
    );
  }

  if (options.seed ?? true) await seedIfEmpty(log, options.now());
  await pull();
  // A newer revision, or a feed that was interrupted (null): read what follows ours.
  const stopFeed = log.watch((revision) => {
    if (revision === null || revision > state.lastSeq) pullInBackground();
  });
  return {
    name: log.name,
    state: () => state,
    // Nothing can be read without waiting: the change feed brings other instances' records.
    catchUp: () => [],
    append,
    watch(listener) {
      onExternal = listener;
      return () => {
        onExternal = () => {};
      };
    },
    close() {
      closed = true;
      stopFeed();
      void log.close().catch((error: Error) => options.log('warn', `${log.name}: closing failed (${error.message})`));
    },
  };
}

/** A fresh database gets the demo data, as a fresh data file does; of two instances starting at once, one wins. */
async function seedIfEmpty(log: RecordLog, now: Date): Promise<void> {
  if ((await log.readSince(0, 1)).length > 0) return;
  const at = now.toISOString();
  const records = demoRecords(now).map((draft, index) => ({ seq: index + 1, at, ...draft }) as JournalRecord);
  await log.append(0, records);
}

/** A record that does not fit the state we have means the database holds what no writer of ours would write. */
function applyOrReport(state: TrackerState, record: JournalRecord, name: string): Change {
  try {
    return applyRecord(state, record);
  } catch (error) {
    throw new Error(`${name}: record ${record.seq} does not fit the records before it (${(error as Error).message})`);
  }
}

/** The reader's questions, asked before the record reaches the database (as the journal does); its size in bytes. */
function checkBeforeWriting(state: TrackerState, record: JournalRecord): number {
  const line = encodeRecord(record); // the format check and the size limit
  try {
    checkRecord(state, record);
  } catch (error) {
    throw new Error(`refusing to write a record that does not fit the data (${(error as Error).message})`);
  }
  return Buffer.byteLength(line);
}

/** A record's size as a journal line (journal-format.ts): its JSON and a newline. */
function recordBytes(record: JournalRecord): number {
  return Buffer.byteLength(JSON.stringify(record)) + 1;
}

function refuseGrowthPastLimit(name: string, total: number, maxBytes: number): void {
  if (total <= maxBytes) return;
  throw domainError(
    'conflict',
    `The tracker records in ${name} have reached their size limit of ${maxBytes} bytes (every instance keeps them in memory); nothing was written. Reads still work.`,
  );
}

/** A database that cannot be reached is a clear, retryable error for the caller, not a crash. */
async function unavailableOnFailure<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw domainError('unavailable', `${UNAVAILABLE} (${(error as Error).message})`);
  }
}
