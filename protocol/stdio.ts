// Process glue: stdin -> framer -> session -> writer -> stdout, and a clean way out.
//
// The stdio transport (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports "stdio"; https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle "Shutdown"):
// the client shuts us down by closing our stdin, then SIGTERM, then SIGKILL. So:
// - stdin EOF: stop reading, let running requests finish (or abort them at the deadline),
//   flush stdout, exit 0. The SDK never noticed EOF and left zombies (TS #2002).
// - SIGTERM / SIGINT: the same, within 2 seconds.
// - stdout gone (EPIPE): the client is gone; abort everything and exit 0, without a stack trace.
// - Back-pressure: while too many requests are running, or stdout's buffer is full, we stop
//   reading stdin, so memory stays bounded however fast the client writes.
//
// Import `./stdout-guard.js` before this module (lib/main.ts does), so nothing else can
// write to stdout.

import { createLineFramer } from './line-framer.js';
import { createLineWriter } from './line-writer.js';
import { type ServerDefinition, type Session, createSession } from './session.js';
import { claimStdout } from './stdout-guard.js';

export interface StdioOptions {
  /** Longest accepted message, in bytes (default 32 MiB); a longer one is answered with an error and skipped. */
  maxMessageBytes?: number;
  /** Requests running at once before we stop reading stdin (default 64). */
  maxInFlight?: number;
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

export function serveStdio(definition: ServerDefinition, options: StdioOptions = {}): Session {
  const report = options.report ?? ((detail: string) => process.stderr.write(`[mcp] ${detail}\n`));
  const maxInFlight = options.maxInFlight ?? 64;
  const graceMs = options.shutdownGraceMs ?? 1500;
  const stdoutWrite = claimStdout();
  const stdin = process.stdin;

  const writer = createLineWriter(
    process.stdout,
    {
      onDrain: () => resumeIfRoom(),
      onClosed: (reason) => {
        report(`stdout closed (${reason}); the client is gone`);
        void shutdown(0);
      },
    },
    (chunk, callback) => stdoutWrite(chunk, callback),
  );

  const session = createSession(
    definition,
    {
      send: (message) => {
        writer.send(message);
        if (writer.backedUp) stdin.pause();
      },
      report,
      settled: () => resumeIfRoom(),
    },
    { maxDepth: options.maxDepth },
  );

  const framer = createLineFramer(options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES, (frame) => session.receive(frame));

  function resumeIfRoom(): void {
    if (!shuttingDown && session.inFlight < maxInFlight && !writer.backedUp) stdin.resume();
  }

  stdin.on('data', (chunk: Buffer) => {
    framer.push(chunk);
    if (session.inFlight >= maxInFlight || writer.backedUp) stdin.pause();
  });
  stdin.on('end', () => {
    framer.end();
    void shutdown(graceMs);
  });
  stdin.on('error', (error) => {
    report(`stdin error: ${error.message}`);
    void shutdown(graceMs);
  });
  process.on('SIGTERM', () => void shutdown(graceMs));
  process.on('SIGINT', () => void shutdown(graceMs));

  let shuttingDown = false;
  async function shutdown(deadlineMs: number): Promise<void> {
    if (shuttingDown) return;
    shuttingDown = true;
    stdin.pause();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, deadlineMs)));
    await Promise.race([session.idle(), deadline]);
    clearTimeout(timer);
    session.abortAll();
    try {
      options.onShutdown?.();
    } catch (error) {
      report(`shutdown hook failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    // Never exit with output still in the pipe (process.exit right after an asynchronous write loses it).
    await Promise.race([writer.flush(), new Promise((resolve) => setTimeout(resolve, 400))]);
    process.exit(0);
  }

  return session;
}
