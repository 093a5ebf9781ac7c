// Layer 3: the peer — correlation of requests and responses, in both directions.
//
// Incoming requests: each one still running once its handler has returned (a promise) is in
// `running`, keyed by its id exactly as sent (the Map tells 1 from "1"). A handler that answers
// synchronously is done before the next message is read, so nothing can cancel it or reuse its
// id meanwhile: it never enters the Map. Cancelling aborts the handler's signal, and then
// nothing more is sent for that id: no result, no error, no progress (https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/cancellation).
// Ids 0 and "" are ids like any other: we never test an id for truthiness (the SDK's
// `if (requestId)` made request 0 impossible to cancel).
//
// Outgoing requests (server -> client, e.g. elicitation): fresh integer ids that never
// repeat in the session (https://modelcontextprotocol.io/specification/2025-11-25/basic), a timeout on each, and a
// cancellation sent when it fires (https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle "Timeouts"); a late
// response is ignored silently.
//
// The peer knows JSON-RPC, not MCP: which methods exist is the session's business.

import { excerpt, invalidRequest, toRpcError } from './errors.js';
import { errorMessage, requestMessage, resultMessage } from './json-rpc.js';
import type { OutgoingMessage, Request, RequestId, Response } from './json-rpc.js';

export interface PeerOptions {
  /** Sends a request of ours; `relatedRequestId` is the incoming request it is made for. */
  send(message: OutgoingMessage, relatedRequestId: RequestId | undefined): void;
  /** Runs a request's handler; returns its result or throws (an RpcError, or a fault). */
  onRequest(request: Request, running: RunningRequest): unknown;
  /** We stopped waiting for an outgoing request (it timed out, or its reason was cancelled): tell the other side to stop too. */
  onOutgoingAbandoned(id: RequestId, reason: string, relatedRequestId: RequestId | undefined): void;
  report(detail: string): void;
}

export interface Peer {
  /** The response for a request (later, if its handler is async), or null when it was cancelled. */
  answer(request: Request): OutgoingMessage | null | Promise<OutgoingMessage | null>;
  /**
   * Cancels an incoming request; unknown or finished ids are ignored, as the spec allows. The
   * id is free again at once: 2026-07-28 only asks ids to be unique among outstanding requests.
   */
  cancel(id: RequestId): void;
  /** How many incoming requests are still running after their handlers returned. */
  inFlight(): number;
  /** How many of our requests to the other side await an answer. */
  awaitingAnswers(): number;
  /**
   * Sends a request to the other side, for the incoming request `relatedRequestId` if any, and
   * waits for its response, until `timeoutMs` or until `signal` aborts (the request it was made
   * for was cancelled).
   */
  request(
    method: string,
    params: unknown,
    timeoutMs: number,
    relatedRequestId?: RequestId,
    signal?: AbortSignal,
  ): Promise<unknown>;
  /** Hands a response from the other side to the request waiting for it. */
  receiveResponse(response: Response): void;
  /** Shutdown: abort every running handler and every pending outgoing request. */
  abortAll(): void;
}

/**
 * Why a request we sent did not succeed: the other side's error, a timeout, a closed
 * connection. Not an RpcError on purpose: a handler that lets it escape answers -32603, and
 * the other side's codes are never passed off as ours.
 */
export class OutgoingRequestError extends Error {
  readonly code: number | undefined;
  readonly data: unknown;

  constructor(message: string, code?: number, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

/**
 * One incoming request while its handler runs. (Performance, which a first reading may skip: the
 * lazy `signal` below.) The AbortController behind `signal` is made
 * only when the handler asks for the signal: most handlers finish without looking, and one per
 * request is a measurable cost on the busiest path (docs/performance.md).
 */
export class RunningRequest {
  #controller: AbortController | undefined;
  #cancelled = false;
  #answered = false;

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#cancelled) this.#controller.abort();
    }
    return this.#controller.signal;
  }

  get cancelled(): boolean {
    return this.#cancelled;
  }

  /** Neither answered nor cancelled: it may still send things for itself. */
  get active(): boolean {
    return !this.#answered && !this.#cancelled;
  }

  cancel(): void {
    this.#cancelled = true;
    this.#controller?.abort();
  }

  /** Its answer is made (or it is dropped, if cancelled): nothing more is sent for it. */
  answered(): void {
    this.#answered = true;
  }
}

interface Pending {
  method: string;
  resolve(value: unknown): void;
  reject(error: OutgoingRequestError): void;
  timer: NodeJS.Timeout;
}

export function createPeer(options: PeerOptions): Peer {
  const running = new Map<RequestId, RunningRequest>();
  const outgoing = createOutgoingRequests(options);

  // A handler that answers synchronously is answered synchronously: responses then leave in
  // the order the requests came, and no promise is made for the common case.
  function answer(request: Request): OutgoingMessage | null | Promise<OutgoingMessage | null> {
    const { id } = request;
    // A second request with the id of one still running would make both unanswerable by id.
    if (running.has(id)) {
      return errorMessage(
        id,
        invalidRequest(`Invalid Request: id ${excerpt(JSON.stringify(id))} is already in use by a request in progress`),
      );
    }
    const self = new RunningRequest();
    let value: unknown;
    try {
      value = options.onRequest(request, self);
    } catch (thrown) {
      return settle(self, failure(id, thrown));
    }
    if (!(value instanceof Promise)) return settle(self, resultMessage(id, value));
    // Still running when the next message is read: from now on it can be cancelled, and its id is taken.
    running.set(id, self);
    const done = (message: OutgoingMessage): OutgoingMessage | null => {
      // A cancelled request has already left the table, and its id may belong to a newer one.
      if (running.get(id) === self) running.delete(id);
      return settle(self, message);
    };
    return value.then(
      (result) => done(resultMessage(id, result)),
      (thrown: unknown) => done(failure(id, thrown)),
    );
  }

  // Settle before sending: from here on progress for this id is refused (rule A-19).
  function settle(self: RunningRequest, message: OutgoingMessage): OutgoingMessage | null {
    self.answered();
    return self.cancelled ? null : message;
  }

  const failure = (id: RequestId, thrown: unknown): OutgoingMessage => errorMessage(id, toRpcError(thrown, options.report));

  return {
    answer,
    request: outgoing.request,
    receiveResponse: outgoing.receiveResponse,
    cancel(id) {
      running.get(id)?.cancel();
      running.delete(id);
    },
    inFlight: () => running.size,
    awaitingAnswers: () => outgoing.count(),
    abortAll() {
      for (const self of running.values()) self.cancel();
      outgoing.abandonAll();
    },
  };
}

/** Our requests to the other side, waiting for their answers. */
function createOutgoingRequests(options: PeerOptions) {
  const pending = new Map<RequestId, Pending>();
  let nextOutgoingId = 1;

  function request(
    method: string,
    params: unknown,
    timeoutMs: number,
    relatedRequestId?: RequestId,
    signal?: AbortSignal,
  ): Promise<unknown> {
    const id = nextOutgoingId++;
    return new Promise((resolve, reject) => {
      const abandon = (reason: string, detail = reason) => {
        if (!pending.delete(id)) return;
        clearTimeout(timer);
        signal?.removeEventListener('abort', cancelled);
        options.onOutgoingAbandoned(id, reason, relatedRequestId);
        reject(new OutgoingRequestError(detail));
      };
      const cancelled = () => abandon(`${method}: the request it was made for was cancelled`);
      const timer = setTimeout(
        () => abandon(`${method} timed out`, `${method} got no response within ${timeoutMs} ms`),
        timeoutMs,
      );
      const settle =
        <T>(then: (value: T) => void) =>
        (value: T) => {
          signal?.removeEventListener('abort', cancelled);
          then(value);
        };
      pending.set(id, { method, resolve: settle(resolve), reject: settle(reject), timer });
      signal?.addEventListener('abort', cancelled, { once: true });
      options.send(requestMessage(id, method, params), relatedRequestId);
    });
  }

  function receiveResponse(response: Response): void {
    const waiting = pending.get(response.id);
    if (!waiting) {
      options.report(`ignored a response for unknown or expired request id ${excerpt(JSON.stringify(response.id))}`);
      return;
    }
    pending.delete(response.id);
    clearTimeout(waiting.timer);
    if (response.error === undefined) waiting.resolve(response.result);
    else waiting.reject(errorFromWire(response.error));
  }

  return {
    request,
    receiveResponse,
    count: () => pending.size,
    /** The connection closed: every request still waiting fails. */
    abandonAll() {
      for (const waiting of pending.values()) {
        clearTimeout(waiting.timer);
        waiting.reject(new OutgoingRequestError(`${waiting.method}: the connection closed`));
      }
      pending.clear();
    },
  };
}

function errorFromWire(error: unknown): OutgoingRequestError {
  const { code, message, data } = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  return new OutgoingRequestError(
    typeof message === 'string' ? message : 'the other side answered with a malformed error',
    typeof code === 'number' ? code : undefined,
    data,
  );
}
