// Bytes on disk: reading complete lines, appending durably, moving a torn
// tail aside, and creating a new journal atomically. No domain knowledge.
//
// The rules that make a crash harmless:
// - An append is one write() of one whole line, then fdatasync, and only then
//   does the mutation return. Appends happen under the lock and each is
//   synced before the lock is released, so at most the last line of the file
//   can be unfinished after a crash (kill -9 or power loss).
// - Each append is fenced (appendFenced), because a lock can be lost (see
//   lock.ts): checked before and after, never continued with a second write()
//   that could land after another writer's line, and undone only while the
//   file still ends with our bytes.
// - Readers only consume complete lines ("\n"-terminated). Bytes after the
//   last "\n" are a torn tail: either a write in progress (another process
//   holds the lock) or one a crash cut short. Only a lock holder may decide
//   it is torn, and it moves those bytes to a side file before truncating, so
//   nothing is ever silently thrown away.
// - A power loss can leave the end of a file as NUL bytes (size updated,
//   data not). A last line containing NUL is treated as part of the tail.
import fs from 'node:fs';
import path from 'node:path';
import { storeFileError } from '../model/errors.js';

/**
 * Bytes read at a time. The file is never read whole: a V8 string stops just under 512 MiB
 * (2^29 - 24 characters), and memory would grow with the file. Reading holds one chunk and a
 * line or two, whatever the file's size.
 */
export const READ_CHUNK_BYTES = 1_048_576;

export interface LineReader {
  /** Longer lines (terminated or not) are never buffered whole: onLineTooLong is called instead. */
  readonly maxLineBytes: number;
  /** Called with each complete line, decoded, without its "\n", in file order. */
  readonly onLine: (text: string) => void;
  /** Called instead of buffering a line longer than maxLineBytes; must throw. */
  readonly onLineTooLong: () => never;
}

export interface LineScan {
  /** File offset just after the last consumed "\n". */
  readonly end: number;
  /** Bytes after `end` up to the size read: a torn tail if nobody is writing. */
  readonly tailBytes: number;
}

const NEWLINE = 0x0a;

/**
 * Reads [from, size) in chunks and hands each complete line to the reader. A "\n" byte never
 * occurs inside a UTF-8 character, so a line cut at its "\n" decodes whole, even when it
 * spans chunks. The last complete line is held back until the end: if it holds NUL bytes
 * (a power loss after the size was written) it is crash garbage, part of the tail.
 */
export function readCompleteLines(fd: number, from: number, size: number, reader: LineReader): LineScan {
  const chunk = Buffer.allocUnsafe(Math.min(READ_CHUNK_BYTES, Math.max(size - from, 0)));
  const pieces: Buffer[] = []; // the line being read, copied out of earlier chunks
  let pieceBytes = 0;
  let held: { text: string; start: number } | null = null;
  const release = (): void => {
    if (held !== null) reader.onLine(held.text);
    held = null;
  };
  const refuseLongLine = (length: number): void => {
    if (length <= reader.maxLineBytes) return;
    release(); // so the lines before it are counted
    reader.onLineTooLong();
  };
  let lineStart = from;
  let position = from;
  while (position < size) {
    const read = fs.readSync(fd, chunk, 0, Math.min(chunk.length, size - position), position);
    if (read === 0) break; // the file shrank under us; the caller re-checks sizes
    const bytes = chunk.subarray(0, read);
    let cursor = 0;
    for (let newline = bytes.indexOf(NEWLINE); newline !== -1; newline = bytes.indexOf(NEWLINE, cursor)) {
      const length = pieceBytes + newline - cursor;
      refuseLongLine(length);
      let text: string;
      if (pieces.length === 0) text = bytes.toString('utf8', cursor, newline);
      else {
        pieces.push(bytes.subarray(cursor, newline));
        text = Buffer.concat(pieces, length).toString('utf8');
        pieces.length = 0;
        pieceBytes = 0;
      }
      release();
      held = { text, start: lineStart };
      cursor = newline + 1;
      lineStart = position + cursor;
    }
    refuseLongLine(pieceBytes + read - cursor);
    if (cursor < read) pieces.push(Buffer.from(bytes.subarray(cursor))); // a copy: the chunk is reused
    pieceBytes += read - cursor;
    position += read;
  }
  if (held !== null && held.text.includes('\u0000')) return { end: held.start, tailBytes: position - held.start };
  release();
  return { end: lineStart, tailBytes: position - lineStart };
}

function readRange(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const read = fs.readSync(fd, buffer, filled, length - filled, position + filled);
    if (read === 0) break; // the file shrank under us; the caller re-checks sizes
    filled += read;
  }
  return buffer.subarray(0, filled);
}

/** Where an appended line landed; see appendFenced. */
export type Landing = 'at_offset' | 'not_written' | 'elsewhere';

/**
 * Appends one line durably, if the file still ends at `caughtUpTo`:
 * - before: the file must end where we caught up, else 'not_written' (another writer has
 *   appended since: we no longer hold the lock, whatever we believe);
 * - one write() on the O_APPEND descriptor: the line lands whole after whatever is there,
 *   never among another writer's bytes;
 * - after: 'at_offset' if it landed at `caughtUpTo`; 'elsewhere' if another writer got in
 *   between the check and the write (the caller reads the file to see if our line counts).
 * On a failed or short write or sync the line is cut off again, and the error thrown; if it
 * cannot be (the truncate fails, or other bytes came after ours), the error is a 'read_only'
 * StoreFileError: the line may be in the journal, and the store must stop writing.
 */
export function appendFenced(fd: number, file: string, text: string, caughtUpTo: number): Landing {
  const bytes = Buffer.from(text, 'utf8');
  if (fs.fstatSync(fd).size !== caughtUpTo) return 'not_written';
  let written = 0;
  try {
    written = fs.writeSync(fd, bytes);
    if (written < bytes.length) throw new Error(`short write: ${written} of ${bytes.length} bytes (is the disk full?)`);
    fs.fdatasyncSync(fd);
  } catch (error) {
    if (written > 0) rollBack(fd, file, caughtUpTo, written, error as Error);
    throw error;
  }
  return fs.fstatSync(fd).size === caughtUpTo + bytes.length ? 'at_offset' : 'elsewhere';
}

/** Cuts our `written` bytes off the end of the file, or throws the 'read_only' error. */
function rollBack(fd: number, file: string, from: number, written: number, cause: Error): void {
  let why: string;
  try {
    if (fs.fstatSync(fd).size === from + written) {
      fs.ftruncateSync(fd, from);
      return;
    }
    why = 'another writer appended after it';
  } catch (error) {
    why = `the truncate failed: ${(error as Error).message}`;
  }
  throw storeFileError(
    'read_only',
    file,
    null,
    `Writing to the journal failed (${cause.message}) and the unfinished write could not be undone (${why}), so the record may be in the journal even though this write is reported as failed. The store is read-only until restart (reads go on), so that a retry cannot write it twice. Check the disk, then restart the server and look for the change before making it again.`,
  );
}

/**
 * Moves the bytes after `end` to `<file>.torn-<time>` and truncates the
 * journal to `end`. Caller holds the lock. Returns the side file's path, or
 * null if the file grew meanwhile (then nothing was moved).
 */
export function moveTornTail(fd: number, file: string, end: number, size: number, now: Date): string | null {
  const tail = readRange(fd, end, size - end);
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const sideFile = `${file}.torn-${stamp}-${process.pid}`;
  fs.writeFileSync(sideFile, tail, { flag: 'wx' });
  syncFile(sideFile);
  if (fs.fstatSync(fd).size !== size) {
    // It grew: someone is writing after all (we lost the lock), so this is no torn tail.
    fs.rmSync(sideFile);
    return null;
  }
  fs.ftruncateSync(fd, end);
  fs.fdatasyncSync(fd);
  syncDirectory(path.dirname(file));
  return sideFile;
}

/**
 * Creates `file` with the given text, all or nothing: write a temporary file,
 * sync it, rename it into place, sync the directory. Caller holds the lock and
 * has checked that `file` does not exist.
 */
export function createFileAtomically(file: string, text: string): void {
  const temporary = `${file}.new-${process.pid}-${Date.now()}`;
  try {
    fs.writeFileSync(temporary, text, { flag: 'wx' });
    syncFile(temporary);
    fs.renameSync(temporary, file);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
  syncDirectory(path.dirname(file));
}

function syncFile(file: string): void {
  const fd = fs.openSync(file, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Makes a new directory entry (create, rename) durable. Not possible on Windows: skipped there. */
export function syncDirectory(directory: string): void {
  let fd: number;
  try {
    fd = fs.openSync(directory, 'r');
  } catch {
    return;
  }
  try {
    fs.fsyncSync(fd);
  } catch {
    // EISDIR/EPERM on platforms that cannot sync directories.
  } finally {
    fs.closeSync(fd);
  }
}
