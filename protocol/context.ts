// What a handler knows about the request it is serving.
//
// Everything a handler may depend on arrives here, per request: the negotiated version's
// rules, the client's capabilities, the abort signal, and senders for progress and logs
// that already enforce the spec's rules. In the handshake era these come from the session
// (set once by `initialize`); in the stateless 2026-07-28 era they come from each
// request's `_meta`. Handlers cannot tell the difference, which is the point.

import { missingClientCapability } from './errors.js';
import { type OutgoingMessage, type RequestId, notificationMessage } from './json-rpc.js';
import { OutgoingRequestError, type RunningRequest } from './peer.js';
import type { ClientCapabilities, ClientInfo, LogLevel } from './schemas.js';
import type { VersionRules } from './versions.js';

/** Who is asking: from `initialize` in the handshake era, from each request's `_meta` in 2026-07-28. */
export interface Client {
  readonly capabilities: ClientCapabilities;
  readonly info: ClientInfo;
}

/**
 * Who the transport authenticated a request as (the SDKs' `authInfo`): over Streamable HTTP with
 * per-user tokens, the person its bearer token names; absent on stdio and with no such tokens.
 * The engine only carries it to handlers (and to ServerDefinition.toolsFor); what it allows is the
 * application's business.
 */
export interface AuthInfo {
  /** Whom the credentials name, e.g. a user's handle. */
  readonly subject: string;
  /** What the application attached to that identity (its permissions, say); the engine never reads it. */
  readonly extra?: Readonly<Record<string, unknown>>;
}

export interface RequestContext {
  readonly requestId: RequestId;
  /** Who is asking, when the transport authenticated the request (see AuthInfo). */
  readonly auth?: AuthInfo;
  /** The negotiated revision's column of the version table. */
  readonly rules: VersionRules;
  readonly client: Client;
  /** Aborted when the client cancels this request or the server shuts down. */
  readonly signal: AbortSignal;
  /**
   * Reports progress, if and only if the request asked for it with a progressToken.
   * Values must strictly increase; a value that does not, or any call after the response,
   * is dropped (https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/progress).
   */
  progress(progress: number, total?: number, message?: string): void;
  /** Sends notifications/message if the client's log level lets it through. */
  log(level: LogLevel, data: unknown, logger?: string): void;
  /** Asks the client something (sampling, elicitation, roots); rejects on timeout or error. */
  request(method: string, params: unknown, timeoutMs?: number): Promise<unknown>;
  /**
   * Refuses the request with -32021 MissingRequiredClientCapability unless the client declared
   * `capability`: "a server MUST NOT rely on capabilities the client has not declared"
   * (https://modelcontextprotocol.io/specification/2026-07-28/basic "Per-request protocol
   * fields"). For a handler that cannot do without it; one that can falls back instead.
   */
  requireClientCapability(capability: ClientCapabilityName): void;
}

/** The client capabilities a server may need: the features of the client it would use. */
export type ClientCapabilityName = 'sampling' | 'elicitation' | 'roots';

/**
 * What the session lends each context: whether a request still runs, and how to send. Each
 * send names the request it is made for, so a transport can put it on that request's stream.
 */
export interface SessionLink {
  send(message: OutgoingMessage, relatedRequestId: RequestId): void;
  /** Sends notifications/message if `level` reaches `threshold` (undefined: the client asked for none). */
  sendLog(
    threshold: LogLevel | undefined,
    level: LogLevel,
    data: unknown,
    logger: string | undefined,
    relatedRequestId: RequestId,
  ): void;
  /** Sends a request to the client, once the session allows it. */
  requestClient(
    method: string,
    params: unknown,
    timeoutMs: number,
    relatedRequestId: RequestId,
    signal: AbortSignal,
  ): Promise<unknown>;
}

const OUTGOING_REQUEST_TIMEOUT_MS = 60_000;

/**
 * The RequestContext of one request. Performance (a first reading may skip it): a class rather than an object literal: one is made per
 * request, and a literal with a getter in it costs more on that path (docs/performance.md);
 * for the same reason its senders are made on first use.
 */
export class HandlerContext implements RequestContext {
  #lastProgress = -Infinity;

  constructor(
    readonly requestId: RequestId,
    readonly rules: VersionRules,
    readonly client: Client,
    private readonly running: RunningRequest,
    private readonly progressToken: unknown,
    private readonly logLevel: () => LogLevel | undefined,
    private readonly link: SessionLink,
    readonly auth?: AuthInfo,
  ) {}

  get signal(): AbortSignal {
    return this.running.signal;
  }

  // The senders are handed out as functions bound to this context, so a handler may pass
  // `context.progress` on by itself (as an onProgress callback) without losing `this`. Each is
  // made when first asked for: most requests send nothing, and one is made per request.
  #progress?: RequestContext['progress'];
  #log?: RequestContext['log'];
  #request?: RequestContext['request'];

  get progress(): RequestContext['progress'] {
    return (this.#progress ??= (progress, total, message) => this.#sendProgress(progress, total, message));
  }

  get log(): RequestContext['log'] {
    return (this.#log ??= (level, data, logger) => this.#sendLog(level, data, logger));
  }

  get request(): RequestContext['request'] {
    return (this.#request ??= (method, params, timeoutMs = OUTGOING_REQUEST_TIMEOUT_MS) =>
      this.#requestClient(method, params, timeoutMs));
  }

  #sendProgress(progress: number, total?: number, message?: string): void {
    // https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/progress: only with a token, strictly increasing, never after the response.
    const token = this.progressToken;
    if (token === undefined || progress <= this.#lastProgress || !this.running.active) return;
    this.#lastProgress = progress;
    const params: Record<string, unknown> = { progressToken: token, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined && this.rules.progressMessage) params.message = message;
    this.link.send(notificationMessage('notifications/progress', params), this.requestId);
  }

  // Nothing more for a cancelled request (https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/cancellation); in 2026-07-28
  // also nothing after the response, and only if this request's _meta asked for a level
  // (https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/logging).
  #sendLog(level: LogLevel, data: unknown, logger?: string): void {
    if (this.running.cancelled) return;
    if (this.rules.era === 'stateless' && !this.running.active) return;
    this.link.sendLog(this.logLevel(), level, data, logger, this.requestId);
  }

  #requestClient(method: string, params: unknown, timeoutMs: number): Promise<unknown> {
    // https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/stdio: a 2026-07-28 server MUST NOT send requests; it uses MRTR.
    if (this.rules.era === 'stateless') return refuse(`${method}: a 2026-07-28 server cannot send requests to the client`);
    if (this.running.cancelled) return refuse(`${method}: the request it belongs to was cancelled`);
    // Cancelling this request cancels what it asked the client, too.
    return this.link.requestClient(method, params, timeoutMs, this.requestId, this.running.signal);
  }

  requireClientCapability(capability: ClientCapabilityName): void {
    if (this.client.capabilities[capability] === undefined) throw missingClientCapability({ [capability]: {} });
  }
}

export function refuse(reason: string): Promise<never> {
  return Promise.reject(new OutgoingRequestError(reason));
}
