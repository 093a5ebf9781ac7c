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

import type { IncomingMessage, Server as NodeServer, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorCode, RpcError, invalidRequest } from './errors.js';
import { type AccessRules, accessRules, readBody, refusal } from './http-access.js';
import type { ReplayLimits } from './http-replay.js';
import { checkStatelessHeaders } from './http-headers.js';
import { HandshakeSessions } from './http-sessions.js';
import { type EncodeLine, createPostResponse, replyError, replyJson } from './http-stream.js';
import { type Request, encodeLine, errorMessage, parseLine } from './json-rpc.js';
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
   * This instance's name (1-32 of A-Z a-z 0-9 _ -), the prefix of every session id it issues
   * (`NAME.` + 32 hex digits), so a load balancer in front of several instances can send each
   * handshake-era session back to the instance that holds it.
   */
  instanceName?: string;
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
  /** A comment line on a quiet stream this often (default 15 s). */
  keepAliveMs?: number;
  /** What a handshake-era session keeps of its SSE streams for a client that resumes one (http-replay.ts). */
  replay?: Partial<ReplayLimits>;
  report?(detail: string): void;
  /**
   * How each outgoing message is encoded (default: json-rpc.ts's encodeLine). The tracker's
   * bundle loads this transport from a file of its own (lib/http-loader.ts), which carries its
   * own copy of json-rpc.ts and pre-encoded.ts; that copy's encodeLine cannot splice the
   * engine's PreEncoded fragments (it would parse each back and encode it again), so the
   * tracker passes the engine's encodeLine here.
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
  const transport = new HttpTransport(server, options, accessRules(host, options.allowedOrigins ?? [], options.authToken));
  // node:http is loaded here, not at start: a server on stdio never pays for loading it.
  const { createServer: createHttpServer } = await import('node:http');
  const http = createHttpServer((req, res) => transport.handle(req, res));
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
  #openResponses = 0;

  constructor(server: Server, options: HttpOptions, rules: AccessRules) {
    this.#server = server;
    this.#options = options;
    this.#rules = rules;
    this.#report = options.report ?? ((detail: string) => process.stderr.write(`[mcp http] ${detail}\n`));
    this.#encodeLine = options.encodeLine ?? encodeLine;
    this.sessions = new HandshakeSessions(server, {
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
    if (new URL(req.url ?? '/', 'http://x').pathname !== (this.#options.path ?? '/mcp')) return void res.writeHead(404).end();
    const refused = refusal(req, this.#rules);
    if (refused) return replyError(res, refused.status, invalidRequest(refused.message));
    if (this.#openResponses > (this.#options.maxOpenResponses ?? 512)) {
      const busy = invalidRequest('Service Unavailable: too many open requests; retry later');
      return replyError(res, 503, busy, { 'Retry-After': '1' });
    }
    if (req.method === 'POST') return this.#post(req, res);
    // A GET or DELETE without a session: there is none to stream or end (2026-07-28 asks for 405).
    const withSession = req.headers['mcp-session-id'] !== undefined;
    if (req.method === 'GET' && withSession) return this.sessions.get(req, res);
    if (req.method === 'DELETE' && withSession) return this.sessions.delete(req, res);
    res.writeHead(405, { Allow: withSession ? 'GET, POST, DELETE' : 'POST' }).end();
  }

  async #post(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const accept = req.headers.accept ?? '*/*';
    if (!/application\/json|\*\/\*/.test(accept) || !/text\/event-stream|\*\/\*/.test(accept)) {
      return replyError(res, 406, invalidRequest('Not Acceptable: accept both application/json and text/event-stream'));
    }
    if (!/^application\/json\b/.test(req.headers['content-type'] ?? '')) {
      return replyError(res, 415, invalidRequest('Unsupported Media Type: the body must be application/json'));
    }
    const maxBytes = this.#options.maxMessageBytes ?? 32 * 1024 * 1024;
    const body = await readBody(req, maxBytes);
    if (body === 'too-large') return replyError(res, 413, invalidRequest(`Payload Too Large: at most ${maxBytes} bytes`));
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
    const request = parsed.kind === 'single' && parsed.message.kind === 'request' ? parsed.message : undefined;
    // A request with the 2026-07-28 _meta, or one without a session that does not open one: no
    // session to serve it in, so it is answered on its own (the era router says what is missing).
    const sessionless = request?.method !== 'initialize' && req.headers['mcp-session-id'] === undefined;
    if (request && (carriesStatelessMeta(request.params) || sessionless)) return this.#postStateless(req, res, request);
    this.sessions.post(req, res, parsed);
  }

  /** A request served without a session: a connection of its own, ended with its answer or by the client closing the stream. */
  #postStateless(req: IncomingMessage, res: ServerResponse, request: Request): void {
    const modern = carriesStatelessMeta(request.params);
    try {
      if (modern) {
        checkStatelessHeaders(req.headers, request.method, request.params);
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
    const stream = createPostResponse(res, new Set([request.id]), {
      keepAliveMs: this.#options.keepAliveMs,
      encodeLine: this.#encodeLine,
      statusFor,
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
    for (const connection of this.#stateless) connection.close();
    http.closeAllConnections();
  }
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
