// The stdio transport: stdin -> framer -> connection -> writer -> stdout, and a clean way out.
// One process serves one client, so one connection of the server.
//
// The stdio transport (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports "stdio"; https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle "Shutdown"):
// the client shuts us down by closing our stdin, then SIGTERM, then SIGKILL. So:
// - stdin EOF: stop reading, let running requests finish (or abort them at the deadline),
//   flush stdout, exit 0. The SDK never noticed EOF and left zombies (TS #2002).
// - SIGTERM / SIGINT: the same, within 2 seconds.
// - stdout gone (EPIPE): the client is gone; abort everything and exit 0, without a stack trace.
// - Back-pressure: while too many requests are running or too much output waits for the
//   client, what arrives waits in a bounded read-ahead (read-ahead.ts: a ping is still answered
//   at once, its answer sent first); once that is full, the framer hands on no more lines (even mid-chunk) and
//   we stop reading stdin, so memory stays bounded however fast the client writes and however
//   slowly it reads. Nothing is dropped: the lines held are handed on as room frees, in order,
//   even after EOF.
//
// Import `./stdout-guard.js` before this module (lib/main.ts does), so nothing else can
// write to stdout.

import { createLineFramer } from './line-framer.js';
import { type LineWriter, createLineWriter } from './line-writer.js';
import { createReadAhead } from './read-ahead.js';
import type { Server } from './server.js';
import { claimStdout } from './stdout-guard.js';
import type { Connection } from './transport.js';

export interface StdioOptions {
  /** Longest accepted message, in bytes (default 32 MiB); a longer one is answered with an error and skipped. */
  maxMessageBytes?: number;
  /** Requests running at once before we stop reading stdin (default 64). */
  maxInFlight?: number;
  /** Output waiting for the client, in characters, before we stop reading stdin (default 64 MiB). */
  maxQueuedBytes?: number;
  /**
   * Input read ahead while `maxInFlight` requests run, in characters, before we stop reading
   * stdin (default 1 MiB, plus the line that crossed it): what lets a ping through (read-ahead.ts).
   */
  maxReadAheadBytes?: number;
  /** Deepest accepted nesting in a message (default 1000); deeper is answered with an error. */
  maxDepth?: number;
  /** How long running requests get to finish on shutdown (default 1500 ms; SIGTERM must end within 2 s). */
  shutdownGraceMs?: number;
  /** Diagnostics (default: stderr). */
  report?(detail: string): void;
  /** Runs once, before exit: close files, stop watchers. */
  onShutdown?(): void;
}

export const DEFAULT_MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

export function serveStdio(server: Server, options: StdioOptions = {}): Connection {
  const report = options.report ?? ((detail: string) => process.stderr.write(`[mcp] ${detail}\n`));
  const maxInFlight = options.maxInFlight ?? 64;
  const graceMs = options.shutdownGraceMs ?? 1500;
  const stdoutWrite = claimStdout();
  const stdin = process.stdin;

  const writer = createLineWriter(
    process.stdout,
    {
      onDrain: () => admit(),
      onClosed: (reason) => {
        report(`stdout closed (${reason}); the client is gone`);
        void shutdown.start(0);
      },
    },
    { maxQueuedBytes: options.maxQueuedBytes },
    (chunk, callback) => stdoutWrite(chunk, callback),
  );

  // Every message goes to stdout, whatever request it belongs to: one pipe carries them all.
  const connection = server.connect(
    {
      // A ping's answer goes ahead of answers the client has not read yet (Route.urgent).
      send: (message, route) => {
        if (!route.urgent || !writer.sendFirst(message)) writer.send(message);
        if (!canRead()) holdInput();
      },
      report,
      settled: () => admit(),
    },
    { maxDepth: options.maxDepth },
  );

  const readAhead = createReadAhead(
    (message) => connection.receive(message),
    options.maxReadAheadBytes ?? 1024 * 1024,
    () => !writer.full,
  );
  const framer = createLineFramer(options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES, (frame) => {
    if (!readAhead.holding && hasRoom()) connection.receive(frame);
    else readAhead.hold(frame);
    if (!canRead()) holdInput();
  });

  /**
   * Room for another request to start. Not while one waits for its turn (turns.ts): what is
   * handed on must run before more is, or 64 reads of 10 MB issues would all be answered, 640 MB
   * of output, before the output could stop them.
   */
  const hasRoom = (): boolean => connection.inFlight < maxInFlight && !writer.backedUp && connection.waiting === 0;
  /**
   * Room to read on: what waits for room is within its bound. Reading goes on while the output
   * is backed up, even past its room for answers sent first, so that a ping is still read, and
   * answered as soon as the output has room (read-ahead.ts). Memory stays bounded: the output
   * stops growing at its limit plus one answer plus the room for answers sent first, and what is
   * read meanwhile is held within the read-ahead's bound.
   */
  const canRead = (): boolean => !readAhead.full;

  /** Over a limit: no more lines from the framer, no more bytes from stdin. */
  function holdInput(): void {
    framer.pause();
    stdin.pause();
  }

  /** Room again: the messages read ahead come first, then the framer's lines, then stdin; after its end, the way out. */
  function admit(): void {
    if (shutdown.started) return;
    readAhead.drain(hasRoom);
    if (canRead()) framer.resume();
    if (framer.holding) return;
    if (inputEnded) {
      if (!readAhead.holding) void shutdown.start(graceMs);
    } else if (canRead()) stdin.resume();
  }

  let inputEnded = false;
  stdin.on('data', (chunk: Buffer) => {
    // Several requests in one read (pipelined): the answers made while they run leave together
    // (line-writer.ts, gather). One line, the most common read, takes the plain path: gathering
    // there measured slower one request at a time (docs/performance.md).
    const newline = chunk.indexOf(10);
    if (newline !== -1 && newline < chunk.length - 1) writer.gather(() => framer.push(chunk));
    else framer.push(chunk);
    if (framer.holding) stdin.pause();
  });
  // EOF: the requests already received are still answered, the held ones included.
  stdin.on('end', () => {
    inputEnded = true;
    framer.end();
    admit();
  });
  stdin.on('error', (error) => {
    report(`stdin error: ${error.message}`);
    void shutdown.start(graceMs);
  });
  const shutdown = createShutdown({ connection, writer, stdin, report, onShutdown: options.onShutdown, graceMs });
  return connection;
}

interface ShutdownParts {
  connection: Connection;
  writer: LineWriter;
  stdin: NodeJS.ReadStream;
  report(detail: string): void;
  onShutdown: (() => void) | undefined;
  graceMs: number;
}

/**
 * The way out, taken once: stop reading, give running requests until the deadline, close the
 * connection, run the application's hook, let the client read what is left, exit 0.
 * SIGTERM and SIGINT take it too, and cut every wait short, one already under way included:
 * a signal must end us within 2 s.
 */
function createShutdown(parts: ShutdownParts): { start(deadlineMs: number): Promise<void>; readonly started: boolean } {
  const { connection, writer, stdin, report } = parts;
  let started = false;
  let signalled: () => void = () => {};
  const signal = new Promise<void>((resolve) => (signalled = resolve));
  for (const name of ['SIGTERM', 'SIGINT'] as const) {
    process.on(name, () => {
      signalled();
      void start(parts.graceMs);
    });
  }

  async function start(deadlineMs: number): Promise<void> {
    if (started) return;
    started = true;
    stdin.pause();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, deadlineMs)));
    await Promise.race([connection.idle(), deadline]);
    clearTimeout(timer);
    connection.close();
    try {
      parts.onShutdown?.();
    } catch (error) {
      report(`shutdown hook failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    // Never exit with output still in the pipe (process.exit right after an asynchronous write loses it).
    // After EOF the client may still be reading its answers: they are waited for, until it is
    // gone (EPIPE) or signals us; after a signal, 400 ms at most.
    await Promise.race([writer.flush(), signal.then(() => new Promise((resolve) => setTimeout(resolve, 400)))]);
    process.exit(0);
  }

  return {
    start,
    get started() {
      return started;
    },
  };
}
