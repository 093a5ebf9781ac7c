// The one writer that owns stdout: one compact JSON message per line, in order.
//
// Traps avoided (each seen in a widely used MCP implementation):
// - No 'error' listener on stdout: the client closing its end (EPIPE) crashes the process.
//   Here EPIPE and its kind mean the peer is gone: we stop writing, quietly, and tell the owner.
// - process.exit() right after writing to a pipe loses the write (pipes are asynchronous
//   on POSIX). `flush()` resolves only when everything written has left the process.
// - Performance (a first reading may skip it): gathering answers into fewer writes (cork until the next tick or the next turn of the
//   loop) gains no throughput and delays every answer (docs/performance.md): each answer is
//   written as soon as it exists; of the answers to one read of pipelined requests, the first
//   at once and the others as soon as that read's synchronous work is done (`gather`): one
//   system call and one wake-up of the client for all of them, and no answer waits for a later turn.
// - An unbounded output queue. We count the bytes of every line not yet handed to the
//   operating system, and report `backedUp` while they reach `maxQueuedBytes`, so the reader
//   stops reading new requests until the client has read enough (`onDrain`).
// - ENOBUFS taken for a gone client. Node writes everything a stream has buffered in one
//   writev, and refuses one whose size may pass 2 GiB with ENOBUFS: the whole batch is dropped,
//   the stream goes on. So the stream gets lines only while under its high-water mark; the
//   rest wait here, and a batch is never much more than one line. Should ENOBUFS or EAGAIN
//   come anyway, it is back-pressure: the bytes it refused are written again, in order, before
//   anything else.
// - A line is handed over in chunks (json-rpc.ts LineBytes: a large text kept as bytes is one
//   of them, never copied), all of a line's chunks at once: nothing goes between them.

import type { Writable } from 'node:stream';
import { type LineBytes, encodeLineBytes, lineLength } from './json-rpc.js';

export interface LineWriter {
  send(message: unknown): void;
  /**
   * Sends a small answer ahead of the lines still waiting (never inside one: lines are whole),
   * such as a ping's, however much output waits. Refused (false) once `full`, so a client that
   * never reads cannot make it grow: the caller then waits like everyone else.
   */
  sendFirst(message: unknown): boolean;
  /** Answers sent first fill their own room (URGENT_ROOM): even they wait. */
  readonly full: boolean;
  /** True while the output waiting for the client reaches the limit; wait for `onDrain` before producing more. */
  readonly backedUp: boolean;
  /** True once the peer has gone (EPIPE or any stream error but ENOBUFS and EAGAIN); sends are dropped. */
  readonly closed: boolean;
  /** Resolves when every line sent so far has been handed to the operating system. */
  flush(): Promise<void>;
  /**
   * Runs `work`; the first line sent while it runs leaves at once, the others together when it
   * returns, in one writev, not one write each: for the answers to one read of pipelined
   * requests (stdio.ts). Nothing is delayed past the end of `work`.
   */
  gather<T>(work: () => T): T;
}

export interface LineWriterEvents {
  /** The waiting output went back under the limit, or answers sent first have room again. */
  onDrain(): void;
  onClosed(reason: string): void;
}

export interface LineWriterLimits {
  /** Output waiting for the client, in bytes, at which `backedUp` turns true (default 64 MiB). */
  maxQueuedBytes?: number;
}

const DEFAULT_MAX_QUEUED_BYTES = 64 * 1024 * 1024;
/**
 * Output sent first (pings' answers) waiting to be handed over may reach this much, however far
 * the rest of the output is past its limit: about 25,000 of them. Their own room, not a share of
 * the limit: 60 answers of 10 MB, made at once when the issue they wait for is printed, would
 * otherwise hold every ping until 600 MB were read (issue 30).
 */
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
  let urgentQueued = 0; // bytes of answers sent first not yet handed to the stream
  let urgentWasFull = false; // their room filled up: onDrain when it frees
  let streamFull = false;
  let closed = false;
  const flushed: (() => void)[] = [];
  let refused: Buffer[] = [];
  // Bytes refused and tried again: the oldest, so they go before any line, even one sent first.
  let retry: LineBytes | undefined;

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
    // What waited for room leaves in writevs of up to a high-water mark each, not a write per line.
    gather(handOver);
  });

  // Performance (a first reading may skip it): the stream is corked only from a gather's second
  // line on, so a lone answer (one request at a time) leaves as before, with no cork's buffering
  // to pay for, and the first answer of a batch waits for nothing (docs/performance.md).
  let gathering = false;
  let corked = false; // by the gather under way, after its first line

  function gather<T>(work: () => T): T {
    if (gathering) return work();
    gathering = true;
    try {
      return work();
    } finally {
      gathering = false;
      if (corked) {
        corked = false;
        stream.uncork();
      }
    }
  }

  function handOver(): void {
    while (!streamFull && !closed && (retry !== undefined || urgent.length + waiting.length > 0)) {
      let line: LineBytes;
      if (retry !== undefined) line = retry;
      else if (urgent.length > 0) urgentQueued -= lineLength((line = urgent.shift()));
      else line = waiting.shift();
      retry = undefined;
      // A line of several chunks (an issue's text kept as bytes) leaves in one writev, not one
      // write per chunk: one system call, and the client woken once (docs/performance.md).
      const several = line.length > 1;
      if (several) stream.cork();
      for (const chunk of line) write(chunk, (error) => written(chunk, error));
      if (several) stream.uncork();
      if (gathering && !corked) {
        stream.cork();
        corked = true;
      }
      // Not write()'s answer: after any error Node answers false for good, and 'drain' never comes.
      streamFull = stream.writableLength >= stream.writableHighWaterMark;
    }
  }

  function failed(error: NodeJS.ErrnoException): void {
    if (!TRY_AGAIN.has(error.code ?? '')) close(error.code ?? error.message);
  }

  function written(chunk: Buffer, error: NodeJS.ErrnoException | null | undefined): void {
    if (error) failed(error);
    if (error && !closed) return writeAgain(chunk);
    const wasFull = queued >= maxQueued;
    queued -= chunk.length;
    if ((wasFull && queued < maxQueued) || (urgentWasFull && urgentQueued < URGENT_ROOM)) {
      urgentWasFull = false;
      events.onDrain();
    }
    if (queued === 0) flushed.splice(0).forEach((resolve) => resolve());
  }

  /**
   * Performance (a first reading may skip it): the chunks of a refused batch arrive here in
   * order; they go out again together, first, as one piece (it may end or begin inside a line).
   */
  function writeAgain(chunk: Buffer): void {
    if (refused.length === 0) {
      streamFull = true; // nothing newer may overtake them
      // A moment's pause: ENOBUFS from the kernel means it is short of memory right now.
      setTimeout(() => {
        retry = refused;
        refused = [];
        streamFull = false;
        handOver();
      }, RETRY_DELAY_MS);
    }
    refused.push(chunk);
  }

  return {
    send(message) {
      if (closed) return;
      const line = encodeLineBytes(message);
      queued += lineLength(line);
      waiting.push(line);
      handOver();
    },
    sendFirst(message) {
      if (closed) return true;
      if (urgentQueued >= URGENT_ROOM) return false;
      const line = encodeLineBytes(message);
      queued += lineLength(line);
      urgentQueued += lineLength(line);
      urgentWasFull ||= urgentQueued >= URGENT_ROOM;
      urgent.push(line);
      handOver();
      return true;
    },
    get backedUp() {
      return queued >= maxQueued;
    },
    get full() {
      return urgentQueued >= URGENT_ROOM;
    },
    get closed() {
      return closed;
    },
    flush() {
      if (closed || queued === 0) return Promise.resolve();
      return new Promise((resolve) => flushed.push(resolve));
    },
    gather,
  };
}

/** A first-in first-out queue of lines; `shift` takes constant time however long it grows. */
function createLineQueue() {
  let lines: (LineBytes | undefined)[] = [];
  let head = 0;
  return {
    get length() {
      return lines.length - head;
    },
    push(line: LineBytes): void {
      lines.push(line);
    },
    shift(): LineBytes {
      const line = lines[head]!;
      lines[head++] = undefined; // a line taken must not stay reachable from here
      // Drop the empty slots once they are half the array: each slot is copied at most once.
      if (head === lines.length || (head > 1024 && head * 2 > lines.length)) {
        lines = lines.slice(head);
        head = 0;
      }
      return line;
    },
  };
}
