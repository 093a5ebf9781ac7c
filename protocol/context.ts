// What a handler knows about the request it is serving.
//
// Everything a handler may depend on arrives here, per request: the negotiated version's
// rules, the client's capabilities, the abort signal, and senders for progress and logs
// that already enforce the spec's rules. In the handshake era these come from the session
// (set once by `initialize`); in the stateless 2026-07-28 era they come from each
// request's `_meta`. Handlers cannot tell the difference, which is the point.

import type { RequestId } from './json-rpc.js';
import type { ClientCapabilities, ClientInfo, LogLevel } from './schemas.js';
import type { VersionRules } from './versions.js';

export interface RequestContext {
  readonly requestId: RequestId;
  /** The negotiated revision's column of the version table. */
  readonly rules: VersionRules;
  readonly client: { readonly capabilities: ClientCapabilities; readonly info: ClientInfo };
  /** Aborted when the client cancels this request or the server shuts down. */
  readonly signal: AbortSignal;
  /**
   * Reports progress, if and only if the request asked for it with a progressToken.
   * Values must strictly increase; a value that does not, or any call after the response,
   * is dropped (S/{v}/basic/utilities/progress.mdx).
   */
  progress(progress: number, total?: number, message?: string): void;
  /** Sends notifications/message if the client's log level lets it through. */
  log(level: LogLevel, data: unknown, logger?: string): void;
  /** Asks the client something (sampling, elicitation, roots); rejects on timeout or error. */
  request(method: string, params: unknown, timeoutMs?: number): Promise<unknown>;
}
