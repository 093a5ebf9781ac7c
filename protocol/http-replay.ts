// First reading: skip this file. It is a detail of the HTTP transport; stdio is enough to learn MCP (docs/reading-path.md).
// Resumable SSE streams of a handshake-era session: event ids, a bounded replay buffer per
// stream, and resumption with `Last-Event-ID`
// (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports "Resumability and
// Redelivery"; the same rules from 2025-03-26).
//
// Each SSE stream of a session — the GET stream, and each POST answered with a stream — has a
// key, and each event on it an id `KEY-SEQ`: unique across the session's streams, and naming
// the stream it belongs to, as the page asks ("Event IDs SHOULD encode sufficient information
// to identify the originating stream"). A client that lost a stream sends a GET with the last id
// it saw; it gets what that stream sent afterwards, and nothing of any other stream ("MUST NOT
// replay messages that would have been delivered on a different stream"), then the stream goes
// on where it was: a POST's stream ends after its answers, the GET stream stays open.
//
// A dropped connection does not cancel its request ("Disconnection SHOULD NOT be interpreted as
// the client cancelling its request"): what the request sends meanwhile is kept for the client.
// Kept, within bounds: the latest events of each stream (by count and by size), and a bounded
// number of streams without a connection. Past them the client is told plainly (410 Gone)
// rather than given a stream with a hole in it.

import { type EncodeLine, type EventStream, type ResponseStream, answeredIds, answersWhole, isAnswer } from './http-stream.js';
import { type OutgoingMessage, type RequestId, lineLength } from './json-rpc.js';

export interface ReplayLimits {
  /** Events kept per stream, the latest (default 100). */
  maxEvents: number;
  /** Bytes of JSON kept per stream, the latest events (default 256 KiB). */
  maxBytes: number;
  /** Streams kept per session beyond the GET stream, the newest first (default 32). */
  maxStreams: number;
}

export const DEFAULT_REPLAY_LIMITS: ReplayLimits = { maxEvents: 100, maxBytes: 256 * 1024, maxStreams: 32 };

interface KeptEvent {
  seq: number;
  message: OutgoingMessage | OutgoingMessage[];
  bytes: number;
}

/** One SSE stream as the client sees it, across the connections that carry it. */
export class ReplayableStream {
  readonly key: string;
  /** The requests the stream was opened for (the session's table of requests in flight is cleared by them). */
  readonly requests: readonly RequestId[];
  /** The connection carrying it now, if any: the POST's own response, or a GET that resumed it. */
  connection: ResponseStream | undefined;
  readonly #limits: ReplayLimits;
  readonly #encodeLine: EncodeLine;
  /** The requests whose answers end this stream (none for the GET stream, which never ends). */
  readonly #awaiting: Set<RequestId>;
  readonly #events: KeptEvent[] = [];
  #bytes = 0;
  #nextSeq = 1;
  /** The highest seq no longer kept: a resumption from before it would have a hole. */
  #dropped = 0;
  /** Whether any event went out as SSE with an id, so a client can hold one of them. */
  #streamed = false;
  #finished = false;

  constructor(
    key: string,
    requests: readonly RequestId[],
    limits: ReplayLimits,
    encodeLine: EncodeLine,
    connection?: ResponseStream,
  ) {
    this.key = key;
    this.requests = requests;
    this.#awaiting = new Set(requests);
    this.#limits = limits;
    this.#encodeLine = encodeLine;
    this.connection = connection;
  }

  /** True once every request of the stream is answered: nothing more will be sent on it. */
  get finished(): boolean {
    return this.#finished;
  }

  /** Whether a client can hold an id of this stream (it was not answered as one JSON body). */
  get resumable(): boolean {
    return this.#streamed;
  }

  /** The id of the last event sent on the stream (`KEY-0` before the first): where a resumption from now would start. */
  get lastEventId(): string {
    return `${this.key}-${this.#nextSeq - 1}`;
  }

  /** Whether a connection carries the stream now. */
  get connected(): boolean {
    return this.connection !== undefined && !this.connection.ended;
  }

  /** Primes the connection that has just become this stream (http-stream.ts): a client may resume it from now on. */
  prime(connection: EventStream): void {
    connection.prime(this.lastEventId);
    this.#streamed = true;
  }

  /** Sends on the connection, if one carries the stream, and keeps the event for a client that comes back. */
  send(message: OutgoingMessage | OutgoingMessage[]): void {
    if (this.#finished) return;
    const seq = this.#nextSeq;
    const live = this.connected ? this.connection : undefined;
    // Counted once sent: a connection this message turns into a stream is primed with the id before it.
    live?.send(message, `${this.key}-${seq}`);
    this.#nextSeq = seq + 1;
    if (live?.streaming !== false) {
      this.#streamed ||= live !== undefined;
      this.#keep({ seq, message, bytes: lineLength(this.#encodeLine(message)) });
    }
    for (const id of answeredIds(message)) this.#awaiting.delete(id);
    // Done once every request has its answer, or with an error for the POST as a whole (id null).
    if (isAnswer(message) && (this.#awaiting.size === 0 || answersWhole(message)) && this.key !== GET_STREAM) {
      this.#finished = true;
      this.connection?.end();
    }
  }

  /** Oldest first, past either bound; an event larger than the whole budget is not kept at all. */
  #keep(event: KeptEvent): void {
    this.#events.push(event);
    this.#bytes += event.bytes;
    while (this.#events.length > this.#limits.maxEvents || this.#bytes > this.#limits.maxBytes) {
      const oldest = this.#events.shift()!;
      this.#bytes -= oldest.bytes;
      this.#dropped = oldest.seq;
    }
  }

  /**
   * Carries the stream on `connection` from after `seq`: what it missed, then what comes. Past
   * the bounds, the reason it cannot be done; then nothing is sent.
   */
  resume(connection: () => ResponseStream, seq: number): { status: number; message: string } | undefined {
    if (seq >= this.#nextSeq) return { status: 400, message: `Bad Request: event ${this.key}-${seq} was never sent` };
    if (seq < this.#dropped) {
      return {
        status: 410,
        message: `Gone: events after ${this.key}-${seq} are no longer kept (the latest ${this.#limits.maxEvents} events and ${this.#limits.maxBytes} bytes of a stream are)`,
      };
    }
    // Nothing left, and nothing more to come: 204 tells an SSE client to stop reconnecting
    // (https://html.spec.whatwg.org/multipage/server-sent-events.html "204 No Content"). A
    // stream that ends instead would be reconnected to for ever by a client that missed no answer
    // but keeps waiting for one (a stream that ended with an error answer, for some clients).
    if (this.#finished && this.#events.every((event) => event.seq <= seq)) {
      return { status: 204, message: `No Content: stream ${this.key} has ended; nothing after event ${this.key}-${seq}` };
    }
    const previous = this.connection;
    this.connection = connection();
    this.#streamed = true;
    // The client says it lost the old connection; if we have not noticed yet, it ends now.
    if (previous !== this.connection) previous?.end();
    for (const event of this.#events) if (event.seq > seq) this.connection.send(event.message, `${this.key}-${event.seq}`);
    if (this.#finished) this.connection.end();
    return undefined;
  }
}

/** The key of a session's GET stream; POST streams are numbered from 1. */
const GET_STREAM = '0';
/** The order in which streams beyond the limit are forgotten: those finished, then those still running. */
const FINISHED_FIRST = [true, false] as const;

/** The SSE streams of one session, by key. */
export class SessionStreams {
  readonly standalone: ReplayableStream;
  readonly #limits: ReplayLimits;
  readonly #encodeLine: EncodeLine;
  readonly #byKey = new Map<string, ReplayableStream>();
  #nextKey = 1;

  constructor(limits: ReplayLimits, encodeLine: EncodeLine) {
    this.#limits = limits;
    this.#encodeLine = encodeLine;
    this.standalone = new ReplayableStream(GET_STREAM, [], limits, encodeLine);
    this.#byKey.set(GET_STREAM, this.standalone);
  }

  /** The stream of a POST of requests, carried first by the POST's own response. */
  openPost(awaiting: readonly RequestId[], connection: ResponseStream): ReplayableStream {
    const stream = new ReplayableStream(String(this.#nextKey++), awaiting, this.#limits, this.#encodeLine, connection);
    this.#byKey.set(stream.key, stream);
    this.#forgetBeyondLimit();
    return stream;
  }

  /** A stream is done: forget it at once if no client can ask for it again (it was answered as JSON). */
  finished(stream: ReplayableStream): void {
    if (!stream.resumable) this.#byKey.delete(stream.key);
  }

  /** The stream a Last-Event-ID names, and the seq to resume after; or why there is none. */
  find(lastEventId: string): { stream: ReplayableStream; seq: number } | { status: number; message: string } {
    const match = /^(\d+)-(\d+)$/.exec(lastEventId);
    if (!match || !Number.isSafeInteger(Number(match[2]))) {
      return {
        status: 400,
        message: `Bad Request: Last-Event-ID ${JSON.stringify(lastEventId.slice(0, 100))} is not an event id of ours`,
      };
    }
    const stream = this.#byKey.get(match[1]!);
    if (!stream) {
      return {
        status: 410,
        message: `Gone: stream ${match[1]} is no longer kept (a session keeps its ${this.#limits.maxStreams} newest streams)`,
      };
    }
    return { stream, seq: Number(match[2]) };
  }

  /**
   * The oldest streams no connection carries go first: finished ones, then those still running.
   * Runs on every POST, over every stream while more than `maxStreams` are open (64 requests in
   * flight are 64 streams), so it walks the table in place rather than copying it into arrays.
   */
  #forgetBeyondLimit(): void {
    let excess = this.#byKey.size - 1 - this.#limits.maxStreams;
    for (const finished of FINISHED_FIRST) {
      for (const stream of this.#byKey.values()) {
        if (excess <= 0) return;
        if (stream === this.standalone || stream.connected || stream.finished !== finished) continue;
        this.#byKey.delete(stream.key);
        excess -= 1;
      }
    }
  }
}
