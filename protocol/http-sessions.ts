// First reading: skip this file. It is a detail of the HTTP transport; stdio is enough to learn MCP (docs/reading-path.md).
// The handshake era over Streamable HTTP: sessions, each one a connection of the server
// (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports "Streamable HTTP").
//
// `initialize` opens a session and we issue its `Mcp-Session-Id` (random, 128 bits, after the
// instance's name when it has one; "Session Management": the id SHOULD be globally unique and
// cryptographically secure and MUST be visible ASCII, 0x21-0x7E; a readable prefix a load
// balancer can route on keeps both); every later
// POST, GET and DELETE carries it (400 without, 404 for one we do not know or that ended).
// What a request sends on its way (progress, logs, our requests to the client) goes on that
// POST's stream; what belongs to the session as a whole (resource updates, list changes) on
// its GET stream. Every SSE stream can be resumed with `Last-Event-ID` from a bounded replay
// buffer (http-replay.ts). DELETE ends a session; so does a long idle spell.

import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { invalidRequest } from './errors.js';
import { type Identity, sameCredential } from './http-access.js';
import { DEFAULT_REPLAY_LIMITS, type ReplayLimits, type ReplayableStream, SessionStreams } from './http-replay.js';
import { type HttpBudget, peerOf, share } from './http-budget.js';
import {
  type EncodeLine,
  type EventStream,
  type StreamOptions,
  createEventStream,
  createPostResponse,
  refusedId,
  replyError,
} from './http-stream.js';
import { type OutgoingMessage, type ParsedLine, type RequestId, classify } from './json-rpc.js';
import type { Server } from './server.js';
import type { Session, SessionLimits } from './session.js';
import type { Route } from './transport.js';
import { type HandshakeVersion, isHandshakeVersion, rulesFor } from './versions.js';

/** How long a POST's answers may take before they come on a primed SSE stream instead of one JSON body. */
const STREAM_AFTER_MS = 500;

interface HttpSession {
  readonly id: string;
  /** The peer address that opened it: a peer holds at most half the table (http-budget.ts). */
  readonly peer: string;
  readonly connection: Session;
  /** Who opened it, with per-user tokens: only a request with the same token may use it. */
  readonly identity: Identity | undefined;
  /** The negotiated version, once initialize is answered. */
  version: HandshakeVersion | undefined;
  /** Each request in flight, by id: the stream of the POST it came in. */
  readonly posts: Map<RequestId, ReplayableStream>;
  /** The GET stream and the POST streams, resumable. */
  readonly streams: SessionStreams;
  lastSeen: number;
}

export interface SessionTableOptions {
  /** The process's budget: what each stream leaves unread for its client is counted there. */
  budget: HttpBudget;
  maxSessions: number;
  /** Put before every id: the instance's name and a dot, or nothing. */
  idPrefix: string;
  idleMs: number;
  keepAliveMs: number | undefined;
  encodeLine: EncodeLine;
  limits: SessionLimits;
  replay?: Partial<ReplayLimits>;
  report(detail: string): void;
}

export class HandshakeSessions {
  readonly #server: Server;
  readonly #options: SessionTableOptions;
  readonly #sessions = new Map<string, HttpSession>();
  /** Sessions open now, by the peer address that opened them. */
  readonly #perPeer = new Map<string, number>();
  readonly #sweeper: NodeJS.Timeout;

  constructor(server: Server, options: SessionTableOptions) {
    this.#server = server;
    this.#options = options;
    // Sessions nobody uses are ended, so forgotten clients do not hold memory for ever.
    this.#sweeper = setInterval(() => this.#sweep(), Math.min(options.idleMs, 60_000));
    this.#sweeper.unref();
  }

  get size(): number {
    return this.#sessions.size;
  }

  get connections(): Session[] {
    return [...this.#sessions.values()].map((session) => session.connection);
  }

  /** A POST without the 2026-07-28 `_meta`: initialize opens a session, anything else needs one. */
  post(req: IncomingMessage, res: ServerResponse, parsed: ParsedLine, identity: Identity | undefined): void {
    const messages = parsed.kind === 'batch' ? parsed.items.map(classify) : parsed.kind === 'single' ? [parsed.message] : [];
    const opens = messages.length === 1 && messages[0]!.kind === 'request' && messages[0]!.method === 'initialize';
    const refused = refusedId(parsed);
    const session =
      opens && req.headers['mcp-session-id'] === undefined
        ? this.#open(req, res, identity, refused)
        : this.#find(req, res, identity, refused);
    if (!session) return;
    session.lastSeen = Date.now();
    const requests = messages.flatMap((message) => (message.kind === 'request' ? [message.id] : []));
    const headers = { 'Mcp-Session-Id': session.id };
    // A request whose POST connection dropped goes on running ("Disconnection SHOULD NOT be
    // interpreted as the client cancelling"), no longer counted by its response: the session
    // itself is held to --max-in-flight.
    const running = session.connection.inFlight;
    if (requests.length > 0 && running >= this.#options.budget.limits.maxInFlight) {
      const busy = invalidRequest(`Too Many Requests: this session has ${running} requests running; retry later`);
      return replyError(res, 429, busy, { ...headers, 'Retry-After': '1' }, refused);
    }
    // 2025-11-25→: a slow answer comes on a primed stream, which the client can resume.
    const priming = session.version !== undefined && rulesFor(session.version).ssePriming;
    const response = createPostResponse(res, new Set(requests), {
      headers,
      ...this.#streamOptions(session.peer),
      ...(priming ? { streamAfterMs: STREAM_AFTER_MS, onStream: (sse: EventStream) => stream.prime(sse) } : {}),
    });
    const stream = session.streams.openPost(requests, response);
    for (const id of requests) session.posts.set(id, stream);
    // The POST's stream goes with the message, so its answers come back here, an error without an id included.
    session.connection.receive({ kind: 'parsed', parsed }, stream);
    // Only notifications and responses (the client answering us): 202, nothing to say.
    if (requests.length === 0 && !messages.some((message) => message.kind === 'invalid')) {
      response.end();
      session.streams.finished(stream);
    }
  }

  /**
   * A GET: the session's stream for what is not tied to a request; with Last-Event-ID, the
   * stream that event was on (the GET stream or a POST's), from after it.
   */
  get(req: IncomingMessage, res: ServerResponse, identity: Identity | undefined): void {
    if (!/text\/event-stream|\*\/\*/.test(req.headers.accept ?? '')) {
      return replyError(res, 406, invalidRequest('Not Acceptable: a GET stream is text/event-stream'));
    }
    const session = this.#find(req, res, identity);
    if (!session) return;
    const open = () =>
      createEventStream(res, { headers: { 'Mcp-Session-Id': session.id }, ...this.#streamOptions(session.peer) });
    const lastEventId = req.headers['last-event-id'];
    if (typeof lastEventId !== 'string') {
      if (session.streams.standalone.connected) {
        return replyError(res, 409, invalidRequest('Conflict: this session already has a GET stream open'));
      }
      const connection = open();
      session.streams.standalone.connection = connection;
      if (session.version && rulesFor(session.version).ssePriming) connection.prime(session.streams.standalone.lastEventId);
      return;
    }
    const found = session.streams.find(lastEventId);
    const refused = 'status' in found ? found : found.stream.resume(open, found.seq);
    if (refused?.status === 204) res.writeHead(204, { 'Mcp-Session-Id': session.id }).end();
    else if (refused) replyError(res, refused.status, invalidRequest(refused.message));
  }

  delete(req: IncomingMessage, res: ServerResponse, identity: Identity | undefined): void {
    const session = this.#find(req, res, identity);
    if (!session) return;
    this.#end(session);
    res.writeHead(200).end();
  }

  closeAll(): void {
    clearInterval(this.#sweeper);
    for (const session of [...this.#sessions.values()]) this.#end(session);
  }

  #streamOptions(peer: string): StreamOptions {
    const { budget, keepAliveMs, encodeLine } = this.#options;
    const maxQueuedBytes = share(budget.limits.maxQueuedBytes);
    return { keepAliveMs, encodeLine, maxQueuedBytes, queued: (res) => budget.noteQueued(peer, res) };
  }

  #open(
    req: IncomingMessage,
    res: ServerResponse,
    identity: Identity | undefined,
    refused: RequestId | null,
  ): HttpSession | undefined {
    const { maxSessions } = this.#options;
    const peer = peerOf(req);
    const mine = this.#perPeer.get(peer) ?? 0;
    // A quota per peer, so one client cannot lock every other out of the handshake era.
    if (mine >= share(maxSessions)) {
      const message = `Too Many Requests: ${mine} sessions are open from your address (at most ${share(maxSessions)}); end one with DELETE, or retry later`;
      replyError(res, 429, invalidRequest(message), { 'Retry-After': '60' }, refused);
      return undefined;
    }
    if (this.#sessions.size >= maxSessions) {
      replyError(
        res,
        503,
        invalidRequest(`Service Unavailable: at most ${maxSessions} sessions at once`),
        { 'Retry-After': '60' },
        refused,
      );
      return undefined;
    }
    const id = this.#options.idPrefix + randomBytes(16).toString('hex');
    const connection = this.#server.connect(
      {
        send: (message, route) => this.#deliver(session, message, route),
        report: this.#options.report,
        settled: () => {},
        auth: identity?.auth,
      },
      this.#options.limits,
    );
    const session: HttpSession = {
      id,
      peer,
      connection,
      identity,
      version: undefined,
      posts: new Map(),
      streams: new SessionStreams({ ...DEFAULT_REPLAY_LIMITS, ...this.#options.replay }, this.#options.encodeLine),
      lastSeen: Date.now(),
    };
    this.#sessions.set(id, session);
    this.#perPeer.set(peer, mine + 1);
    return session;
  }

  /** A message of a session's connection: to the POST stream it belongs to, or to the GET stream. */
  #deliver(session: HttpSession, message: OutgoingMessage | OutgoingMessage[], route: Route): void {
    if (!session.version && !Array.isArray(message)) this.#noteVersion(session, message);
    const post =
      (route.origin as ReplayableStream | undefined) ??
      (route.relatedRequestId === undefined ? undefined : session.posts.get(route.relatedRequestId));
    if (!post) return session.streams.standalone.send(message);
    // Even with its connection gone, the request's stream keeps what it sends, for a resumption;
    // it never goes to the GET stream, which carries no responses.
    post.send(message);
    session.lastSeen = Date.now();
    if (!post.finished) return;
    for (const id of post.requests) if (session.posts.get(id) === post) session.posts.delete(id);
    session.streams.finished(post);
  }

  /** The initialize answer says which version the session speaks; an error ends the session. */
  #noteVersion(session: HttpSession, message: OutgoingMessage): void {
    const { result, error } = message as { result?: { protocolVersion?: string }; error?: unknown };
    if (result?.protocolVersion && isHandshakeVersion(result.protocolVersion)) session.version = result.protocolVersion;
    else if (error !== undefined) queueMicrotask(() => this.#end(session));
  }

  /** The request's session; else refused (with `refused`, the id of the one request the POST carried), undefined. */
  #find(
    req: IncomingMessage,
    res: ServerResponse,
    identity: Identity | undefined,
    refused: RequestId | null = null,
  ): HttpSession | undefined {
    const id = req.headers['mcp-session-id'];
    if (typeof id !== 'string') {
      replyError(res, 400, invalidRequest('Bad Request: an Mcp-Session-Id header is required after initialize'), {}, refused);
      return undefined;
    }
    const session = this.#sessions.get(id);
    // A session is its opener's: under another token its id names no session, as when sessions
    // are looked up by user and id ("Session Hijacking", https://modelcontextprotocol.io/specification/2025-11-25/basic/security_best_practices:
    // servers SHOULD bind session ids to user-specific information). 404 tells a thief nothing.
    if (!session || !sameCredential(session.identity, identity)) {
      const gone = invalidRequest('Not Found: no such session (it ended or never existed); send initialize again');
      replyError(res, 404, gone, {}, refused);
      return undefined;
    }
    const version = req.headers['mcp-protocol-version'];
    // 400 only for a version that is "invalid or unsupported"; absent means 2025-03-26, which had
    // no such header (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports
    // "Protocol Version Header"). A client SHOULD send the negotiated one; we do not refuse others.
    if (version !== undefined && (typeof version !== 'string' || !isHandshakeVersion(version))) {
      const unknown = invalidRequest(`Bad Request: MCP-Protocol-Version ${version} is not a version this server speaks`);
      replyError(res, 400, unknown, {}, refused);
      return undefined;
    }
    return session;
  }

  #end(session: HttpSession): void {
    if (!this.#sessions.delete(session.id)) return;
    const left = (this.#perPeer.get(session.peer) ?? 1) - 1;
    if (left === 0) this.#perPeer.delete(session.peer);
    else this.#perPeer.set(session.peer, left);
    session.connection.close();
    session.streams.standalone.connection?.end();
    for (const post of session.posts.values()) post.connection?.end();
  }

  /**
   * Ends each session that sent no request and got no answer for `idleMs`, an open GET stream
   * and a pending request notwithstanding: otherwise a client holds its slot for ever with one
   * idle GET, or a request that never completes (an elicitation nobody answers). The client
   * learns it from a 404 and initializes again ("Session Management": the server MAY terminate
   * the session at any time).
   */
  #sweep(): void {
    const now = Date.now();
    for (const session of [...this.#sessions.values()]) {
      if (now - session.lastSeen > this.#options.idleMs) this.#end(session);
    }
  }
}
