// Writing the snapshot beside the journal (journal-snapshot.ts says what it is and how an
// open trusts it): at a clean close (journal-log.ts), to a temporary file that is synced and
// renamed into place, so a crash, a kill or a full disk leaves the old snapshot or the new one,
// never a mix. Issues an open never read are copied from the previous snapshot unparsed.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import { savedValues, timeIndex } from '../indexes/field-index.js';
import type { SavedIndexes } from '../indexes/saved-indexes.js';
import { savedTimes } from '../indexes/time-index.js';
import { savedWords } from '../indexes/word-index.js';
import type { Logger } from '../model/log.js';
import type { IssueEntry } from '../state/issue-table.js';
import type { TrackerState } from '../state/state.js';
import { READ_CHUNK_BYTES, syncDirectory } from './journal-file.js';
import {
  HEADER_BYTES,
  SNAPSHOT_FORMAT,
  SNAPSHOT_MAX_BYTES,
  SNAPSHOT_VERSION,
  SavedSprintHistory,
  sha256,
  snapshotPath,
  tailChecksum,
  type SavedState,
  type SkippedLine,
  type SnapshotFile,
  type SnapshotHeader,
} from './journal-snapshot.js';
import { slotBytes } from './snapshot-slot.js';

/** What writeSnapshot needs to know about the journal the state was replayed from. */
export interface SnapshotOf {
  readonly journalFile: string;
  readonly journalFd: number;
  readonly journalHeader: string;
  readonly offset: number;
  readonly line: number;
  readonly skipped: readonly SkippedLine[];
  readonly state: TrackerState;
  /** The snapshot the state was opened from: its unread issues are copied from it unparsed. */
  readonly previous: SnapshotFile | null;
}

/**
 * Writes the snapshot of `of.state`, all or nothing (temporary file, fsync, rename, fsync of
 * the directory). Never throws: a snapshot that cannot be written is logged and skipped, and
 * the next open replays more of the journal.
 */
export function writeSnapshot(of: SnapshotOf, log: Logger): void {
  const file = snapshotPath(of.journalFile);
  const temporary = `${file}.new-${process.pid}`;
  let fd: number | null = null;
  try {
    fd = fs.openSync(temporary, 'w');
    const sprints = [...of.state.sprintHistory];
    const texts = sprints.map(([, history]) =>
      history instanceof SavedSprintHistory ? history.eventsText() : JSON.stringify(history.events),
    );
    const issues = writeIssues(fd, of.state, of.previous, texts);
    const sprintHistory = sprints.map(([id, history], i) => {
      const start = i === 0 ? issues.slotsBytes : (issues.textEnds[i - 1] as number);
      return [
        id,
        { start, end: issues.textEnds[i] as number, startedAt: history.startedAt, closedAt: history.closedAt },
      ] as const;
    });
    const index = v8.serialize({
      ...savedState(of.state, issues.keys, issues.ends, new Map(sprintHistory)),
      skipped: of.skipped,
    });
    const indexes = v8.serialize(savedIndexes(of.state));
    if (HEADER_BYTES + issues.bytes + index.length + indexes.length > SNAPSHOT_MAX_BYTES) {
      throw new Error(`it would take more than ${SNAPSHOT_MAX_BYTES} bytes`);
    }
    writeAll(fd, index, HEADER_BYTES + issues.bytes);
    writeAll(fd, indexes, HEADER_BYTES + issues.bytes + index.length);
    const header: SnapshotHeader = {
      format: SNAPSHOT_FORMAT,
      version: SNAPSHOT_VERSION,
      journalHeader: of.journalHeader,
      offset: of.offset,
      line: of.line,
      tailSha256: tailChecksum(of.journalFd, of.offset),
      issuesBytes: issues.bytes,
      issuesSha256: issues.sha256,
      indexBytes: index.length,
      indexSha256: sha256(index),
      indexesBytes: indexes.length,
      indexesSha256: sha256(indexes),
    };
    writeAll(fd, encodeSnapshotHeader(header), 0);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = null;
    fs.renameSync(temporary, file);
    syncDirectory(path.dirname(file));
  } catch (error) {
    if (fd !== null) fs.closeSync(fd);
    fs.rmSync(temporary, { force: true });
    log('warn', `${file}: no snapshot written (${(error as Error).message}); the next open replays the journal.`);
  }
}

function encodeSnapshotHeader(header: SnapshotHeader): Buffer {
  const json = JSON.stringify(header);
  const bytes = Buffer.byteLength(json);
  if (bytes >= HEADER_BYTES) throw new Error(`its header would take ${bytes} bytes, more than ${HEADER_BYTES - 1}`);
  return Buffer.from(`${json}${' '.repeat(HEADER_BYTES - 1 - bytes)}\n`);
}

/**
 * Writes every issue's slot after the header, in the table's order, a chunk at a time.
 * An issue not read since the open is copied from the previous snapshot as it is; runs of
 * them are copied in one read.
 */
function writeIssues(fd: number, state: TrackerState, previous: SnapshotFile | null, texts: readonly string[]) {
  const hash = crypto.createHash('sha256');
  const keys: string[] = [];
  const ends: number[] = [];
  const pending: Buffer[] = [];
  let pendingBytes = 0;
  let written = 0;
  const copy = { start: 0, end: 0 }; // a run of unread slots of `previous` (empty: start === end)
  const flush = (): void => {
    if (copy.end > copy.start) pending.push((previous as SnapshotFile).copyRange(copy.start, copy.end));
    copy.start = copy.end = 0;
    const chunk = Buffer.concat(pending);
    hash.update(chunk);
    writeAll(fd, chunk, HEADER_BYTES + written);
    written += chunk.length;
    pending.length = 0;
    pendingBytes = 0;
  };
  for (const key of state.issues.keys()) {
    const slot = previous === null ? null : state.issues.unreadSlot(key);
    let bytes: number;
    if (slot !== null) {
      const range = (previous as SnapshotFile).slotRange(slot);
      if (copy.end > copy.start && copy.end !== range.start) flush();
      if (copy.end === copy.start) copy.start = range.start;
      copy.end = range.end;
      bytes = range.end - range.start;
    } else {
      if (copy.end > copy.start) flush();
      const text = slotBytes(state.issues.entry(key) as IssueEntry);
      pending.push(text);
      bytes = text.length;
    }
    pendingBytes += bytes;
    keys.push(key);
    ends.push(written + pendingBytes);
    if (written + pendingBytes > SNAPSHOT_MAX_BYTES) throw new Error(`it would take more than ${SNAPSHOT_MAX_BYTES} bytes`);
    if (pendingBytes >= READ_CHUNK_BYTES) flush();
  }
  flush();
  const slotsBytes = written;
  const textEnds: number[] = [];
  for (const text of texts) {
    const bytes = Buffer.from(text);
    hash.update(bytes);
    writeAll(fd, bytes, HEADER_BYTES + written);
    written += bytes.length;
    textEnds.push(written);
  }
  return { keys, ends, slotsBytes, textEnds, bytes: written, sha256: hash.digest('hex') };
}

/**
 * The query indexes of the state (saved-indexes.ts). Those not built yet are loaded from the
 * snapshot the state was opened from, or built now: after a replay, that is the index build
 * the first query would otherwise do.
 */
function savedIndexes(state: TrackerState): SavedIndexes {
  return {
    count: state.issues.size,
    values: savedValues(state),
    words: savedWords(state),
    times: { created: savedTimes(timeIndex(state, 'created')), updated: savedTimes(timeIndex(state, 'updated')) },
  };
}

function savedState(
  state: TrackerState,
  keys: string[],
  ends: number[],
  sprintHistory: SavedState['sprintHistory'],
): Omit<SavedState, 'skipped'> {
  const projectIndex = new Map([...state.projects.keys()].map((key, index) => [key, index]));
  const projectOf = new Uint32Array(keys.length);
  // The key names its project (apply.ts checks it), so no issue is read for it.
  keys.forEach((key, slot) => (projectOf[slot] = projectIndex.get(key.slice(0, key.lastIndexOf('-'))) as number));
  return {
    projects: [...state.projects.values()],
    sprints: [...state.sprints.values()],
    projectFields: state.projectFields,
    fieldIssues: state.fieldIssues,
    keys: keys.join('\n'),
    ends: Float64Array.from(ends),
    projectOf,
    nextIssueNumber: state.nextIssueNumber,
    sprintTouchedAt: state.sprintTouchedAt,
    blockedFrom: state.blockedFrom,
    workflows: state.workflows,
    links: state.links,
    attachments: state.attachments,
    attachmentBytes: state.attachmentBytes,
    children: state.children,
    doneAt: state.doneAt,
    sprintHistory,
    assignmentCounts: state.assignmentCounts,
    people: state.people,
    directory: [...state.directory.values()],
    lastSeq: state.lastSeq,
  };
}

function writeAll(fd: number, bytes: Buffer, position: number): void {
  for (let done = 0; done < bytes.length;) done += fs.writeSync(fd, bytes, done, bytes.length - done, position + done);
}
