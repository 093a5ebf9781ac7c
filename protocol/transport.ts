// The seam between the engine and whatever carries its messages.
//
// A transport (stdio: protocol/stdio.ts; Streamable HTTP: protocol/http.ts) cuts its input into whole
// messages and hands each to a Connection; the engine hands back what to send, each message
// with the request it belongs to. Nothing on the engine's side knows about pipes, sockets,
// lines or HTTP. The line is drawn where the Go SDK (`Connection`: read and write whole
// messages) and vscode-jsonrpc (`MessageReader` / `MessageWriter`) draw it, with one thing
// more: the route of each outgoing message, which Streamable HTTP needs to put a response,
// and the progress, logs and requests made while serving it, on the stream of the HTTP request
// that asked (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports
// "Sending Messages to the Server").

import type { AuthInfo } from './context.js';
import type { OutgoingMessage, ParsedLine, RequestId } from './json-rpc.js';

/** One message as the transport received it, or the transport's complaint about one. */
export type Inbound =
  | { kind: 'message'; text: string }
  /** Already parsed by the transport (an HTTP body it had to read to route), depth checked included. */
  | { kind: 'parsed'; parsed: ParsedLine }
  /** Longer than the transport accepts; its bytes were discarded. */
  | { kind: 'too-long'; limitBytes: number }
  /** Not valid UTF-8 (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports: messages are UTF-8). */
  | { kind: 'not-utf8' };

/** Where an outgoing message belongs. */
export interface Route {
  /**
   * The incoming request it belongs to: its response, or something sent while serving it
   * (progress, a log, a request to the client, a listen stream's notifications). A batch's
   * answer names its first request. Absent: it belongs to the connection as a whole (a
   * subscription's update, a list change, an error for a message without a readable id).
   */
  relatedRequestId?: RequestId;
  /**
   * For an answer (a response, an error, a batch's array): what the transport passed with the
   * message it answers, so the answer goes back where the question came from even when no id
   * can be read (an HTTP POST's response, never another stream).
   */
  origin?: unknown;
  /**
   * An answer that may overtake output still waiting for the client: a ping's, a listing's
   * (session.ts QUICK_METHODS). A transport that queues output should send it first: a ping
   * answered at once but queued behind 64 MiB of answers is not answered promptly.
   */
  urgent?: boolean;
}

/** What a transport gives the engine for one connection. */
export interface ConnectionIo {
  send(message: OutgoingMessage | OutgoingMessage[], route: Route): void;
  /** Diagnostics for the operator (stderr on stdio); never protocol output. */
  report(detail: string): void;
  /** A request that ran on finished, and its answer (if any) was sent: the transport may take more input. */
  settled(): void;
  /** Who the transport authenticated this connection as: every request on it carries this (RequestContext.auth). */
  readonly auth?: AuthInfo;
}

/** What the engine gives a transport for one connection (one stdio process, one HTTP session). */
export interface Connection {
  /** `origin`: anything the transport wants back on the route of this message's answers. */
  receive(message: Inbound, origin?: unknown): void;
  /** Requests running now that the transport should count against its limit on work in flight. */
  readonly inFlight: number;
  /** Messages received but waiting for their turn (turns.ts); counted in `inFlight` too. */
  readonly waiting: number;
  /** Ends open subscription streams gracefully, then resolves when no request is running. */
  idle(): Promise<void>;
  /** The connection is gone or shutting down: abort what runs, drop its subscriptions, leave the server. */
  close(): void;
}
