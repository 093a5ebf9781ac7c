// The one writer that owns stdout: one compact JSON message per line, in order.
//
// Traps avoided (each seen in a widely used MCP implementation):
// - No 'error' listener on stdout: the client closing its end (EPIPE) crashes the process.
//   Here EPIPE and its kind mean the peer is gone: we stop writing, quietly, and tell the owner.
// - process.exit() right after writing to a pipe loses the write (pipes are asynchronous
//   on POSIX). `flush()` resolves only when everything written has left the process.
// - Performance (a first reading may skip it): gathering answers into fewer writes (cork until the next tick or the next turn of the
//   loop) gains no throughput and delays every answer (docs/performance.md): each answer is
//   written as soon as it exists.
// - An unbounded output queue. We count the bytes of every line not yet handed to the
//   operating system, and report `backedUp` while they reach `maxQueuedBytes`, so the reader
//   stops reading new requests until the client has read enough (`onDrain`).
// - ENOBUFS taken for a gone client. Node writes everything a stream has buffered in one
//   writev, and refuses one whose size may pass 2 GiB with ENOBUFS: the whole batch is dropped,
//   the stream goes on. So the stream gets lines only while under its high-water mark; the
//   rest wait here, and a batch is never much more than one line. Should ENOBUFS or EAGAIN
//   come anyway, it is back-pressure: the lines it refused are written again, in order.

import type { Writable } from 'node:stream';
import { encodeLineBytes } from './json-rpc.js';

export interface LineWriter {
  send(message: unknown): void;
  /**
   * Sends a small answer ahead of the lines still waiting (never inside one: lines are whole),
   * such as a ping's. Refused (false) once `full`, so a client that never reads cannot make it
   * grow: the caller then waits like everyone else.
   */
  sendFirst(message: unknown): boolean;
  /** Past the limit by URGENT_ROOM too: even answers sent first wait. */
  readonly full: boolean;
  /** True while the output waiting for the client reaches the limit; wait for `onDrain` before producing more. */
  readonly backedUp: boolean;
  /** True once the peer has gone (EPIPE or any stream error but ENOBUFS and EAGAIN); sends are dropped. */
  readonly closed: boolean;
  /** Resolves when every line sent so far has been handed to the operating system. */
  flush(): Promise<void>;
}

export interface LineWriterEvents {
  /** The waiting output went back under the limit. */
  onDrain(): void;
  onClosed(reason: string): void;
}

export interface LineWriterLimits {
  /** Output waiting for the client, in bytes, at which `backedUp` turns true (default 64 MiB). */
  maxQueuedBytes?: number;
}

const DEFAULT_MAX_QUEUED_BYTES = 64 * 1024 * 1024;
/** Output sent first (pings' answers) may pass the limit by this much: about 25,000 of them. */
export const URGENT_ROOM = 1024 * 1024;

/** Errors that say "not now": the write is tried again. Any other error means the peer is gone. */
const TRY_AGAIN = new Set(['ENOBUFS', 'EAGAIN', 'EWOULDBLOCK']);
const RETRY_DELAY_MS = 10;

export function createLineWriter(
  stream: Writable,
  events: LineWriterEvents,
  limits: LineWriterLimits = {},
  write: (chunk: Buffer, callback: (error?: Error | null) => void) => boolean = (chunk, cb) => stream.write(chunk, cb),
): LineWriter {
  const maxQueued = limits.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES;
  const waiting = createLineQueue();
  // Answers sent first, oldest first: each goes out before every waiting line, and two pings
  // are answered in the order they came (a ping's wait is the one this exists to bound).
  const urgent = createLineQueue();
  let queued = 0; // bytes sent but not yet handed to the operating system
  let streamFull = false;
  let closed = false;
  const flushed: (() => void)[] = [];
  let refused: Buffer[] = [];

  const close = (reason: string): void => {
    if (closed) return;
    closed = true;
    flushed.splice(0).forEach((resolve) => resolve());
    events.onClosed(reason);
  };
  // Not 'close': after ENOBUFS Node emits 'close' on stdout and goes on writing. A stream that
  // really closed fails the next write, and that write's callback tells us.
  stream.on('error', (error) => failed(error));
  stream.on('drain', () => {
    streamFull = false;
    handOver();
  });

  function handOver(): void {
    while (!streamFull && !closed && urgent.length + waiting.length > 0) {
      const line = urgent.length > 0 ? urgent.shift() : waiting.shift();
      write(line, (error) => written(line, error));
      // Not write()'s answer: after any error Node answers false for good, and 'drain' never comes.
      streamFull = stream.writableLength >= stream.writableHighWaterMark;
    }
  }

  function failed(error: NodeJS.ErrnoException): void {
    if (!TRY_AGAIN.has(error.code ?? '')) close(error.code ?? error.message);
  }

  function written(line: Buffer, error: NodeJS.ErrnoException | null | undefined): void {
    if (error) failed(error);
    if (error && !closed) return writeAgain(line);
    const wasFull = queued >= maxQueued;
    queued -= line.length;
    if (wasFull && queued < maxQueued) {
      events.onDrain();
    }
    if (queued === 0) flushed.splice(0).forEach((resolve) => resolve());
  }

  /** Performance (a first reading may skip it): the lines of a refused batch arrive here in order; they go back to the front of the queue together. */
  function writeAgain(line: Buffer): void {
    if (refused.length === 0) {
      streamFull = true; // nothing newer may overtake them
      // A moment's pause: ENOBUFS from the kernel means it is short of memory right now.
      setTimeout(() => {
        waiting.unshiftAll(refused);
        refused = [];
        streamFull = false;
        handOver();
      }, RETRY_DELAY_MS);
    }
    refused.push(line);
  }

  return {
    send(message) {
      if (closed) return;
      const line = encodeLineBytes(message);
      queued += line.length;
      waiting.push(line);
      handOver();
    },
    sendFirst(message) {
      if (closed) return true;
      if (queued >= maxQueued + URGENT_ROOM) return false;
      const line = encodeLineBytes(message);
      queued += line.length;
      urgent.push(line);
      handOver();
      return true;
    },
    get backedUp() {
      return queued >= maxQueued;
    },
    get full() {
      return queued >= maxQueued + URGENT_ROOM;
    },
    get closed() {
      return closed;
    },
    flush() {
      if (closed || queued === 0) return Promise.resolve();
      return new Promise((resolve) => flushed.push(resolve));
    },
  };
}

/** A first-in first-out queue of lines; `shift` takes constant time however long it grows. */
function createLineQueue() {
  let lines: (Buffer | undefined)[] = [];
  let head = 0;
  return {
    get length() {
      return lines.length - head;
    },
    push(line: Buffer): void {
      lines.push(line);
    },
    shift(): Buffer {
      const line = lines[head]!;
      lines[head++] = undefined; // a line taken must not stay reachable from here
      // Drop the empty slots once they are half the array: each slot is copied at most once.
      if (head === lines.length || (head > 1024 && head * 2 > lines.length)) {
        lines = lines.slice(head);
        head = 0;
      }
      return line;
    },
    unshiftAll(first: Buffer[]): void {
      // In place when there is room before the head (a refused batch goes back where it was taken).
      if (head >= first.length) {
        head -= first.length;
        first.forEach((line, i) => (lines[head + i] = line));
        return;
      }
      lines = [...first, ...lines.slice(head)];
      head = 0;
    },
  };
}
