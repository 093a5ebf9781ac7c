// An open journal: the data file, how far we have read it, and the state
// replayed from it. Reading, catching up and appending all go through here.
//
// `offset` always sits just after a "\n": everything before it has been
// applied to `state`, nothing after it has. Our own appends and other
// processes' appends are read the same way, in file order, so every process
// replays the same records in the same order and reaches the same state.
//
// A record counts only with the seq that follows the records before it. A
// later line repeating a seq is skipped by every reader: it was written by a
// writer that lost its lock while stalled, after another writer had taken
// that seq, and it was never acknowledged (see lock.ts and appendRecord).
import fs from 'node:fs';
import { applyChecked, applyRecord } from '../changes/apply.js';
import { checkRecord } from '../changes/check-record.js';
import type { Change } from '../state/change.js';
import { domainError, errnoCode, storeFileError, type StoreFileError } from '../model/errors.js';
import { appendFenced, createFileAtomically, moveTornTail, readCompleteLines } from './journal-file.js';
import {
  corruptLine,
  encodeHeader,
  encodeRecord,
  inconsistentLine,
  notAJournal,
  parseHeader,
  parseRecordLine,
} from './journal-format.js';
import { readSnapshot, type OpenSnapshot, type SkippedLine, type SnapshotFile } from './journal-snapshot.js';
import { writeSnapshot } from './snapshot-write.js';
import type { Logger } from '../model/log.js';
import { LIMITS } from '../model/schema.js';
import type { JournalRecord, RecordDraft } from '../model/record-schema.js';
import { createEmptyState, type TrackerState } from '../state/state.js';

export interface Journal {
  readonly file: string;
  readonly fd: number;
  /** Identity of the file we opened, to notice it being replaced. */
  readonly dev: number;
  readonly ino: number;
  /** Appends that would take the file past this many bytes are refused (LIMITS.maxJournalBytes). */
  readonly maxBytes: number;
  /** Bytes read and applied; always just after a "\n". */
  offset: number;
  /** Complete lines read, the header included: the next line's number is line + 1. */
  line: number;
  /** The first line, without its "\n" ('' until it is read): a snapshot names its journal by it. */
  header: string;
  readonly state: TrackerState;
  /** The snapshot the state was opened from (journal-snapshot.ts): it holds the issues not read yet. */
  readonly snapshot: SnapshotFile | null;
  /** Lines skipped for repeating a seq (see applyLine). */
  readonly skipped: SkippedLine[];
}

/** Writes a new journal holding `drafts`. Caller holds the lock; `file` must not exist. */
export function createJournal(file: string, drafts: readonly RecordDraft[], now: Date): void {
  const at = now.toISOString();
  const records = drafts.map((draft, index) => encodeRecord({ seq: index + 1, at, ...draft } as JournalRecord));
  createFileAtomically(file, encodeHeader(at) + records.join(''));
}

/**
 * Opens and replays the journal without the lock: only complete lines are
 * read, a chunk at a time. Returns the number of bytes after them (a tail to
 * look at under the lock, see catchUp). `maxBytes` bounds later appends only:
 * a file already past it still opens.
 */
export function openJournal(
  file: string,
  log: Logger,
  maxBytes: number = LIMITS.maxJournalBytes,
): { journal: Journal; tailBytes: number } {
  const fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_APPEND);
  let snapshot: OpenSnapshot | null = null;
  try {
    const stat = fs.fstatSync(fd);
    // A snapshot that can be trusted stands for the records it covers; the rest are replayed.
    snapshot = readSnapshot(file, fd, stat.size, log);
    const journal: Journal = {
      file,
      fd,
      dev: stat.dev,
      ino: stat.ino,
      maxBytes,
      offset: snapshot?.offset ?? 0,
      line: snapshot?.line ?? 0,
      header: snapshot?.journalHeader ?? '',
      state: snapshot?.state ?? createEmptyState(),
      snapshot: snapshot?.file ?? null,
      skipped: [...(snapshot?.skipped ?? [])],
    };
    for (const skipped of journal.skipped) reportSkipped(file, skipped, log);
    // Replay: nobody listens yet, so the changes are not collected.
    const { end, tailBytes } = readCompleteLines(fd, journal.offset, stat.size, {
      maxLineBytes: LIMITS.maxRecordBytes,
      onLine: (text) => (journal.line === 0 ? readHeader(journal, text) : applyLine(journal, text, log)),
      onLineTooLong: () => {
        if (journal.line === 0) throw notAJournal(file, 'The first line is too long to be an mcp-tracker header');
        throw lineTooLong(journal);
      },
    });
    if (journal.line === 0) {
      throw notAJournal(file, stat.size === 0 ? 'The file is empty' : 'The first line is incomplete');
    }
    journal.offset = end;
    return { journal, tailBytes };
  } catch (error) {
    snapshot?.file.close();
    fs.closeSync(fd);
    throw error;
  }
}

/** How catchUp deals with a torn tail: only a lock holder may move it aside. */
export interface TailPolicy {
  readonly holdsLock: boolean;
  readonly now: () => Date;
  readonly log: Logger;
}

/**
 * Reads and applies the lines appended since our last read. Returns their
 * changes. Throws a StoreFileError if a line is corrupt or the file shrank.
 * `size` is the file's size if the caller has just looked (see ensureSameFile).
 */
export function catchUp(journal: Journal, policy: TailPolicy, size = fs.fstatSync(journal.fd).size): Change[] {
  if (size < journal.offset) throw replacedError(journal.file, 'it is shorter than what was already read');
  if (size === journal.offset) return [];
  const changes: Change[] = [];
  const { end, tailBytes } = readCompleteLines(journal.fd, journal.offset, size, {
    maxLineBytes: LIMITS.maxRecordBytes,
    onLine: (text) => pushChange(changes, applyLine(journal, text, policy.log)),
    onLineTooLong: () => {
      throw lineTooLong(journal);
    },
  });
  journal.offset = end;
  if (tailBytes > 0 && policy.holdsLock) {
    // We hold the lock, so nobody is writing: these bytes were cut short by a
    // crash and never acknowledged. Keep them in a side file, then drop them.
    const sideFile = moveTornTail(journal.fd, journal.file, end, end + tailBytes, policy.now());
    if (sideFile === null) return changes; // someone is writing after all: not a torn tail
    policy.log(
      'warn',
      `${journal.file}:${journal.line + 1}: removed an unfinished last line (${tailBytes} bytes, from a crash mid-write; it was never acknowledged). Its bytes are kept in ${sideFile}.`,
    );
  }
  return changes;
}

/**
 * Appends one record durably, then applies it. Caller holds the lock and has caught up.
 * Returns null if the record did not take effect because another writer appended first
 * (our lock was broken while we stalled: see lock.ts); the caller takes the lock again
 * and plans again. Other writers' records read on the way are pushed to `external`.
 */
export function appendRecord(journal: Journal, draft: RecordDraft, at: string, log: Logger, external: Change[]): Change | null {
  const record = { seq: journal.state.lastSeq + 1, at, ...draft } as JournalRecord;
  const text = encodeRecord(record);
  const bytes = Buffer.byteLength(text);
  refuseMisfit(journal.state, record);
  refuseGrowthPastLimit(journal, bytes);
  const landing = appendFenced(journal.fd, journal.file, text, journal.offset);
  if (landing === 'not_written') return null;
  if (landing === 'elsewhere') return readBackOwnLine(journal, text, log, external);
  journal.offset += bytes;
  journal.line += 1;
  // Synchronous since refuseMisfit: the state is the one the record was checked against.
  return applyChecked(journal.state, record);
}

/** A record its next reader would refuse must never reach the disk: ask the reader's question first. */
function refuseMisfit(state: TrackerState, record: JournalRecord): void {
  try {
    checkRecord(state, record);
  } catch (error) {
    throw new Error(`refusing to write a journal record that does not fit the data (${(error as Error).message})`);
  }
}

function refuseGrowthPastLimit(journal: Journal, bytes: number): void {
  if (journal.offset + bytes <= journal.maxBytes) return;
  throw domainError(
    'conflict',
    `The data file ${journal.file} has reached its size limit of ${journal.maxBytes} bytes; nothing was written. Reads still work. Move the file away to start a new one, or keep it as an archive.`,
  );
}

/** Reads what is after our offset as every reader will; returns our line's change if it counted. */
function readBackOwnLine(journal: Journal, text: string, log: Logger, external: Change[]): Change | null {
  const size = fs.fstatSync(journal.fd).size;
  if (size < journal.offset) throw replacedError(journal.file, 'it is shorter than what was already read');
  const mine = text.slice(0, -1);
  let mineChange: Change | null = null;
  const { end } = readCompleteLines(journal.fd, journal.offset, size, {
    maxLineBytes: LIMITS.maxRecordBytes,
    onLine: (line) => {
      const change = applyLine(journal, line, log);
      if (line === mine && mineChange === null) mineChange = change;
      else pushChange(external, change);
    },
    onLineTooLong: () => {
      throw lineTooLong(journal);
    },
  });
  journal.offset = end;
  return mineChange;
}

/** The one byte `hasAppended` reads into: kept, so the look makes no object. */
const PAST_OUR_END = Buffer.alloc(1);

/**
 * Whether the file holds a byte past what we have read: another process appended (or is
 * appending) since our last read. One `pread` of one byte on the descriptor we hold. Unlike
 * ensureSameFile, it makes no `Stats` (on Node 20, fourteen numbers and four `Date`s per call)
 * and walks no path; it cannot see the path handed to another file, which ensureSameFile does
 * on every write and on every look of the file watcher (journal-log.ts, docs/performance.md).
 */
export function hasAppended(journal: Journal): boolean {
  return fs.readSync(journal.fd, PAST_OUR_END, 0, 1, journal.offset) === 1;
}

/**
 * Throws if the path no longer names the file we opened (deleted, replaced, moved); else
 * returns its size, which spares catchUp a second system call.
 */
export function ensureSameFile(journal: Journal): number {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(journal.file);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') throw replacedError(journal.file, 'it was deleted or moved');
    throw error;
  }
  if (stat.ino !== journal.ino || stat.dev !== journal.dev) throw replacedError(journal.file, 'another file took its place');
  return stat.size;
}

/** Writes the snapshot of the state as it is now (never throws: see writeSnapshot). */
export function snapshotJournal(journal: Journal, log: Logger): void {
  const { file, fd, header, offset, line, state, snapshot, skipped } = journal;
  writeSnapshot(
    { journalFile: file, journalFd: fd, journalHeader: header, offset, line, skipped, state, previous: snapshot },
    log,
  );
}

export function closeJournal(journal: Journal): void {
  journal.snapshot?.close();
  fs.closeSync(journal.fd);
}

function readHeader(journal: Journal, text: string): void {
  parseHeader(text, journal.file);
  journal.header = text;
  journal.line = 1;
}

/**
 * Parses, checks and applies the next line; returns its change, or null for a line repeating a
 * seq an earlier line has (a writer that lost its lock wrote it and never acknowledged it).
 */
function applyLine(journal: Journal, text: string, log: Logger): Change | null {
  const line = journal.line + 1;
  const record = parseRecordLine(text, journal.file, line);
  journal.line = line;
  if (record.seq <= journal.state.lastSeq) {
    journal.skipped.push({ line, seq: record.seq });
    reportSkipped(journal.file, { line, seq: record.seq }, log);
    return null;
  }
  try {
    return applyRecord(journal.state, record);
  } catch (error) {
    throw inconsistentLine(journal.file, line, (error as Error).message);
  }
}

/** Said on every open, from a snapshot too (it keeps the list), so the line is never forgotten. */
function reportSkipped(file: string, skipped: SkippedLine, log: Logger): void {
  log(
    'warn',
    `${file}:${skipped.line}: skipped a record whose seq ${skipped.seq} an earlier line already has: a writer that lost its lock wrote it and never acknowledged it. It is left in the file as it is.`,
  );
}

function pushChange(changes: Change[], change: Change | null): void {
  if (change !== null) changes.push(change);
}

function lineTooLong(journal: Journal): StoreFileError {
  return corruptLine(journal.file, journal.line + 1, `it is longer than the limit of ${LIMITS.maxRecordBytes} bytes per record`);
}

function replacedError(file: string, what: string) {
  return storeFileError(
    'replaced',
    file,
    null,
    `The data file changed under the running store: ${what}. Nothing more was written. Restart the server to open the file as it is now.`,
  );
}
