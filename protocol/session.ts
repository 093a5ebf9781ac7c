// One connection's session: the messages of one client, in both eras, on top of the peer.
//
// The session is given whole messages by a transport (transport.ts) and answers through the
// transport's `send`; it does no I/O. What it owns is what belongs to one client: the
// handshake lifecycle (lifecycle.ts), the requests in flight and our requests to the client
// (peer.ts), the client's subscriptions and listen streams. What all clients share, the
// registries and capabilities, belongs to the server (server.ts).
//
// - Each request goes to the era router (era-router.ts), which picks the era, checks the
//   lifecycle and runs the method from the table (methods.ts).
// - `initialize` runs synchronously, so the next message is not dispatched before the version
//   is settled (an asynchronous initialize lets a fast client race it).
// - Notifications are handled in arrival order and never answered
//   (https://modelcontextprotocol.io/specification/2025-11-25/basic).
// - A JSON array is a batch only in a 2025-03-26 session (rule 1.6); otherwise it gets a
//   single -32600 with id null.
//
// The life of a request, from the transport to a handler and back, is drawn in docs/reading-path.md.

import { type Client, HandlerContext, type RequestContext, type SessionLink, refuse } from './context.js';
import { createEraRouter } from './era-router.js';
import { ErrorCode, RpcError, invalidRequest } from './errors.js';
import {
  type Incoming,
  type OutgoingMessage,
  type Request,
  type RequestId,
  classify,
  errorMessage,
  notificationMessage,
  parseLine,
} from './json-rpc.js';
import { type Handshake, createHandshake } from './lifecycle.js';
import type { SessionState } from './methods.js';
import { type Peer, type RunningRequest, createPeer } from './peer.js';
import { CancelledParamsSchema, type ClientCapabilities, LOG_LEVELS, type LogLevel } from './schemas.js';
import type { SharedState } from './definition.js';
import { honouredFilter } from './capabilities.js';
import { type ListenStreams, createListenStreams } from './stateless.js';
import { type SubscriptionRegistry, createSubscriptionRegistry, isWatched } from './subscriptions.js';
import type { Connection, ConnectionIo, Inbound, Route } from './transport.js';
import type { VersionRules } from './versions.js';

/** A connection as its server sees it: it also hears what changed. */
export interface Session extends Connection {
  /** What a URI returns has changed; its subscribers on this connection are told, each with the spelling it used. */
  resourceUpdated(uri: string): void;
  resourceListChanged(): void;
  /** Who this connection reads as: its auth subject (RequestContext.auth), "" without one. */
  readonly viewer: string;
  /** A log message not tied to a request, if the handshake-era log level lets it through. */
  log(level: LogLevel, data: unknown, logger?: string): void;
  /** Subscriptions the client holds now (each spelling, on each stream). */
  readonly subscriptions: number;
}

export interface SessionLimits {
  /** Deepest accepted nesting of arrays and objects in a message (default 1000). */
  maxDepth?: number;
}

const MAX_BATCH_ITEMS = 1000;

/**
 * Requests whose answers are small and cost little whatever the data (the registries' listings,
 * pages of at most pageSize items; completions, at most 100 values): handled at once, ahead of
 * costly requests waiting for their turn. Even ahead of an `initialize` still waiting: a client
 * must wait for its answer before any request but ping
 * (https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle "Initialization"),
 * and one that does not gets the -32600 it would get anyway if it were quicker.
 */
export const QUICK_METHODS: ReadonlySet<string> = new Set([
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'completion/complete',
]);

export const tooManyValues = (maxValues: number): string =>
  `Invalid Request: a message holds at most ${maxValues} values (objects, arrays and their members)`;

const CLIENT_CAPABILITY_FOR: Record<string, keyof ClientCapabilities> = {
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
  'roots/list': 'roots',
};

/**
 * `onClose` tells the server the connection is gone, so it no longer hears changes.
 *
 * Performance (a first reading may skip it): a connection is cheap to make, and must be: a Streamable HTTP server makes one for every
 * 2026-07-28 request. So its parts (the handshake, the peer, the subscriptions, the listen
 * streams) are classes, or objects of plain functions, never object literals with a getter
 * (`{ get size() { ... } }`): on Node 20 each such literal gets a hidden class of its own,
 * made in the old generation, and thousands of them a second keep the garbage collector busy
 * (docs/performance.md, "A connection without getters").
 */
export function createSession(shared: SharedState, io: ConnectionIo, limits: SessionLimits, onClose: () => void): Session {
  return new ServerSession(shared, io, limits, onClose);
}

class ServerSession implements Session {
  readonly #shared: SharedState;
  readonly #io: ConnectionIo;
  readonly #maxDepth: number | undefined;
  readonly #handshake: Handshake = createHandshake();
  // The subscriptions and listen streams are made on first use: over HTTP in 2026-07-28 every
  // POST is a connection of its own (http.ts), and nearly all of them subscribe to nothing.
  #subscriptionsMade: SubscriptionRegistry | undefined;
  #streamsMade: ListenStreams | undefined;
  readonly #peer: Peer;
  /** Answers still being worked on, so `idle` can wait for them. */
  readonly #running = new Set<Promise<unknown>>();
  /** Messages waiting for their turn (turns.ts). */
  #waiting = 0;
  #closed = false;

  readonly #onClose: () => void;

  constructor(shared: SharedState, io: ConnectionIo, limits: SessionLimits, onClose: () => void) {
    this.#shared = shared;
    this.#onClose = onClose;
    this.#io = io;
    this.#maxDepth = limits.maxDepth;
    const route = createEraRouter({
      shared,
      handshake: this.#handshake,
      state: this.#methodState(),
      contextFor: (request, running, rules, client, logLevel) => this.#contextFor(request, running, rules, client, logLevel),
    });
    this.#peer = createPeer({
      send: (message, relatedRequestId) => io.send(message, { relatedRequestId }),
      onRequest: route,
      // https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle "Timeouts": on expiry, cancel the request and stop waiting.
      onOutgoingAbandoned: (id, reason, relatedRequestId) =>
        io.send(notificationMessage('notifications/cancelled', { requestId: id, reason }), { relatedRequestId }),
      report: io.report,
    });
  }

  #subscriptions(): SubscriptionRegistry {
    const { resources, subscriptionLimits, subscriptionHooks } = this.#shared;
    this.#subscriptionsMade ??= createSubscriptionRegistry(
      resources.canonicalUri,
      subscriptionLimits,
      subscriptionHooks,
      this.viewer,
    );
    return this.#subscriptionsMade;
  }

  #streams(): ListenStreams {
    const io = this.#io;
    this.#streamsMade ??= createListenStreams(
      (message, route) => io.send(message, route),
      this.#subscriptions(),
      this.#shared.subscriptionLimits.maxStreams,
    );
    return this.#streamsMade;
  }

  /** What the method table's handlers may read and change on this connection. */
  #methodState(): SessionState {
    const shared = this.#shared;
    const handshake = this.#handshake;
    return {
      tools: shared.tools,
      resources: shared.resources,
      prompts: shared.prompts,
      tasks: shared.tasks,
      pageSize: shared.pageSize,
      setLogLevel: (level) => void (handshake.logLevel = level),
      initialize: (params) => shared.initializeResult(handshake.initialize(params)),
      discover: () => shared.discoverResult(),
      listen: (filter, context) =>
        this.#streams().open(context.requestId, honouredFilter(filter, shared.features), context.signal),
      subscribe: (uri) => this.#subscriptions().subscribe(uri),
      isWatched: (uri) => isWatched(shared.subscriptionHooks, shared.resources.canonicalUri, uri, this.viewer),
      unsubscribe: (uri) => this.#subscriptions().unsubscribe(uri),
    };
  }

  #contextFor(
    request: Request,
    running: RunningRequest,
    rules: VersionRules,
    client: Client,
    logLevel: () => LogLevel | undefined,
  ): RequestContext {
    const token = (request.params as { _meta?: { progressToken?: unknown } } | undefined)?._meta?.progressToken;
    return new HandlerContext(request.id, rules, client, running, token, logLevel, this.#link, this.#io.auth);
  }

  readonly #link: SessionLink = {
    send: (message, relatedRequestId) => this.#io.send(message, { relatedRequestId }),
    sendLog: (threshold, level, data, logger, relatedRequestId) =>
      this.#sendLog(threshold, level, data, logger, relatedRequestId),
    requestClient: (method, params, timeoutMs, relatedRequestId, signal) =>
      this.#requestClient(method, params, timeoutMs, relatedRequestId, signal),
  };

  /** https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle "Operation": use only capabilities the client declared; nothing before `initialized`. */
  #requestClient(
    method: string,
    params: unknown,
    timeoutMs: number,
    relatedRequestId: RequestId,
    signal: AbortSignal,
  ): Promise<unknown> {
    const needed = CLIENT_CAPABILITY_FOR[method];
    const handshake = this.#handshake;
    if (!handshake.clientInitialized) return refuse(`${method}: the client has not sent notifications/initialized yet`);
    if (needed && handshake.client.capabilities[needed] === undefined) {
      return refuse(`${method}: the client did not declare the ${needed} capability`);
    }
    return this.#peer.request(method, params, timeoutMs, relatedRequestId, signal);
  }

  #sendLog(threshold: LogLevel | undefined, level: LogLevel, data: unknown, logger?: string, relatedRequestId?: RequestId) {
    if (!this.#shared.features.has('logging') || threshold === undefined) return;
    if (LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(threshold)) return;
    const params = logger === undefined ? { level, data } : { level, logger, data };
    this.#io.send(notificationMessage('notifications/message', params), { relatedRequestId });
  }

  // ---- incoming messages ------------------------------------------------------------------

  receive(inbound: Inbound, origin?: unknown): void {
    // A fault of ours while handling one message must not stop the transport or spill into the next.
    try {
      this.#receive(inbound, origin);
    } catch (thrown) {
      this.#io.report(
        `internal error on a message: ${thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown)}`,
      );
    }
  }

  #receive(inbound: Inbound, origin: unknown): void {
    if (inbound.kind === 'too-long') {
      return this.#sendError(
        invalidRequest(`Invalid Request: message longer than ${inbound.limitBytes} bytes, discarded`),
        origin,
      );
    }
    if (inbound.kind === 'not-utf8') {
      return this.#sendError(new RpcError(ErrorCode.ParseError, 'Parse error: message is not valid UTF-8'), origin);
    }
    const parsed = inbound.kind === 'parsed' ? inbound.parsed : parseLine(inbound.text, this.#maxDepth);
    if (parsed.kind === 'parse-error') this.#sendError(new RpcError(ErrorCode.ParseError, 'Parse error: not valid JSON'), origin);
    else if (parsed.kind === 'too-deep') {
      this.#sendError(invalidRequest(`Invalid Request: nested deeper than ${parsed.maxDepth} levels`), origin);
    } else if (parsed.kind === 'too-many-values') {
      if (parsed.notification) this.#io.report(`ignored: a notification of more than ${parsed.maxValues} values`);
      else this.#io.send(errorMessage(parsed.id, invalidRequest(tooManyValues(parsed.maxValues))), { origin });
    } else if (parsed.kind === 'batch') this.#later(() => this.#handleBatch(parsed.items, origin));
    else this.#dispatch(parsed.message, origin);
  }

  /**
   * Fair scheduling (turns.ts): a ping, a cancellation and a listing are handled at once, even
   * while costly messages wait for their turn; everything else takes its turn, in order. A
   * cancellation is also handled again in its place in line, where it stops a request it
   * follows that had not started yet (a request unknown to the peer ignores it).
   */
  #dispatch(message: Incoming, origin: unknown): void {
    const quick = this.#isQuick(message);
    const cancellation = message.kind === 'notification' && message.method === 'notifications/cancelled';
    if (quick || cancellation) this.#sendWhenReady(this.#handle(message), origin, quick);
    if (quick || (cancellation && this.#waiting === 0)) return;
    this.#later(() => this.#sendWhenReady(this.#handle(message), origin));
  }

  #isQuick(message: Incoming): boolean {
    if (message.kind !== 'request') return false;
    // A listing overtakes waiting work only once the handshake is done, or when nothing waits:
    // before that it would overtake an `initialize` and be refused, or served, by the timing of
    // the turns, where a client that pipelines them must get the same answer every time.
    const listing = QUICK_METHODS.has(message.method) && (this.#handshake.ready || this.#waiting === 0);
    return message.method === 'ping' || listing;
  }

  /** Runs `work` in its turn; until then it counts as in flight, so the transport reads no further than its limit allows. */
  #later(work: () => void): void {
    this.#waiting += 1;
    let deferred = false;
    this.#shared.turns.run(() => {
      this.#waiting -= 1;
      if (this.#closed) return;
      try {
        work();
      } catch (thrown) {
        this.#io.report(
          `internal error on a message: ${thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown)}`,
        );
      }
      if (deferred) this.#io.settled(); // it was counted in flight: the transport may read on
    });
    deferred = true;
  }

  /** An error for a message whose id could not be read: JSON-RPC answers it with id null. */
  #sendError(error: RpcError, origin: unknown): void {
    this.#io.send(errorMessage(null, error), { origin });
  }

  /** Handles one message; gives its response (later, if it runs on), or null when there is none to send. */
  #handle(message: Incoming): Promise<OutgoingMessage | null> | OutgoingMessage | null {
    switch (message.kind) {
      case 'request':
        return this.#track(this.#peer.answer(message));
      case 'notification':
        this.#handleNotification(message.method, message.params);
        return null;
      case 'response':
        this.#peer.receiveResponse(message);
        return null;
      case 'invalid':
        return errorMessage(message.id, message.error);
      case 'ignored':
        this.#io.report(`ignored: ${message.reason}`);
        return null;
    }
  }

  #handleNotification(method: string, params: unknown): void {
    switch (method) {
      case 'notifications/initialized':
        this.#handshake.clientInitialized = true;
        return;
      case 'notifications/cancelled': {
        // Malformed or unknown cancellations are ignored silently (https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/cancellation).
        const parsed = CancelledParamsSchema.safeParse(params);
        if (parsed.success) this.#peer.cancel(parsed.data.requestId);
        return;
      }
      default:
        // Unknown notifications (notifications/roots/list_changed, progress for requests we never sent, future ones): ignore.
        return;
    }
  }

  /** JSON-RPC 2.0 batches (https://www.jsonrpc.org/specification#batch), for 2025-03-26 sessions: one array of responses, none for notifications, nothing at all if empty. */
  #handleBatch(items: unknown[], origin: unknown): void {
    if (!this.#handshake.ready || !this.#handshake.rules.batches) {
      return this.#sendError(invalidRequest('Invalid Request: batches are not supported in this protocol version'), origin);
    }
    if (items.length === 0) return this.#sendError(invalidRequest('Invalid Request: empty batch'), origin);
    // One batch is answered in one message, so its size bounds memory and the in-flight limit.
    if (items.length > MAX_BATCH_ITEMS) {
      return this.#sendError(invalidRequest(`Invalid Request: a batch holds at most ${MAX_BATCH_ITEMS} messages`), origin);
    }
    const outcomes = items.map((item) => {
      const message = classify(item);
      // https://modelcontextprotocol.io/specification/2025-03-26/basic/lifecycle: initialize MUST NOT be part of a batch.
      if (message.kind === 'request' && message.method === 'initialize') {
        return errorMessage(message.id, invalidRequest('Invalid Request: initialize cannot be part of a batch'));
      }
      return this.#handle(message);
    });
    void Promise.all(outcomes).then((responses) => {
      const present = responses.filter((r): r is OutgoingMessage => r !== null);
      if (present.length > 0) this.#deliver(present, origin);
      this.#io.settled();
    });
  }

  #track(outcome: OutgoingMessage | null | Promise<OutgoingMessage | null>): typeof outcome {
    if (!(outcome instanceof Promise)) return outcome;
    this.#running.add(outcome);
    void outcome.finally(() => this.#running.delete(outcome));
    return outcome;
  }

  #sendWhenReady(outcome: Promise<OutgoingMessage | null> | OutgoingMessage | null, origin: unknown, urgent = false): void {
    if (outcome === null) return;
    if (!(outcome instanceof Promise)) return this.#deliver(outcome, origin, urgent);
    // Settled only once the answer is sent: the transport then sees its size in the output
    // waiting, and a request it takes next cannot be answered first.
    void outcome.then((message) => {
      if (message) this.#deliver(message, origin);
      this.#io.settled();
    });
  }

  /**
   * Sends an answer; one too big to encode (JSON.stringify has a length limit) is replaced by
   * -32603 for each id it answered, so no request is left without a response.
   */
  #deliver(answer: OutgoingMessage | OutgoingMessage[], origin: unknown, urgent = false): void {
    const first = Array.isArray(answer) ? answer[0] : answer;
    const relatedRequestId = first && 'id' in first && first.id !== null ? first.id : undefined;
    const route: Route = urgent ? { relatedRequestId, origin, urgent } : { relatedRequestId, origin };
    try {
      this.#io.send(answer, route);
    } catch (thrown) {
      this.#io.report(`could not send an answer: ${thrown instanceof Error ? thrown.message : String(thrown)}`);
      const failed = (Array.isArray(answer) ? answer : [answer]).map((message) =>
        errorMessage(
          'id' in message ? message.id : null,
          new RpcError(ErrorCode.InternalError, 'Internal error: the result could not be encoded'),
        ),
      );
      this.#io.send(Array.isArray(answer) ? failed : failed[0]!, route);
    }
  }

  // ---- what the server tells every connection ---------------------------------------------

  resourceUpdated(uri: string): void {
    // Only for URIs the client subscribed to
    // (https://modelcontextprotocol.io/specification/2025-11-25/server/resources#subscriptions), and with
    // its spelling: the client matches the notification to its subscription by that string.
    for (const { holder, uri: spelling } of this.#subscriptionsMade?.subscribersOf(uri) ?? []) {
      if (holder === null) this.#io.send(notificationMessage('notifications/resources/updated', { uri: spelling }), {});
      else this.#streams().resourceUpdated(holder, spelling);
    }
  }

  resourceListChanged(): void {
    if (this.#handshake.ready && this.#shared.features.has('resourceListChanged')) {
      this.#io.send(notificationMessage('notifications/resources/list_changed'), {});
    }
    this.#streamsMade?.resourceListChanged();
  }

  /** Only the handshake era has a session-wide log level for a log not tied to a request. */
  log(level: LogLevel, data: unknown, logger?: string): void {
    if (this.#handshake.ready) this.#sendLog(this.#handshake.logLevel, level, data, logger);
  }

  get viewer(): string {
    return this.#io.auth?.subject ?? '';
  }

  get subscriptions(): number {
    return this.#subscriptionsMade?.count() ?? 0;
  }

  // Listen streams and handlers waiting for the client's answer are not work the transport
  // must wait for: counting them could stop the input with the very message that would end
  // them (a cancel, the client's answer) unread.
  get inFlight(): number {
    return this.#waiting + Math.max(0, this.#peer.inFlight() - (this.#streamsMade?.count() ?? 0) - this.#peer.awaitingAnswers());
  }

  get waiting(): number {
    return this.#waiting;
  }

  async idle(): Promise<void> {
    this.#streamsMade?.closeAll();
    while (this.#running.size > 0 || this.#waiting > 0) {
      if (this.#running.size > 0) await Promise.allSettled([...this.#running]);
      else await new Promise((resolve) => setImmediate(resolve));
    }
  }

  close(): void {
    this.#closed = true;
    this.#peer.abortAll();
    this.#streamsMade?.closeAll();
    this.#subscriptionsMade?.clear();
    this.#onClose();
  }
}
