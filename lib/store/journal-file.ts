// Bytes on disk: reading complete lines, appending durably, moving a torn
// tail aside, and creating a new journal atomically. No domain knowledge.
//
// The rules that make a crash harmless:
// - An append is one write of one whole line, then fdatasync, and only then
//   does the mutation return. Appends happen under the lock and each is
//   synced before the lock is released, so at most the last line of the file
//   can be unfinished after a crash (kill -9 or power loss).
// - Readers only consume complete lines ("\n"-terminated). Bytes after the
//   last "\n" are a torn tail: either a write in progress (another process
//   holds the lock) or one a crash cut short. Only a lock holder may decide
//   it is torn, and it moves those bytes to a side file before truncating, so
//   nothing is ever silently thrown away.
// - A power loss can leave the end of a file as NUL bytes (size updated,
//   data not). A last line containing NUL is treated as part of the tail.
import fs from 'node:fs';
import path from 'node:path';

export interface CompleteLines {
  /** Decoded lines, without their "\n". */
  readonly lines: string[];
  /** File offset just after the last consumed "\n". */
  readonly end: number;
  /** Bytes after `end` up to the size read: a torn tail if nobody is writing. */
  readonly tailBytes: number;
}

const NEWLINE = 0x0a;
const NUL = 0x00;

/** Reads [from, size) and splits off the complete lines. */
export function readCompleteLines(fd: number, from: number, size: number): CompleteLines {
  const bytes = readRange(fd, from, size - from);
  const stop = completePrefixLength(bytes);
  const lines = stop === 0 ? [] : bytes.toString('utf8', 0, stop - 1).split('\n');
  return { lines, end: from + stop, tailBytes: bytes.length - stop };
}

/** Length of the prefix made of whole, NUL-free-at-the-end lines. */
function completePrefixLength(bytes: Buffer): number {
  const end = bytes.lastIndexOf(NEWLINE) + 1;
  if (end === 0) return 0;
  // (lastIndexOf with a negative offset counts from the end: avoid it.)
  const lastLineStart = end < 2 ? 0 : bytes.lastIndexOf(NEWLINE, end - 2) + 1;
  const nul = bytes.indexOf(NUL, lastLineStart);
  // A last line holding NUL bytes is crash garbage: part of the tail.
  return nul !== -1 && nul < end ? lastLineStart : end;
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

/**
 * Appends one line and makes it durable. On any failure the file is cut back
 * to `sizeBefore`, so a half-written line is never left for others to read.
 * Returns the new size.
 */
export function appendDurably(fd: number, text: string, sizeBefore: number): number {
  const bytes = Buffer.from(text, 'utf8');
  try {
    let written = 0;
    while (written < bytes.length) written += fs.writeSync(fd, bytes, written, bytes.length - written);
    fs.fdatasyncSync(fd);
  } catch (error) {
    try {
      fs.ftruncateSync(fd, sizeBefore);
    } catch {
      // Nothing more to do: the torn-tail rule cleans up on the next open.
    }
    throw error;
  }
  return sizeBefore + bytes.length;
}

/**
 * Moves the bytes after `end` to `<file>.torn-<time>` and truncates the
 * journal to `end`. Caller holds the lock. Returns the side file's path.
 */
export function moveTornTail(fd: number, file: string, end: number, size: number, now: Date): string {
  const tail = readRange(fd, end, size - end);
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const sideFile = `${file}.torn-${stamp}-${process.pid}`;
  fs.writeFileSync(sideFile, tail, { flag: 'wx' });
  syncFile(sideFile);
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
