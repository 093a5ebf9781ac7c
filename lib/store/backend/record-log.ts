// The seam between the tracker's store and where its records live.
//
// The tracker's data is the list of records (schema.ts JournalRecord) in seq order; the state
// every query reads is what applying them in that order builds (apply.ts). Two backends keep
// that list: the journal file (journal-log.ts, one machine, zero setup) and PostgreSQL
// (postgres/, a team's instances behind one URL). store.ts talks only to a StoreBackend, so
// the tracker does not know which one it runs on.
//
// A record's seq is its revision: the list never has a gap, and the writer of seq N is the
// one whose record is taken at N. Two writers that planned against the same state race for
// the same seq; the loser reads what won, plans again against it, and so never allocates a
// key or overwrites a change it has not seen.
import type { Change } from '../state/change.js';
import type { JournalRecord, RecordDraft } from '../model/record-schema.js';
import type { TrackerState } from '../state/state.js';

/** Looks at the newest state and says what to append (null: nothing to do); throws a DomainError to refuse. */
export type Plan = (state: TrackerState, at: string) => RecordDraft | null;

/** What store.ts needs from a backend. */
export interface StoreBackend {
  /** The data file, or the database URL without its credentials: for messages. */
  readonly name: string;
  /** The state as applied so far; throws when the backend can no longer be read. */
  state(): TrackerState;
  /** Applies, without waiting, what other writers appended and can be read at once; returns their changes. */
  catchUp(): readonly Change[];
  /**
   * Plans against the newest state and appends the record durably, planning again after a
   * lost race. Resolves with our record's change (null when the plan asked for nothing);
   * other writers' changes read on the way are pushed to `external`, even when it fails.
   */
  append(plan: Plan, external: Change[]): Promise<Change | null>;
  /** Reports other writers' changes as they are found in the background. Returns the function that stops it. */
  watch(onExternal: (changes: readonly Change[]) => void): () => void;
  close(): void;
}

/**
 * Records at revisions in a database: the lower level a replica (replica.ts) keeps its
 * in-memory state current from.
 */
export interface RecordLog {
  readonly name: string;
  /** The records after `revision`, in order, at most `limit` of them. */
  readSince(revision: number, limit: number): Promise<JournalRecord[]>;
  /**
   * Appends `records` (their seq following `expected`) in one transaction if the newest
   * revision is still `expected`; resolves false, having written nothing, if another writer
   * got there first.
   */
  append(expected: number, records: readonly JournalRecord[]): Promise<boolean>;
  /**
   * A write in the writers' turn: in one transaction, with no other writer between, reads the
   * records after `revision` and hands them to `write`, which applies them, plans, and returns
   * what to append after them (none: nothing). Resolves false only if a writer that does not
   * take turns took the revision first.
   */
  appendInTurn(revision: number, write: (missed: readonly JournalRecord[]) => JournalRecord[]): Promise<boolean>;
  /**
   * Calls back with the revision of each append, by any writer, as it commits; with null when
   * the feed was interrupted (a dropped connection), so the caller reads again from what it has.
   */
  watch(onRevision: (revision: number | null) => void): () => void;
  close(): Promise<void>;
}
