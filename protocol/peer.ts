// Layer 3: the peer — correlation of requests and responses, in both directions.
//
// Incoming requests: each one in flight has an AbortController, keyed by its id exactly as
// sent (the Map tells 1 from "1"). Cancelling aborts the handler's signal, and then nothing
// more is sent for that id: no result, no error, no progress (S/{v}/basic/utilities/cancellation.mdx).
// Ids 0 and "" are ids like any other: we never test an id for truthiness (the SDK's
// `if (requestId)` made request 0 impossible to cancel, PEERS.md (b)).
//
// Outgoing requests (server -> client, e.g. elicitation): fresh integer ids that never
// repeat in the session (S/{v}/basic/index.mdx), a timeout on each, and a
// cancellation sent when it fires (S/{v}/basic/lifecycle.mdx "Timeouts"); a late
// response is ignored silently.
//
// The peer knows JSON-RPC, not MCP: which methods exist is the session's business.

import { ErrorCode, RpcError, invalidRequest, toRpcError } from './errors.js';
import { errorMessage, requestMessage, resultMessage } from './json-rpc.js';
import type { OutgoingMessage, Request, RequestId, Response } from './json-rpc.js';

export interface PeerOptions {
  send(message: OutgoingMessage): void;
  /** Runs a request's handler; returns its result or throws (an RpcError, or a fault). */
  onRequest(request: Request, signal: AbortSignal): unknown;
  /** An outgoing request timed out: tell the other side to stop working on it. */
  onOutgoingTimeout(id: RequestId, method: string): void;
  report(detail: string): void;
}

export interface Peer {
  /** The response for a request (later, if its handler is async), or null when it was cancelled. */
  answer(request: Request): OutgoingMessage | null | Promise<OutgoingMessage | null>;
  /** Cancels an incoming request; unknown or finished ids are ignored, as the spec allows. */
  cancel(id: RequestId): void;
  /** True while a request is running and may still send progress for itself. */
  isActive(id: RequestId): boolean;
  /** How many incoming requests are running. */
  readonly inFlight: number;
  /** Sends a request to the other side and waits for its response. */
  request(method: string, params: unknown, timeoutMs: number): Promise<unknown>;
  /** Hands a response from the other side to the request waiting for it. */
  receiveResponse(response: Response): void;
  /** Shutdown: abort every running handler and every pending outgoing request. */
  abortAll(): void;
}

interface Pending {
  method: string;
  resolve(value: unknown): void;
  reject(error: RpcError): void;
  timer: NodeJS.Timeout;
}

export function createPeer(options: PeerOptions): Peer {
  const running = new Map<RequestId, AbortController>();
  const pending = new Map<RequestId, Pending>();
  let nextOutgoingId = 1;

  // A handler that answers synchronously is answered synchronously: responses then leave in
  // the order the requests came, and no promise is made for the common case.
  function answer(request: Request): OutgoingMessage | null | Promise<OutgoingMessage | null> {
    const { id } = request;
    // A second request with the id of one still running would make both unanswerable by id.
    if (running.has(id)) {
      return errorMessage(
        id,
        invalidRequest(`Invalid Request: id ${JSON.stringify(id)} is already in use by a request in progress`),
      );
    }
    const controller = new AbortController();
    running.set(id, controller);
    // Settle before sending: from here on progress for this id is refused (REQUIREMENTS.md A-19).
    const settle = (message: OutgoingMessage): OutgoingMessage | null => {
      running.delete(id);
      return controller.signal.aborted ? null : message;
    };
    const fail = (thrown: unknown) => settle(errorMessage(id, toRpcError(thrown, options.report)));
    let value: unknown;
    try {
      value = options.onRequest(request, controller.signal);
    } catch (thrown) {
      return fail(thrown);
    }
    if (value instanceof Promise) return value.then((result) => settle(resultMessage(id, result)), fail);
    return settle(resultMessage(id, value));
  }

  function request(method: string, params: unknown, timeoutMs: number): Promise<unknown> {
    const id = nextOutgoingId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        options.onOutgoingTimeout(id, method);
        reject(new RpcError(ErrorCode.RequestTimeout, `${method} got no response within ${timeoutMs} ms`));
      }, timeoutMs);
      pending.set(id, { method, resolve, reject, timer });
      options.send(requestMessage(id, method, params));
    });
  }

  function receiveResponse(response: Response): void {
    const waiting = pending.get(response.id);
    if (!waiting) {
      options.report(`ignored a response for unknown or expired request id ${JSON.stringify(response.id)}`);
      return;
    }
    pending.delete(response.id);
    clearTimeout(waiting.timer);
    if (response.error === undefined) waiting.resolve(response.result);
    else waiting.reject(errorFromWire(response.error));
  }

  return {
    answer,
    request,
    receiveResponse,
    cancel: (id) => running.get(id)?.abort(),
    isActive: (id) => running.has(id) && !running.get(id)?.signal.aborted,
    get inFlight() {
      return running.size;
    },
    abortAll() {
      for (const controller of running.values()) controller.abort();
      for (const waiting of pending.values()) {
        clearTimeout(waiting.timer);
        waiting.reject(new RpcError(ErrorCode.ConnectionClosed, `${waiting.method}: the connection closed`));
      }
      pending.clear();
    },
  };
}

function errorFromWire(error: unknown): RpcError {
  const { code, message, data } = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  return new RpcError(
    typeof code === 'number' ? code : ErrorCode.InternalError,
    typeof message === 'string' ? message : 'The peer answered with a malformed error',
    data,
  );
}
