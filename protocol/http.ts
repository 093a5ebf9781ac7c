// The Streamable HTTP transport: one MCP endpoint (POST, GET, DELETE) for both eras.
//
// - 2026-07-28 (a body whose `_meta` names the version): no session. Each POST is one request
//   on a connection of its own, its headers checked against its body (http-headers.ts), its
//   answer a JSON body or an SSE stream (http-stream.ts); closing that stream cancels it; a
//   `subscriptions/listen` answer is a stream that stays open
//   (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http).
// - The handshake era (2025-03-26 .. 2025-11-25): `initialize` opens a session and we issue its
//   `Mcp-Session-Id` (random, 128 bits); every later POST carries it (400 without, 404 for one we
//   do not know or that ended). What a request sends on its way (progress, logs, our requests
//   to the client) goes on that POST's stream; what belongs to the session as a whole
//   (resource updates, list changes) on the GET stream, kept in a bounded replay buffer so a
//   client that reconnects with `Last-Event-ID` misses nothing recent; DELETE ends the session
//   (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports "Streamable HTTP").
//
// Both eras share one Server (server.ts): a change made through one client reaches the
// subscribers on every other. Access checks come first (http-access.ts).

import { randomBytes } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorCode, RpcError, invalidRequest } from './errors.js';
import { checkStatelessHeaders } from './http-headers.js';
import { accessRules, readBody, refusal } from './http-access.js';
import { type ResponseStream, createEventStream, createPostResponse } from './http-stream.js';
import {
  type OutgoingMessage,
  type ParsedLine,
  type Request,
  type RequestId,
  classify,
  errorMessage,
  parseLine,
} from './json-rpc.js';
import type { Server } from './server.js';
import type { Session } from './session.js';
import { carriesStatelessMeta } from './stateless.js';
import type { Route } from './transport.js';

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
  /** Largest request body, in bytes (default 32 MiB); 413 past it. */
  maxMessageBytes?: number;
  /** Deepest accepted nesting in a body (default 1000). */
  maxDepth?: number;
  /** Handshake-era sessions open at once (default 100); 503 past it. */
  maxSessions?: number;
  /** Responses open at once, streams included (default 512); 503 past it. */
  maxOpenResponses?: number;
  /** A session without requests or open streams for this long is ended (default 30 minutes). */
  sessionIdleMs?: number;
  /** A comment line on a quiet stream after this long (default 15 s). */
  keepAliveMs?: number;
  report?(detail: string): void;
}

export interface HttpEndpoint {
  /** The endpoint's URL, e.g. http://127.0.0.1:3000/mcp. */
  readonly url: string;
  /** Handshake-era sessions open now. */
  readonly sessions: number;
  /** Stops accepting, lets running requests finish until `graceMs`, ends streams, closes everything. */
  close(graceMs?: number): Promise<void>;
}

/** A handshake-era session of this endpoint. */
interface HttpSession {
  readonly id: string;
  readonly connection: Session;
  /** The negotiated version, once initialize is answered. */
  version: string | undefined;
  /** Each request in flight, by id: the POST response it belongs to. */
  readonly posts: Map<RequestId, ResponseStream>;
  /** The GET stream, while one is open. */
  standalone: ResponseStream | undefined;
  /** Session-wide messages, numbered, the latest kept for a client that reconnects. */
  readonly replay: { seq: number; data: OutgoingMessage | OutgoingMessage[] }[];
  nextSeq: number;
  lastSeen: number;
}

const REPLAY_EVENTS = 100;

export async function serveHttp(server: Server, options: HttpOptions): Promise<HttpEndpoint> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const report = options.report ?? ((detail: string) => process.stderr.write(`[mcp http] ${detail}\n`));
  const rules = accessRules(host, options.allowedOrigins ?? [], options.authToken);
  const maxBytes = options.maxMessageBytes ?? 32 * 1024 * 1024;
  const limits = { maxDepth: options.maxDepth };
  const sessions = new Map<string, HttpSession>();
  const statelessConnections = new Set<Session>();
  let openResponses = 0;

  const http = createHttpServer((req, res) => {
    openResponses += 1;
    res.on('close', () => (openResponses -= 1));
    route(req, res).catch((error: unknown) => {
      // No stack trace in any body: the detail goes to the operator.
      report(
        `internal error on ${req.method} ${req.url}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      if (!res.headersSent) replyError(res, 500, new RpcError(ErrorCode.InternalError, 'Internal error'));
      else res.destroy();
    });
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (new URL(req.url ?? '/', 'http://x').pathname !== path) return void res.writeHead(404).end();
    const refused = refusal(req, rules);
    if (refused) return replyError(res, refused.status, invalidRequest(refused.message));
    if (openResponses > (options.maxOpenResponses ?? 512)) {
      return replyError(res, 503, invalidRequest('Service Unavailable: too many open requests; retry later'), {
        'Retry-After': '1',
      });
    }
    if (req.method === 'POST') return post(req, res);
    if (req.method === 'GET') return get(req, res);
    if (req.method === 'DELETE') return remove(req, res);
    res.writeHead(405, { Allow: 'GET, POST, DELETE' }).end();
  }

  async function post(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const accept = req.headers.accept ?? '*/*';
    if (!/application\/json|\*\/\*/.test(accept) || !/text\/event-stream|\*\/\*/.test(accept)) {
      return replyError(res, 406, invalidRequest('Not Acceptable: accept both application/json and text/event-stream'));
    }
    if (!/^application\/json\b/.test(req.headers['content-type'] ?? '')) {
      return replyError(res, 415, invalidRequest('Unsupported Media Type: the body must be application/json'));
    }
    const body = await readBody(req, maxBytes);
    if (body === 'too-large') return replyError(res, 413, invalidRequest(`Payload Too Large: at most ${maxBytes} bytes`));
    if (body === 'not-utf8')
      return replyError(res, 400, new RpcError(ErrorCode.ParseError, 'Parse error: the body is not valid UTF-8'));
    const parsed = parseLine(body, options.maxDepth);
    if (parsed.kind === 'parse-error')
      return replyError(res, 400, new RpcError(ErrorCode.ParseError, 'Parse error: not valid JSON'));
    if (parsed.kind === 'too-deep')
      return replyError(res, 400, invalidRequest(`Invalid Request: nested deeper than ${parsed.maxDepth} levels`));
    if (parsed.kind === 'single' && parsed.message.kind === 'request' && carriesStatelessMeta(parsed.message.params)) {
      return postStateless(req, res, parsed.message);
    }
    return postHandshake(req, res, parsed);
  }

  // ---- 2026-07-28 ---------------------------------------------------------------------------

  function postStateless(req: IncomingMessage, res: ServerResponse, request: Request): void {
    try {
      checkStatelessHeaders(req.headers, request.method, request.params);
    } catch (error) {
      return void replyJson(res, 400, errorMessage(request.id, error as RpcError));
    }
    const stream = createPostResponse(res, new Set([request.id]), {
      keepAliveMs: options.keepAliveMs,
      statusFor: statelessStatus,
    });
    const connection = server.connect(
      {
        send(message) {
          stream.send(message);
          if (stream.ended) finish();
        },
        report,
        settled: () => {},
      },
      limits,
    );
    statelessConnections.add(connection);
    const finish = () => {
      statelessConnections.delete(connection);
      connection.close();
    };
    // Closing the response stream is the cancellation (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http "Cancellation").
    res.on('close', () => {
      if (statelessConnections.has(connection)) finish();
    });
    connection.receive({ kind: 'parsed', parsed: { kind: 'single', message: request } });
  }

  // ---- the handshake era --------------------------------------------------------------------

  function postHandshake(req: IncomingMessage, res: ServerResponse, parsed: ParsedLine): void {
    const messages = parsed.kind === 'batch' ? parsed.items.map(classify) : parsed.kind === 'single' ? [parsed.message] : [];
    const opens = messages.length === 1 && messages[0]!.kind === 'request' && messages[0]!.method === 'initialize';
    const session = opens && req.headers['mcp-session-id'] === undefined ? openSession(res) : findSession(req, res);
    if (!session) return;
    session.lastSeen = Date.now();
    const requests = messages.flatMap((message) => (message.kind === 'request' ? [message.id] : []));
    if (requests.length === 0) {
      session.connection.receive({ kind: 'parsed', parsed });
      return void res.writeHead(202).end();
    }
    const headers: Record<string, string> = { 'Mcp-Session-Id': session.id };
    const stream = createPostResponse(res, new Set(requests), { headers, keepAliveMs: options.keepAliveMs });
    for (const id of requests) session.posts.set(id, stream);
    session.connection.receive({ kind: 'parsed', parsed });
  }

  function openSession(res: ServerResponse): HttpSession | undefined {
    if (sessions.size >= (options.maxSessions ?? 100)) {
      replyError(res, 503, invalidRequest(`Service Unavailable: at most ${options.maxSessions ?? 100} sessions at once`));
      return undefined;
    }
    const id = randomBytes(16).toString('hex');
    const connection = server.connect(
      { send: (message, route) => deliver(session, message, route), report, settled: () => {} },
      limits,
    );
    const session: HttpSession = {
      id,
      connection,
      version: undefined,
      posts: new Map(),
      standalone: undefined,
      replay: [],
      nextSeq: 1,
      lastSeen: Date.now(),
    };
    sessions.set(id, session);
    return session;
  }

  /** A message of a session's connection: to the POST it belongs to, or to the GET stream. */
  function deliver(session: HttpSession, message: OutgoingMessage | OutgoingMessage[], route: Route): void {
    const post = route.relatedRequestId === undefined ? undefined : session.posts.get(route.relatedRequestId);
    if (!session.version && !Array.isArray(message)) noteVersion(session, message);
    if (post && !post.ended) {
      post.send(message);
      if (post.ended) for (const [id, stream] of session.posts) if (stream === post) session.posts.delete(id);
      return;
    }
    const seq = session.nextSeq++;
    session.replay.push({ seq, data: message });
    if (session.replay.length > REPLAY_EVENTS) session.replay.shift();
    session.standalone?.send(message, String(seq));
  }

  /** The initialize answer says which version the session speaks; an error ends the session. */
  function noteVersion(session: HttpSession, message: OutgoingMessage): void {
    const { result, error } = message as { result?: { protocolVersion?: string }; error?: unknown };
    if (result?.protocolVersion) session.version = result.protocolVersion;
    else if (error !== undefined) queueMicrotask(() => endSession(session));
  }

  function findSession(req: IncomingMessage, res: ServerResponse): HttpSession | undefined {
    const id = req.headers['mcp-session-id'];
    if (typeof id !== 'string') {
      replyError(res, 400, invalidRequest('Bad Request: an Mcp-Session-Id header is required after initialize'));
      return undefined;
    }
    const session = sessions.get(id);
    if (!session) {
      replyError(res, 404, invalidRequest('Not Found: no such session (it ended or never existed); send initialize again'));
      return undefined;
    }
    const version = req.headers['mcp-protocol-version'];
    // Absent: a 2025-03-26 client, which had no such header (https://modelcontextprotocol.io/specification/2025-06-18/basic/transports "Protocol Version Header").
    if (version !== undefined && session.version !== undefined && version !== session.version) {
      replyError(
        res,
        400,
        invalidRequest(`Bad Request: MCP-Protocol-Version ${version} is not the session's ${session.version}`),
      );
      return undefined;
    }
    return session;
  }

  function get(req: IncomingMessage, res: ServerResponse): void {
    // A GET without a session: no stream to offer (2026-07-28 has none; 405 is what it asks).
    if (req.headers['mcp-session-id'] === undefined) return void res.writeHead(405, { Allow: 'POST' }).end();
    if (!/text\/event-stream|\*\/\*/.test(req.headers.accept ?? '')) {
      return replyError(res, 406, invalidRequest('Not Acceptable: a GET stream is text/event-stream'));
    }
    const session = findSession(req, res);
    if (!session) return;
    if (session.standalone && !session.standalone.ended) {
      return replyError(res, 409, invalidRequest('Conflict: this session already has a GET stream open'));
    }
    const stream = createEventStream(res, { headers: { 'Mcp-Session-Id': session.id }, keepAliveMs: options.keepAliveMs });
    session.standalone = stream;
    // Resumption (2025-11-25 "Resumability and Redelivery"): what was sent after the last event the client saw.
    const after = Number(req.headers['last-event-id']);
    if (Number.isSafeInteger(after))
      for (const event of session.replay) if (event.seq > after) stream.send(event.data, String(event.seq));
  }

  function remove(req: IncomingMessage, res: ServerResponse): void {
    if (req.headers['mcp-session-id'] === undefined) return void res.writeHead(405, { Allow: 'POST' }).end();
    const session = findSession(req, res);
    if (!session) return;
    endSession(session);
    res.writeHead(200).end();
  }

  function endSession(session: HttpSession): void {
    if (!sessions.delete(session.id)) return;
    session.connection.close();
    session.standalone?.end();
    for (const post of session.posts.values()) post.end();
  }

  // Sessions nobody uses are ended, so forgotten clients do not hold memory for ever.
  const idleMs = options.sessionIdleMs ?? 30 * 60_000;
  const sweeper = setInterval(
    () => {
      const now = Date.now();
      for (const session of [...sessions.values()]) {
        const busy = session.posts.size > 0 || (session.standalone !== undefined && !session.standalone.ended);
        if (!busy && now - session.lastSeen > idleMs) endSession(session);
      }
    },
    Math.min(idleMs, 60_000),
  );
  sweeper.unref();

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, host, () => resolve());
  });
  const address = http.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `http://${shownHost}:${address.port}${path}`,
    get sessions() {
      return sessions.size;
    },
    async close(graceMs = 1500) {
      clearInterval(sweeper);
      http.close();
      const connections = [...[...sessions.values()].map((s) => s.connection), ...statelessConnections];
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      await Promise.race([Promise.all(connections.map((c) => c.idle())), deadline]);
      clearTimeout(timer);
      for (const session of [...sessions.values()]) endSession(session);
      for (const connection of statelessConnections) connection.close();
      http.closeAllConnections();
    },
  };
}

/**
 * 2026-07-28 gives some errors their own HTTP status, so gateways and clients can tell them
 * apart without reading the body (streamable-http "Protocol Version Header", "Server Validation").
 */
function statelessStatus(code: number): number {
  if (code === ErrorCode.MethodNotFound) return 404;
  if (
    code === ErrorCode.HeaderMismatch ||
    code === ErrorCode.UnsupportedProtocolVersion ||
    code === ErrorCode.MissingRequiredClientCapability ||
    code === ErrorCode.InvalidRequest ||
    code === ErrorCode.ParseError
  ) {
    return 400;
  }
  return 200;
}

function replyJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}

/** An error for a request we could not read or route: a JSON-RPC error without an id. */
function replyError(res: ServerResponse, status: number, error: RpcError, headers: Record<string, string> = {}): void {
  replyJson(res, status, errorMessage(null, error), headers);
}
