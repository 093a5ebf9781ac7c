// What a Session needs from the server under test, whatever carries the messages: a process
// spoken to over stdio (server-process.ts) or an MCP endpoint over Streamable HTTP
// (http-connection.ts). Both turn what the server says into events, in arrival order.
import type { JsonValue } from './json-types.js';
import type { StdoutItem } from './stdout-reader.js';
import type { HttpOutcome, HttpRequestSpec } from './http-exchange.js';
import type { Refusal } from './http-refusals.js';
import type { Level } from './fixture-types.js';

/** A rule of the transport the server broke outside any message (an HTTP error without a JSON-RPC body). */
export interface TransportProblem {
  kind: 'transport';
  problem: string;
  rule: string;
  /** How binding the rule is; absent means `must`. */
  level?: Level;
}

/** An HTTP error status without a JSON-RPC body (http-refusals.ts). */
export type RefusedEvent = { kind: 'refused' } & Refusal;

export type ServerEvent =
  StdoutItem | TransportProblem | RefusedEvent | { kind: 'exit'; code: number | null; signal: string | null };

export interface ServerConnection {
  readonly events: ServerEvent[];
  /** The server can say nothing more: its process exited (stdio), or the session ended and its streams closed (HTTP). */
  readonly hasExited: boolean;
  /**
   * True while a stream that ended before its responses is being resumed (HTTP): answers to
   * earlier requests may still come, so a later request answered first proves nothing dropped.
   */
  readonly resumingStreams?: boolean;
  /** What to show beside a failure: the server's stderr (stdio), the HTTP exchanges (HTTP). */
  readonly stderrText: string;
  /** Sends one JSON-RPC message (or batch) the way the transport frames it. */
  send(message: JsonValue): Promise<void>;
  /** Sends a fixture's `-- http request --` (HTTP only; http-connection.ts). */
  exchange?(request: HttpRequestSpec, timeoutMs: number): Promise<HttpOutcome | { skip: string } | { problem: string }>;
  /** Sends bytes exactly as given: a stdio fixture's raw sections. */
  write(chunk: Buffer): Promise<void>;
  /** The client is done: stdio closes stdin; HTTP ends the session (DELETE) and its streams. */
  end(): void;
  /** Resolves when an event beyond `seenCount` exists, the server is gone, or the deadline passes. */
  waitForEvent(seenCount: number, deadline: number): Promise<void>;
  /** Releases everything the connection holds, within `graceMs`. */
  stop(graceMs: number): Promise<void>;
  /**
   * Set on a fixture's turn on a shared process (process-pool.ts): the process serves the next
   * fixture, so the client is done when its requests are answered, not by closing stdin.
   */
  readonly sharedTurn?: { allAnswered(): boolean };
}

/** Resolves at the deadline, or earlier when the `wake` it hands out is called (a new event arrived). */
export function untilWokenOr(deadline: number, setWake: (wake: () => void) => void): Promise<void> {
  const remaining = deadline - Date.now();
  if (remaining <= 0) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, remaining);
    setWake(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
