// First reading: skip this file. It is a detail of the HTTP transport; stdio is enough to learn MCP (docs/reading-path.md).
// One HTTP response of the Streamable HTTP transport, as a JSON body or an SSE stream.
//
// A POST that carries requests is answered "either Content-Type: application/json (a single
// JSON object) or Content-Type: text/event-stream (an SSE stream)"
// (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports "Sending Messages
// to the Server"). We choose by what comes first: if the answers are all there is, a JSON
// body, with the HTTP status their error asks for; if a notification or a request of ours
// comes before them (progress, a log, an elicitation, a listen stream's acknowledgement), an
// SSE stream that carries those, then the answers, then ends.
//
// SSE framing (https://html.spec.whatwg.org/multipage/server-sent-events.html): each message
// is one `data:` line (our JSON never holds a raw newline: json-rpc.ts escapes U+2028/9 too),
// with an `id:` when the stream can be resumed; a comment line (`:`) keeps a quiet stream alive
// through proxies and idle timeouts.

import type { ServerResponse } from 'node:http';
import type { RpcError } from './errors.js';
import { type LineBytes, type OutgoingMessage, type ParsedLine, type RequestId, errorMessage, lineLength } from './json-rpc.js';

/**
 * A message as one line of JSON with its newline, in UTF-8 chunks: the engine's encodeLineBytes
 * (see HttpOptions.encodeLine in http.ts). A large text kept as bytes is one of the chunks, written
 * as it is, never copied (json-rpc.ts LineBytes).
 */
export type EncodeLine = (message: OutgoingMessage | OutgoingMessage[]) => LineBytes;

export interface ResponseStream {
  /** One message that belongs to this response; on a resumable stream, with its event id. */
  send(message: OutgoingMessage | OutgoingMessage[], eventId?: string): void;
  /** Ends the response (an SSE stream: the server is done with it). */
  end(): void;
  /** True once the response ended or the client went away. */
  readonly ended: boolean;
  /** True once the response is an SSE stream (false: a JSON body, or not decided yet). */
  readonly streaming: boolean;
}

export interface StreamOptions {
  encodeLine: EncodeLine;
  /** A comment line this often, so a quiet stream stays open (default 15 s). */
  keepAliveMs?: number;
  /** Output waiting for a slow client before we drop its stream (default 64 MiB; http.ts gives a peer's share). */
  maxQueuedBytes?: number;
  /** Called after each write, so the process-wide budget counts what waits for this client (http-budget.ts). */
  queued?(res: ServerResponse): void;
  /** Extra headers (Mcp-Session-Id). */
  headers?: Record<string, string>;
  /** The HTTP status for a JSON answer that is an error with this code. */
  statusFor?(code: number): number;
  /**
   * A POST whose answers take longer than this becomes an SSE stream, so its client can resume
   * it if the connection drops (primed: `onStream`); quick answers stay one JSON body.
   */
  streamAfterMs?: number;
  /** Hears the moment a POST's response becomes an SSE stream, before its first event: to prime it. */
  onStream?(stream: EventStream): void;
}

/**
 * How long a client waits before reconnecting to a stream it lost, sent with the priming event
 * (the `retry` field: "the client MUST respect the retry field", 2025-11-25 transports).
 */
export const SSE_RETRY_MS = 1000;

const SSE_HEADERS = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  // Reverse proxies (nginx) must not hold the events back
  // (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http "Receiving Messages").
  'X-Accel-Buffering': 'no',
};

/** The response to a POST of requests: ends once every one of `awaiting` is answered. */
export function createPostResponse(res: ServerResponse, awaiting: Set<RequestId>, options: StreamOptions): ResponseStream {
  return new PostResponse(res, awaiting, options);
}

// A class, not an object literal with getters: one is made for every POST (session.ts, createSession, says why).
class PostResponse implements ResponseStream {
  readonly #res: ServerResponse;
  readonly #awaiting: Set<RequestId>;
  readonly #options: StreamOptions;
  #sse: ResponseStream | undefined;
  #ended = false;
  #streamTimer: NodeJS.Timeout | undefined;

  constructor(res: ServerResponse, awaiting: Set<RequestId>, options: StreamOptions) {
    this.#res = res;
    this.#awaiting = awaiting;
    this.#options = options;
    if (options.streamAfterMs !== undefined) {
      this.#streamTimer = setTimeout(() => this.#ended || this.#sse || this.#startStream(), options.streamAfterMs);
      this.#streamTimer.unref();
    }
  }

  #startStream(): ResponseStream {
    clearTimeout(this.#streamTimer);
    const stream = createEventStream(this.#res, this.#options);
    this.#options.onStream?.(stream);
    return (this.#sse = stream);
  }

  send(message: OutgoingMessage | OutgoingMessage[], eventId?: string): void {
    if (this.#ended) return;
    for (const id of answeredIds(message)) this.#awaiting.delete(id);
    // Done once every request has its answer, or with an error for the message as a whole (id null).
    const complete = isAnswer(message) && (this.#awaiting.size === 0 || answersWhole(message));
    if (!this.#sse && complete) {
      this.#ended = true;
      clearTimeout(this.#streamTimer);
      const body = this.#options.encodeLine(message);
      const code = errorCode(message);
      this.#res.writeHead(code === undefined ? 200 : (this.#options.statusFor?.(code) ?? 200), {
        ...this.#options.headers,
        'Content-Type': 'application/json',
        'Content-Length': String(lineLength(body)),
      });
      // One chunk (most answers) goes with end(), so node sends it and the headers in one write.
      if (body.length === 1) this.#res.end(body[0]);
      else {
        for (const chunk of body) this.#res.write(chunk);
        this.#res.end();
      }
      this.#options.queued?.(this.#res);
      return;
    }
    (this.#sse ?? this.#startStream()).send(message, eventId);
    if (complete) this.end();
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    clearTimeout(this.#streamTimer);
    if (this.#sse) this.#sse.end();
    else if (!this.#res.headersSent) {
      this.#res.writeHead(202, this.#options.headers).end();
    }
  }

  get ended(): boolean {
    return this.#ended || this.#res.destroyed;
  }

  get streaming(): boolean {
    return this.#sse !== undefined;
  }
}

/** An SSE stream from the start: a GET stream, or a POST answered by events. */
export interface EventStream extends ResponseStream {
  /**
   * The priming event: an id and an empty `data` field, which set the client's Last-Event-ID and
   * carry no message, and the `retry` field (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports
   * "Sending Messages to the Server": the server SHOULD immediately send one).
   */
  prime(eventId: string): void;
}

export function createEventStream(res: ServerResponse, options: StreamOptions): EventStream {
  const maxQueued = options.maxQueuedBytes ?? 64 * 1024 * 1024;
  res.writeHead(200, { ...options.headers, ...SSE_HEADERS });
  res.flushHeaders();
  const timer = setInterval(() => write(': keep-alive\n\n'), options.keepAliveMs ?? 15_000);
  timer.unref();
  const stop = () => clearInterval(timer);
  res.on('close', stop);

  function write(...chunks: (string | Buffer)[]): void {
    if (res.destroyed || res.writableEnded) return;
    // A client that does not read does not hold our memory: past the bound its stream is dropped.
    if (res.writableLength > maxQueued) {
      res.destroy();
      return;
    }
    for (const chunk of chunks) res.write(chunk);
    options.queued?.(res);
  }

  return {
    send(message, eventId) {
      // The line ends with its newline, the `data:` line's end; one more ends the event.
      write(`${eventId === undefined ? '' : `id: ${eventId}\n`}event: message\ndata: `, ...options.encodeLine(message), '\n');
    },
    prime(eventId) {
      write(`id: ${eventId}\nretry: ${SSE_RETRY_MS}\ndata:\n\n`);
    },
    end() {
      stop();
      if (!res.writableEnded) res.end();
    },
    get ended() {
      return res.writableEnded || res.destroyed;
    },
    streaming: true,
  };
}

/** The ids a message answers: a response's id, each of a batch's. */
export function answeredIds(message: OutgoingMessage | OutgoingMessage[]): RequestId[] {
  const ids: RequestId[] = [];
  for (const one of Array.isArray(message) ? message : [message]) {
    const record = one as { id?: RequestId | null; method?: string };
    if (record.method === undefined && record.id !== undefined && record.id !== null) ids.push(record.id);
  }
  return ids;
}

/** A response, an error or a batch's array, not a notification or a request of ours. */
export function isAnswer(message: OutgoingMessage | OutgoingMessage[]): boolean {
  return Array.isArray(message) || !('method' in message);
}

/** An error that could not name its request: it answers the whole POST (parse error, refused batch). */
export function answersWhole(message: OutgoingMessage | OutgoingMessage[]): boolean {
  return !Array.isArray(message) && 'id' in message && message.id === null;
}

function errorCode(message: OutgoingMessage | OutgoingMessage[]): number | undefined {
  if (Array.isArray(message)) return undefined;
  const error = (message as { error?: { code?: unknown } }).error;
  return typeof error?.code === 'number' ? error.code : undefined;
}

export function replyJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}

/**
 * A refusal at the HTTP layer, as a JSON-RPC error: with the id of the one request the POST
 * carried when the body was read (refusedId), else without one. JSON-RPC gives id null only
 * when the request's id cannot be read (https://www.jsonrpc.org/specification#response_object).
 */
export function replyError(
  res: ServerResponse,
  status: number,
  error: RpcError,
  headers: Record<string, string> = {},
  id: RequestId | null = null,
): void {
  replyJson(res, status, errorMessage(id, error), headers);
}

/** The id a refusal of this message answers with: its request's, when it is one request; else null (a batch, a notification). */
export function refusedId(parsed: ParsedLine): RequestId | null {
  return parsed.kind === 'single' && parsed.message.kind === 'request' ? parsed.message.id : null;
}
