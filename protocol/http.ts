// The Streamable HTTP transport: one MCP endpoint (POST, GET, DELETE) for both eras.
//
// - 2026-07-28 (a body whose `_meta` names the version): no session. Each POST is one request
//   on a connection of its own, its headers checked against its body (http-headers.ts), its
//   answer a JSON body or an SSE stream (http-stream.ts); closing that stream cancels it; a
//   `subscriptions/listen` answer is a stream that stays open
//   (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http).
// - The handshake era (2025-03-26 .. 2025-11-25): sessions with `Mcp-Session-Id`, a GET stream
//   and DELETE (http-sessions.ts).
//
// Both eras share one Server (server.ts): a change made through one client reaches the
// subscribers of every other. Access checks come first (http-access.ts).

import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server as NodeServer, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ErrorCode, RpcError, invalidRequest } from './errors.js';
import { type AccessRules, type Authenticate, type Identity, accessRules, identify, readBody, refusal } from './http-access.js';
import { HttpBudget, type Refusal, peerOf, share } from './http-budget.js';
import type { ReplayLimits } from './http-replay.js';
import { checkStatelessHeaders } from './http-headers.js';
import { HandshakeSessions } from './http-sessions.js';
import { type EncodeLine, createPostResponse, refusedId, replyError, replyJson } from './http-stream.js';
import { type ParsedLine, type Request, classify, encodeLineBytes, errorMessage, parseLine } from './json-rpc.js';
import type { Server } from './server.js';
import { type Session, tooManyValues } from './session.js';
import { carriesStatelessMeta, readStatelessMeta } from './stateless.js';

export interface HttpOptions {
  /** Address to bind (default 127.0.0.1: only this machine can connect). */
  host?: string;
  /** Port (0: any free one). */
  port: number;
  /** The MCP endpoint's path (default /mcp). */
  path?: string;
  /** Origins a browser page may call us from, beyond this machine's own pages for a loopback server. */
  allowedOrigins?: string[];
  /** A bearer token every request must carry. */
  authToken?: string;
  /**
   * Per-user bearer tokens, checked by the application (http-access.ts Authenticate): each request
   * is served as whom its token names (RequestContext.auth), and a handshake-era session only
   * for the token that opened it.
   */
  authenticate?: Authenticate;
  /**
   * This instance's name (1-32 of A-Z a-z 0-9 _ -), the prefix of every session id it issues
   * (`NAME.` + 32 hex digits), so a load balancer in front of several instances can send each
   * handshake-era session back to the instance that holds it.
   */
  instanceName?: string;
  /** Largest request body, in bytes (default 32 MiB); 413 past it. */
  maxMessageBytes?: number;
  /** Deepest accepted nesting in a body (default 1000). */
  maxDepth?: number;
  /** Handshake-era sessions open at once (default 100; a peer address at most half): 503 past it, 429 past a peer's half. */
  maxSessions?: number;
  /** Responses open at once, streams included (default 512); 503 past it. */
  maxOpenResponses?: number;
  /**
   * A session that sent no request and got no answer for this long is ended, even with a GET
   * stream open or a request still pending (default 30 minutes).
   */
  sessionIdleMs?: number;
  /** Output waiting for clients that read slowly, all of them together, in characters (default 64 MiB, as on stdio; http-budget.ts). */
  maxQueuedBytes?: number;
  /** Requests served at once, all clients together (default 64, as on stdio); more wait their turn, peers in rotation. */
  maxInFlight?: number;
  /** Request bodies being received at once, in bytes (default 64 MiB: two of the largest message). */
  maxBodyBytes?: number;
  /** TCP connections open at once (default 1000, fewer when the file limit is low); a peer address at most half. */
  maxConnections?: number;
  /** The request line and headers must arrive within this (default 10 s); then 408 and the connection closes. */
  headersTimeoutMs?: number;
  /** The whole request, body included, must arrive within this (default 30 s); then 408. */
  requestTimeoutMs?: number;
  /** A kept-alive connection with no request for this long may be closed, as the server tells its clients (default 5 s). */
  idleTimeoutMs?: number;
  /**
   * How much longer than `idleTimeoutMs` an idle connection is in fact kept (default 10 s), so a
   * request a starved client sent in time still finds it open (serveHttp says why).
   */
  idleGraceMs?: number;
  /** A response whose unread output has not shrunk for this long is closed (default 30 s). */
  stallMs?: number;
  /** A request waits this long for one of the --max-in-flight slots, then gets 503 (default 10 s). */
  slotWaitMs?: number;
  /** A comment line on a quiet stream this often (default 15 s). */
  keepAliveMs?: number;
  /** What a handshake-era session keeps of its SSE streams for a client that resumes one (http-replay.ts). */
  replay?: Partial<ReplayLimits>;
  report?(detail: string): void;
  /**
   * How each outgoing message is encoded (default: json-rpc.ts's encodeLineBytes). The tracker's
   * bundle loads this transport from a file of its own (lib/http-loader.ts), which carries its
   * own copy of json-rpc.ts and pre-encoded.ts; that copy's encodeLineBytes cannot splice the
   * engine's PreEncoded fragments (it would parse each back and encode it again), so the
   * tracker passes the engine's encodeLineBytes here.
   */
  encodeLine?: EncodeLine;
}

export interface HttpEndpoint {
  /** The endpoint's URL, e.g. http://127.0.0.1:3000/mcp. */
  readonly url: string;
  /** Handshake-era sessions open now. */
  readonly sessions: number;
  /** Stops accepting, lets running requests finish until `graceMs`, ends streams, closes everything. */
  close(graceMs?: number): Promise<void>;
}

/** An instance name goes into every session id: letters, digits, `_` and `-` only (visible ASCII, as ids must be). */
const INSTANCE_NAME = /^[A-Za-z0-9_-]{1,32}$/;

export function checkedInstanceName(name: string): string {
  if (!INSTANCE_NAME.test(name)) throw new Error(`an instance name is 1-32 of A-Z a-z 0-9 _ -, got "${name}"`);
  return name;
}

export async function serveHttp(server: Server, options: HttpOptions): Promise<HttpEndpoint> {
  const host = options.host ?? '127.0.0.1';
  const transport = new HttpTransport(
    server,
    options,
    accessRules(host, options.allowedOrigins ?? [], options.authToken, options.authenticate),
  );
  // node:http is loaded here, not at start: a server on stdio never pays for loading it.
  const { createServer: createHttpServer } = await import('node:http');
  // Our own timeouts, not node's defaults (headers 60 s, a whole request 300 s): a client that
  // trickles its headers or its body holds a connection and its share of the body budget for
  // at most these, and one that connects and sends nothing is cut at the headers timeout.
  const http = createHttpServer(
    {
      headersTimeout: options.headersTimeoutMs ?? 10_000,
      requestTimeout: options.requestTimeoutMs ?? 30_000,
      keepAliveTimeout: options.idleTimeoutMs ?? 5_000,
      connectionsCheckingInterval: Math.min(1000, options.headersTimeoutMs ?? 1000),
    },
    (req, res) => transport.handle(req, res),
  );
  http.on('connection', (socket: Socket) => transport.admitConnection(socket));
  // Node tells a client how long it keeps an idle connection (`Keep-Alive: timeout=5`) and closes
  // it 1 s after that; the client reuses one until shortly before the time told (undici, behind
  // fetch: 2 s before). A client starved of CPU for longer than those 3 s sends its next request
  // into a connection already closed ("other side closed"; docs/http.md). So the time told stays, and the connection is kept `idleGraceMs` longer: Node destroys a timed-out
  // socket only when nobody listens for 'timeout'. A connection that read nothing since its
  // grace began is closed at the end of it.
  const graceFrom = new WeakMap<Socket, number>();
  http.on('timeout', (socket: Socket) => {
    if (graceFrom.get(socket) === socket.bytesRead) return void socket.destroy();
    graceFrom.set(socket, socket.bytesRead);
    socket.setTimeout(options.idleGraceMs ?? 10_000);
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, host, () => resolve());
  });
  const address = http.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}${options.path ?? '/mcp'}`,
    get sessions() {
      return transport.sessions.size;
    },
    close: (graceMs = 1500) => transport.close(http, graceMs),
  };
}

class HttpTransport {
  readonly sessions: HandshakeSessions;
  readonly #server: Server;
  readonly #options: HttpOptions;
  readonly #rules: AccessRules;
  readonly #report: (detail: string) => void;
  readonly #encodeLine: EncodeLine;
  /** Connections of 2026-07-28 requests still being answered. */
  readonly #stateless = new Set<Session>();
  readonly #budget: HttpBudget;
  readonly #maxConnections: number;
  /** TCP connections open now, by peer address. */
  readonly #connections = new Map<string, number>();
  #connectionCount = 0;
  #openResponses = 0;

  constructor(server: Server, options: HttpOptions, rules: AccessRules) {
    this.#server = server;
    this.#options = options;
    this.#rules = rules;
    this.#report = options.report ?? ((detail: string) => process.stderr.write(`[mcp http] ${detail}\n`));
    this.#encodeLine = options.encodeLine ?? encodeLineBytes;
    this.#budget = new HttpBudget({
      maxQueuedBytes: options.maxQueuedBytes ?? 64 * 1024 * 1024,
      maxInFlight: options.maxInFlight ?? 64,
      maxBodyBytes: options.maxBodyBytes ?? 2 * (options.maxMessageBytes ?? 32 * 1024 * 1024),
      stallMs: options.stallMs ?? 30_000,
      slotWaitMs: options.slotWaitMs ?? 10_000,
    });
    this.#maxConnections = options.maxConnections ?? defaultMaxConnections();
    this.sessions = new HandshakeSessions(server, {
      budget: this.#budget,
      maxSessions: options.maxSessions ?? 100,
      idPrefix: options.instanceName === undefined ? '' : `${checkedInstanceName(options.instanceName)}.`,
      idleMs: options.sessionIdleMs ?? 30 * 60_000,
      keepAliveMs: options.keepAliveMs,
      encodeLine: this.#encodeLine,
      replay: options.replay,
      limits: { maxDepth: options.maxDepth },
      report: this.#report,
    });
  }

  /**
   * A new TCP connection: past the total or its peer's half, told 503 and closed at once, so
   * idle sockets cannot take every file descriptor (the data file needs some too).
   */
  admitConnection(socket: Socket): void {
    const peer = socket.remoteAddress ?? '';
    const mine = this.#connections.get(peer) ?? 0;
    if (this.#connectionCount >= this.#maxConnections || mine >= share(this.#maxConnections)) {
      socket.end('HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      socket.destroySoon();
      return;
    }
    this.#connectionCount += 1;
    this.#connections.set(peer, mine + 1);
    socket.once('close', () => {
      this.#connectionCount -= 1;
      const left = (this.#connections.get(peer) ?? 1) - 1;
      if (left === 0) this.#connections.delete(peer);
      else this.#connections.set(peer, left);
    });
  }

  handle(req: IncomingMessage, res: ServerResponse): void {
    this.#openResponses += 1;
    res.on('close', () => (this.#openResponses -= 1));
    this.#route(req, res).catch((error: unknown) => {
      // No stack trace in any body: the detail goes to the operator.
      const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
      this.#report(`internal error on ${req.method} ${req.url}: ${detail}`);
      if (!res.headersSent) replyError(res, 500, new RpcError(ErrorCode.InternalError, 'Internal error'));
      else res.destroy();
    });
  }

  async #route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = this.#options.path ?? '/mcp';
    // Parsing the target as a URL is for the rare ones (a query, an absolute form): `/mcp` is it.
    if (req.url !== path && new URL(req.url ?? '/', 'http://x').pathname !== path) return void res.writeHead(404).end();
    const refused = refusal(req, this.#rules);
    if (refused) return refuseAccess(res, refused);
    const identity = identify(req, this.#rules);
    if (identity && 'status' in identity) return refuseAccess(res, identity);
    if (this.#openResponses > (this.#options.maxOpenResponses ?? 512)) {
      const busy = invalidRequest('Service Unavailable: too many open requests; retry later');
      return replyError(res, 503, busy, { 'Retry-After': '1' });
    }
    if (req.method === 'POST') return this.#post(req, res, identity);
    // A GET or DELETE without a session: there is none to stream or end (2026-07-28 asks for 405).
    const withSession = req.headers['mcp-session-id'] !== undefined;
    if (req.method === 'GET' && withSession) return this.sessions.get(req, res, identity);
    if (req.method === 'DELETE' && withSession) return this.sessions.delete(req, res, identity);
    res.writeHead(405, { Allow: withSession ? 'GET, POST, DELETE' : 'POST' }).end();
  }

  async #post(req: IncomingMessage, res: ServerResponse, identity: Identity | undefined): Promise<void> {
    const accept = req.headers.accept ?? '*/*';
    if (!/application\/json|\*\/\*/.test(accept) || !/text\/event-stream|\*\/\*/.test(accept)) {
      return replyError(res, 406, invalidRequest('Not Acceptable: accept both application/json and text/event-stream'));
    }
    if (!isJsonUtf8(req.headers['content-type'])) {
      return replyError(res, 415, invalidRequest('Unsupported Media Type: the body must be application/json in UTF-8'));
    }
    const maxBytes = this.#options.maxMessageBytes ?? 32 * 1024 * 1024;
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (declared > maxBytes) return refuseBody(res, 413, `Payload Too Large: at most ${maxBytes} bytes`);
    const peer = peerOf(req);
    // The body budget is taken before a byte is read: all of a declared length at once, a
    // chunked body chunk by chunk. A peer past its share is not read from at all.
    let reserved = 0;
    const reserve = (bytes: number): Refusal | undefined => {
      const refused = this.#budget.reserveBody(peer, bytes);
      if (!refused) reserved += bytes;
      return refused;
    };
    const upFront = Number.isSafeInteger(declared) ? reserve(declared) : undefined;
    if (upFront) return refuseBody(res, upFront.status, upFront.message);
    // The bytes stay counted until the message runs: one waiting for a slot still holds them.
    try {
      const body = await readBody(req, maxBytes, Number.isSafeInteger(declared) ? undefined : reserve);
      if (body === 'gone') return void res.destroy();
      if (typeof body === 'object') return refuseBody(res, body.status, body.message);
      if (body === 'too-large') return refuseBody(res, 413, `Payload Too Large: at most ${maxBytes} bytes`);
      if (body === 'not-utf8')
        return replyError(res, 400, new RpcError(ErrorCode.ParseError, 'Parse error: the body is not valid UTF-8'));
      const parsed = parseLine(body, this.#options.maxDepth);
      if (parsed.kind === 'parse-error')
        return replyError(res, 400, new RpcError(ErrorCode.ParseError, 'Parse error: not valid JSON'));
      if (parsed.kind === 'too-deep') {
        return replyError(res, 400, invalidRequest(`Invalid Request: nested deeper than ${parsed.maxDepth} levels`));
      }
      if (parsed.kind === 'too-many-values')
        return replyJson(res, 400, errorMessage(parsed.id, invalidRequest(tooManyValues(parsed.maxValues))));
      // Requests that cost work and output wait their turn; a ping, a listen stream (bounded by
      // its own limits, stateless.ts), notifications and responses do not.
      const costly = costlyRequests(parsed);
      if (costly > 0) {
        const refused = this.#budget.admitOutput(peer);
        if (refused)
          return replyError(res, refused.status, invalidRequest(refused.message), { 'Retry-After': '1' }, refusedId(parsed));
        const taken = this.#budget.takeSlots(peer, costly, res);
        if (taken !== true && !(await taken)) {
          if (res.destroyed) return;
          const busy = `Service Unavailable: ${this.#budget.total.inFlight} requests are running and no slot freed in ${this.#budget.limits.slotWaitMs} ms; retry later`;
          return replyError(res, 503, invalidRequest(busy), { 'Retry-After': '1' }, refusedId(parsed));
        }
        // While it waited, the output of others may have filled the budget.
        const late = taken === true ? undefined : this.#budget.admitOutput(peer);
        if (late) return replyError(res, late.status, invalidRequest(late.message), { 'Retry-After': '1' }, refusedId(parsed));
      }
      this.#dispatch(req, res, parsed, identity);
    } finally {
      this.#budget.releaseBody(peer, reserved);
    }
  }

  #dispatch(req: IncomingMessage, res: ServerResponse, parsed: ParsedLine, identity: Identity | undefined): void {
    const request = parsed.kind === 'single' && parsed.message.kind === 'request' ? parsed.message : undefined;
    // A request with the 2026-07-28 _meta, or one without a session that does not open one: no
    // session to serve it in, so it is answered on its own (the era router says what is missing).
    const sessionless = request?.method !== 'initialize' && req.headers['mcp-session-id'] === undefined;
    if (request && (carriesStatelessMeta(request.params) || sessionless)) return this.#postStateless(req, res, request, identity);
    this.sessions.post(req, res, parsed, identity);
  }

  /** A request served without a session: a connection of its own, ended with its answer or by the client closing the stream. */
  #postStateless(req: IncomingMessage, res: ServerResponse, request: Request, identity: Identity | undefined): void {
    const modern = carriesStatelessMeta(request.params);
    try {
      if (modern) {
        checkStatelessHeaders(req.headers, request.method, request.params, this.#server.paramHeaders);
        // A _meta without a required field is -32602 like any bad params, but over HTTP it is
        // 400, unlike them (https://modelcontextprotocol.io/specification/2026-07-28/basic
        // "Per-request protocol fields"): so it is refused here, before the engine reads it again.
        readStatelessMeta(request.params);
      }
    } catch (error) {
      return replyJson(res, 400, errorMessage(request.id, error as RpcError));
    }
    // Without the _meta and without a session, every error is the client's: 400.
    const statusFor = modern ? statelessStatus : () => 400;
    const peer = peerOf(req);
    const stream = createPostResponse(res, new Set([request.id]), {
      keepAliveMs: this.#options.keepAliveMs,
      encodeLine: this.#encodeLine,
      statusFor,
      maxQueuedBytes: share(this.#budget.limits.maxQueuedBytes),
      queued: (response) => this.#budget.noteQueued(peer, response),
    });
    const finish = () => {
      if (this.#stateless.delete(connection)) connection.close();
    };
    const connection = this.#server.connect(
      {
        send(message) {
          stream.send(message);
          if (stream.ended) finish();
        },
        report: this.#report,
        settled: () => {},
        auth: identity?.auth,
      },
      { maxDepth: this.#options.maxDepth },
    );
    this.#stateless.add(connection);
    // Closing the response stream is the cancellation (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http "Cancellation").
    res.on('close', finish);
    connection.receive({ kind: 'parsed', parsed: { kind: 'single', message: request } });
  }

  async close(http: NodeServer, graceMs: number): Promise<void> {
    http.close();
    const connections = [...this.sessions.connections, ...this.#stateless];
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([Promise.all(connections.map((connection) => connection.idle())), deadline]);
    clearTimeout(timer);
    this.sessions.closeAll();
    this.#budget.close();
    for (const connection of this.#stateless) connection.close();
    http.closeAllConnections();
  }
}

/** A request refused by the access checks; a 401 names the scheme it wants (RFC 6750 section 3). */
function refuseAccess(res: ServerResponse, refused: { status: number; message: string }): void {
  const challenge: Record<string, string> = refused.status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {};
  replyError(res, refused.status, invalidRequest(refused.message), challenge);
}

/** Refused before the body is read: the connection closes after the answer, so its unread body is not read either. */
function refuseBody(res: ServerResponse, status: number, message: string): void {
  const retry: Record<string, string> = status === 413 ? {} : { 'Retry-After': '1' };
  replyError(res, status, invalidRequest(message), { ...retry, Connection: 'close' });
  res.once('finish', () => res.req.destroy());
}

/** The requests of a message that cost work: all but pings and listen streams. */
function costlyRequests(parsed: ParsedLine): number {
  const messages = parsed.kind === 'batch' ? parsed.items.map(classify) : parsed.kind === 'single' ? [parsed.message] : [];
  let costly = 0;
  for (const message of messages) {
    if (message.kind === 'request' && message.method !== 'ping' && message.method !== 'subscriptions/listen') costly += 1;
  }
  return costly;
}

/**
 * 1000 connections, or fewer when the process may open fewer files (Linux's default soft limit
 * is 1024): 64 descriptors stay for the data file, its lock and snapshot, and the rest.
 */
function defaultMaxConnections(): number {
  try {
    const limit = /Max open files\s+(\d+)/.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1];
    if (limit) return Math.max(16, Math.min(1000, Number(limit) - 64));
  } catch {
    // Not Linux: the default stands.
  }
  return 1000;
}

/**
 * `application/json`, with no charset or `utf-8`: the client "MUST" POST JSON-RPC messages
 * (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports "Sending Messages
 * to the Server"), and "JSON-RPC messages MUST be UTF-8 encoded" (same page). Not a prefix
 * match: `application/json-seq` is another type. Type and parameter names are case-insensitive,
 * a value may be quoted (RFC 9110 section 8.3.1).
 */
export function isJsonUtf8(contentType: string | undefined): boolean {
  if (contentType === 'application/json') return true;
  const [type, ...parameters] = (contentType ?? '').split(';').map((part) => part.trim());
  if (type?.toLowerCase() !== 'application/json') return false;
  return parameters.every((parameter) => {
    const [name, value = ''] = parameter.split('=').map((part) => part.trim());
    return name!.toLowerCase() !== 'charset' || value.replace(/^"(.*)"$/, '$1').toLowerCase() === 'utf-8';
  });
}

/**
 * 2026-07-28 gives some errors their own HTTP status, so gateways and clients can tell them
 * apart without reading the body (streamable-http "Protocol Version Header", "Server Validation").
 */
function statelessStatus(code: number): number {
  if (code === ErrorCode.MethodNotFound) return 404;
  const badRequest: number[] = [
    ErrorCode.HeaderMismatch,
    ErrorCode.UnsupportedProtocolVersion,
    ErrorCode.MissingRequiredClientCapability,
    ErrorCode.InvalidRequest,
    ErrorCode.ParseError,
  ];
  return badRequest.includes(code) ? 400 : 200;
}
