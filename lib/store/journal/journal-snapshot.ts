// A snapshot of the replayed state beside the journal (`<journal>.snapshot`), so that an open
// reads it and replays only the records after it instead of every record since the start.
//
// The journal stays the data; the snapshot is only a shortcut to the state at one offset of
// it. An open trusts it only when everything agrees: its format and version, its size, the
// checksums of its two sections, the journal's header line, the journal being at least as
// long as the offset it covers, and the checksum of the journal's last bytes before that
// offset (TAIL_CHECK_BYTES). Any doubt, and the open says why on stderr and replays the
// journal from the start, as it would without a snapshot. Nothing ever reads a snapshot
// back into the journal, so a bad one can cost time, never data.
//
// Layout:
//   [0, HEADER_BYTES)   the header: one JSON object padded with spaces, then "\n"
//   issues section      each issue's slot, one after another: its fields, comments and
//                       history as lines (snapshot-slot.ts); slot i ends at ends[i]
//                       (relative to the section)
//   index section       v8.serialize of the rest of the state (SavedState), with the issue
//                       keys in creation order and their slot ends
//   indexes section     v8.serialize of the query indexes (saved-indexes.ts)
// Issues stay in the file until first use (issue-table.ts): opening reads the index, and only
// checksums the issues section, so it neither parses nor builds every issue; a large issue's
// first read can be spread over turns (readInTurns). The query indexes
// are read, and their checksum checked, by the first query that wants one: a bad checksum
// there is said on stderr, and the index is built from the issues instead.
//
// Writing (at a clean close, see journal-log.ts; snapshot-write.ts) goes to a temporary file that is synced and
// renamed into place, so a crash, a kill or a full disk leaves the old snapshot or the new
// one, never a mix; the journal is never touched. A snapshot is at most SNAPSHOT_MAX_BYTES.
import crypto from 'node:crypto';
import fs from 'node:fs';
import v8 from 'node:v8';
import { nameIndex } from '../changes/people.js';
import type { Person } from '../model/person.js';
import { errnoCode, storeFileError } from '../model/errors.js';
import { IssueTable, type IssueEntry, type IssueSource } from '../state/issue-table.js';
import { PIECE_BYTES, parseSlot, readSlotInTurns } from './snapshot-slot.js';
import { setIndexSource, type IndexSource, type SavedIndexes } from '../indexes/saved-indexes.js';
import type { Logger } from '../model/log.js';
import { LIMITS, type Issue, type Project, type ProjectFields, type Sprint, type Status } from '../model/schema.js';
import type { Workflow } from '../model/workflow.js';
import { rebuildStatusCategories } from '../state/workflows.js';
import {
  createEmptyState,
  type IssueLink,
  type ScopeEvent,
  type SprintHistory,
  type StoredAttachment,
  type TrackerState,
} from '../state/state.js';

export const SNAPSHOT_FORMAT = 'mcp-tracker-snapshot';
export const SNAPSHOT_VERSION = 6;
/** The header's room: it holds a few numbers, three checksums and the journal's header line. */
export const HEADER_BYTES = 4096;
/** How much of the journal before the covered offset must still be what the snapshot saw. */
const TAIL_CHECK_BYTES = 1_048_576;
/** What a checksum reads of a file at a time (sectionChecksum). */
const CHECKSUM_CHUNK_BYTES = 65_536;
/** What reading one unread issue reads of the file; the issues after it come with it. */
const WINDOW_BYTES = 65_536;
/** A state that would take more than this is not snapshotted: the next open replays. */
export const SNAPSHOT_MAX_BYTES = LIMITS.maxJournalBytes;

export function snapshotPath(journalFile: string): string {
  return `${journalFile}.snapshot`;
}

export interface SnapshotHeader {
  readonly format: string;
  readonly version: number;
  /** The journal's first line, without its "\n": which journal this is a snapshot of. */
  readonly journalHeader: string;
  /** Journal bytes the state covers; always just after a "\n". */
  readonly offset: number;
  /** Journal lines the state covers, the header included. */
  readonly line: number;
  readonly tailSha256: string;
  readonly issuesBytes: number;
  readonly issuesSha256: string;
  readonly indexBytes: number;
  readonly indexSha256: string;
  readonly indexesBytes: number;
  readonly indexesSha256: string;
}

/** The state without its issues, as v8.serialize writes it. */
export interface SavedState {
  readonly projects: Project[];
  readonly sprints: Sprint[];
  readonly projectFields: Map<string, ProjectFields>;
  readonly fieldIssues: Set<string>;
  /** The issue keys in creation order, joined by "\n": one string deserializes much faster than many. */
  readonly keys: string;
  /** Where each issue's slot ends in the issues section. */
  readonly ends: Float64Array;
  /** Each key's project, as an index into `projects`. */
  readonly projectOf: Uint32Array;
  readonly nextIssueNumber: Map<string, number>;
  readonly sprintTouchedAt: Map<string, string>;
  readonly blockedFrom: Map<string, Status>;
  /** The projects' own workflows (version 5); the statuses' categories are built again from them. */
  readonly workflows: Map<string, Workflow>;
  readonly links: Map<string, readonly IssueLink[]>;
  readonly attachments: Map<string, readonly StoredAttachment[]>;
  readonly attachmentBytes: number;
  readonly children: Map<string, string[]>;
  readonly doneAt: Map<string, string>;
  /**
   * Where each sprint's events are in the issues section, as JSON text after the issues' slots:
   * there can be one per issue, and most are never read, so they stay in the file until then.
   */
  readonly sprintHistory: Map<
    string,
    { readonly start: number; readonly end: number; readonly startedAt: string | null; readonly closedAt: string | null }
  >;
  readonly assignmentCounts: Map<string, number>;
  readonly people: Set<string>;
  /** The people directory (its name index is rebuilt from it). */
  readonly directory: Person[];
  readonly lastSeq: number;
  readonly skipped: readonly SkippedLine[];
}

/** A journal line skipped for repeating a seq (journal.ts): every open reports it again. */
export interface SkippedLine {
  readonly line: number;
  readonly seq: number;
}

/** A snapshot an open trusted: the state it holds, and the file its unread issues come from. */
export interface OpenSnapshot {
  readonly state: TrackerState;
  readonly journalHeader: string;
  readonly offset: number;
  readonly line: number;
  readonly skipped: readonly SkippedLine[];
  readonly file: SnapshotFile;
}

/**
 * The snapshot beside `journalFile`, if there is one and it can be trusted (see the top of
 * this file); null otherwise, with the reason logged when there was a file.
 */
export function readSnapshot(journalFile: string, journalFd: number, journalSize: number, log: Logger): OpenSnapshot | null {
  const file = snapshotPath(journalFile);
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT')
      log('warn', `${file}: not used (${(error as Error).message}); replaying the journal instead.`);
    return null;
  }
  try {
    const opened = trustedSnapshot(file, fd, journalFd, journalSize, log);
    if (typeof opened !== 'string') return opened;
    log('warn', `${file}: not used (${opened}); replaying the journal instead.`);
  } catch (error) {
    log('warn', `${file}: not used (${(error as Error).message}); replaying the journal instead.`);
  }
  fs.closeSync(fd);
  return null;
}

/** The snapshot, or why it is not trusted. */
function trustedSnapshot(file: string, fd: number, journalFd: number, journalSize: number, log: Logger): OpenSnapshot | string {
  const size = fs.fstatSync(fd).size;
  if (size < HEADER_BYTES) return 'it is shorter than its header';
  const header = parseSnapshotHeader(readBytes(fd, 0, HEADER_BYTES).toString('utf8'));
  if (typeof header === 'string') return header;
  if (size !== HEADER_BYTES + header.issuesBytes + header.indexBytes + header.indexesBytes)
    return 'its size is not what its header says';
  if (journalSize < header.offset) return 'the journal is shorter than the part it covers';
  if (journalHeaderLine(journalFd, journalSize) !== header.journalHeader) return 'it belongs to another journal';
  if (tailChecksum(journalFd, header.offset) !== header.tailSha256) return 'the journal changed before the offset it covers';
  if (sectionChecksum(fd, HEADER_BYTES, header.issuesBytes) !== header.issuesSha256) return 'the checksum of its issues is wrong';
  const index = readBytes(fd, HEADER_BYTES + header.issuesBytes, header.indexBytes);
  if (sha256(index) !== header.indexSha256) return 'the checksum of its index is wrong';
  const saved = v8.deserialize(index) as SavedState;
  const indexes = { start: HEADER_BYTES + header.issuesBytes + header.indexBytes, ...header };
  const snapshotFile = new SnapshotFile(file, fd, header.offset, saved.ends, indexes, log);
  return {
    state: restoreState(saved, snapshotFile),
    journalHeader: header.journalHeader,
    offset: header.offset,
    line: header.line,
    skipped: saved.skipped,
    file: snapshotFile,
  };
}

function parseSnapshotHeader(text: string): SnapshotHeader | string {
  let header: SnapshotHeader;
  try {
    header = JSON.parse(text) as SnapshotHeader;
  } catch {
    return 'its header is not JSON';
  }
  if (header === null || typeof header !== 'object' || header.format !== SNAPSHOT_FORMAT)
    return 'it is not an mcp-tracker snapshot';
  if (header.version !== SNAPSHOT_VERSION) return `it is version ${String(header.version)}; this build reads ${SNAPSHOT_VERSION}`;
  const counts = [header.offset, header.line, header.issuesBytes, header.indexBytes, header.indexesBytes];
  if (!counts.every((n) => Number.isSafeInteger(n) && n >= 0)) return 'its header is malformed';
  return header;
}

/** An open snapshot file: where the issues not read yet are read from (IssueSource), and the query indexes (IndexSource). */
export class SnapshotFile implements IssueSource, IndexSource {
  constructor(
    readonly file: string,
    readonly fd: number,
    /** The journal offset the snapshot covers. */
    readonly offset: number,
    private readonly ends: Float64Array,
    private readonly indexes: { readonly start: number; readonly indexesBytes: number; readonly indexesSha256: string },
    private readonly log: Logger,
  ) {}

  /** undefined until first asked; null when not usable. */
  private loadedIndexes: SavedIndexes | null | undefined = undefined;

  savedIndexes(): SavedIndexes | null {
    if (this.loadedIndexes !== undefined) return this.loadedIndexes;
    const { start, indexesBytes, indexesSha256 } = this.indexes;
    const bytes = readBytes(this.fd, start, indexesBytes);
    this.loadedIndexes = null;
    if (bytes.length !== indexesBytes || sha256(bytes) !== indexesSha256) {
      this.log('warn', `${this.file}: its query indexes are not used (their checksum is wrong); building them from the issues.`);
    } else this.loadedIndexes = v8.deserialize(bytes) as SavedIndexes;
    return this.loadedIndexes;
  }

  savedIssue(id: number, key: string): Issue {
    return this.read(id, key).issue;
  }

  private window: { readonly start: number; readonly bytes: Buffer } | null = null;

  /** Byte range of a slot in the file. */
  slotRange(slot: number): { start: number; end: number } {
    return {
      start: HEADER_BYTES + (slot === 0 ? 0 : (this.ends[slot - 1] as number)),
      end: HEADER_BYTES + (this.ends[slot] as number),
    };
  }

  read(slot: number, key: string): IssueEntry {
    const { start, end } = this.slotRange(slot);
    const bytes = this.bytesAt(start, end);
    const entry = bytes.length === end - start ? parseSlot(bytes, key) : null;
    if (entry === null) throw this.changedError(key);
    return entry;
  }

  /** A slot larger than a piece, read a piece a turn (snapshot-slot.ts); null for a smaller one. */
  readInTurns(slot: number, key: string): Promise<IssueEntry> | null {
    const { start, end } = this.slotRange(slot);
    if (end - start <= PIECE_BYTES) return null;
    // Each piece is read when its turn comes, from a file that may have been closed since.
    const readAt = (buffer: Buffer, length: number, offset: number): number =>
      this.#closed ? 0 : readInto(this.fd, buffer, length, start + offset);
    return readSlotInTurns(end - start, key, readAt).then((entry) => {
      if (entry === null) throw this.changedError(key);
      return entry;
    });
  }

  /**
   * The bytes of [start, end), from the last window read when they are in it: reading the
   * issues in order (building an index, writing the next snapshot) then costs one read per
   * window, not one per issue, while one issue alone costs a read of one window.
   */
  private bytesAt(start: number, end: number): Buffer {
    const window = this.window;
    if (window === null || start < window.start || end > window.start + window.bytes.length) {
      this.window = { start, bytes: readBytes(this.fd, start, Math.max(WINDOW_BYTES, end - start)) };
      return this.bytesAt(start, Math.min(end, start + this.window.bytes.length));
    }
    return window.bytes.subarray(start - window.start, end - window.start);
  }

  copyRange(start: number, end: number): Buffer {
    return readBytes(this.fd, start, end - start);
  }

  #closed = false;

  close(): void {
    this.#closed = true;
    fs.closeSync(this.fd);
  }

  private changedError(key: string) {
    return storeFileError(
      'replaced',
      this.file,
      null,
      `The snapshot file changed under the running store: ${key} could not be read back from it. Nothing was written. Restart the server: it will see the snapshot is wrong and replay the journal.`,
    );
  }
}

function restoreState(saved: SavedState, source: SnapshotFile): TrackerState {
  const empty = createEmptyState();
  const keys = saved.keys === '' ? [] : saved.keys.split('\n');
  const issues = IssueTable.fromSource(keys, source);
  const keyLists: string[][] = saved.projects.map(() => []);
  for (let slot = 0; slot < keys.length; slot++) keyLists[saved.projectOf[slot] as number]?.push(keys[slot] as string);
  const issueKeysByProject = new Map(saved.projects.map((project, index) => [project.key, keyLists[index] as string[]]));
  const links = new Map([...saved.links].map(([key, list]) => [key, Object.freeze(list.map((link) => Object.freeze(link)))]));
  const attachments = new Map(
    [...saved.attachments].map(([key, list]) => [key, Object.freeze(list.map((attachment) => Object.freeze(attachment)))]),
  );
  const state: TrackerState = {
    ...empty,
    projects: new Map(saved.projects.map((project) => [project.key, Object.freeze(project)])),
    sprints: new Map(saved.sprints.map((sprint) => [sprint.id, Object.freeze(sprint)])),
    projectFields: saved.projectFields,
    fieldIssues: saved.fieldIssues,
    issues,
    issueKeysByProject,
    nextIssueNumber: saved.nextIssueNumber,
    sprintTouchedAt: saved.sprintTouchedAt,
    blockedFrom: saved.blockedFrom,
    workflows: saved.workflows,
    links,
    attachments,
    attachmentBytes: saved.attachmentBytes,
    children: saved.children,
    doneAt: saved.doneAt,
    sprintHistory: new Map(
      [...saved.sprintHistory].map(([id, { start, end, startedAt, closedAt }]) => [
        id,
        new SavedSprintHistory(
          () => source.copyRange(HEADER_BYTES + start, HEADER_BYTES + end).toString('utf8'),
          startedAt,
          closedAt,
        ),
      ]),
    ),
    assignmentCounts: saved.assignmentCounts,
    people: saved.people,
    lastSeq: saved.lastSeq,
  };
  for (const person of saved.directory) {
    state.directory.set(person.handle, Object.freeze(person));
    nameIndex(state, person, true);
  }
  rebuildStatusCategories(state);
  setIndexSource(state, source);
  return state;
}

/** A sprint's history read back from a snapshot: its events are parsed on first use (burndown.ts). */
export class SavedSprintHistory implements SprintHistory {
  readonly #read: () => string;
  #events: ScopeEvent[] | null = null;

  constructor(
    read: () => string,
    public startedAt: string | null,
    public closedAt: string | null,
  ) {
    this.#read = read;
  }

  get events(): ScopeEvent[] {
    this.#events ??= JSON.parse(this.#read()) as ScopeEvent[];
    return this.#events;
  }

  /** The events as JSON text, without parsing them if nobody has read them. */
  eventsText(): string {
    return this.#events === null ? this.#read() : JSON.stringify(this.#events);
  }
}

/** The journal's first line without its "\n"; '' when it has none within HEADER_BYTES. */
function journalHeaderLine(journalFd: number, journalSize: number): string {
  const start = readBytes(journalFd, 0, Math.min(HEADER_BYTES, journalSize));
  const newline = start.indexOf(0x0a);
  return newline === -1 ? '' : start.toString('utf8', 0, newline);
}

export function tailChecksum(journalFd: number, offset: number): string {
  const from = Math.max(0, offset - TAIL_CHECK_BYTES);
  return sectionChecksum(journalFd, from, offset - from);
}

/**
 * The SHA-256 of a part of a file, read a small chunk at a time into one buffer: an open checks
 * the journal's tail and the issues section (about a megabyte at 1,000 issues), and a buffer of
 * their size is fresh memory, each of its pages a page fault, which costs more than the hashing
 * (docs/performance.md, "Cold start, sixth pass").
 */
function sectionChecksum(fd: number, start: number, length: number): string {
  const hash = crypto.createHash('sha256');
  const chunk = Buffer.allocUnsafe(Math.min(CHECKSUM_CHUNK_BYTES, length));
  for (let done = 0; done < length;) {
    const read = fs.readSync(fd, chunk, 0, Math.min(chunk.length, length - done), start + done);
    if (read === 0) break;
    hash.update(chunk.subarray(0, read));
    done += read;
  }
  return hash.digest('hex');
}

export function sha256(bytes: Buffer): string {
  return crypto.createHash('sha256').update(bytes).digest('hex');
}

/** Up to `length` bytes from `position`: fewer only if the file is shorter. */
function readBytes(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  const filled = readInto(fd, buffer, length, position);
  return buffer.subarray(0, filled);
}

/** Reads up to `length` bytes from `position` into the start of `buffer`; fewer only if the file is shorter. */
function readInto(fd: number, buffer: Buffer, length: number, position: number): number {
  let filled = 0;
  while (filled < length) {
    const read = fs.readSync(fd, buffer, filled, length - filled, position + filled);
    if (read === 0) break;
    filled += read;
  }
  return filled;
}
