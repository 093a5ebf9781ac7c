// Which era serves a request, and the lifecycle errors of each.
//
// A dual-era server "selects its behavior from how the client opens", and "MAY serve both
// eras concurrently on the same endpoint or process"
// (https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning "Backward
// Compatibility"). We do, per request:
//
// - A request whose `_meta` names a protocol version is served statelessly, at any time:
//   before `initialize`, after it, between handshake-era requests. It is self-contained.
// - `initialize` opens the handshake era on this connection, at any time; a second one is
//   -32600. So a client that probes with `server/discover` and falls back to `initialize`
//   because the answer came late (the fallback of
//   https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/stdio
//   "Backward Compatibility") always finds `initialize` open.
// - Anything else is a handshake-era request. A bare `ping` is always answered; before
//   `initialize` every other request is -32600, naming both ways forward (A-6; never code 0
//   as go-sdk, never -32002 which means "resource not found").
// - `server/discover` and `subscriptions/listen` exist only in 2026-07-28. Without `_meta`
//   before `initialize` they are -32602 saying what `_meta` lacks (the client meant 2026);
//   after `initialize`, -32601: a handshake session does not have them (rule 1.7).

import type { Client, RequestContext } from './context.js';
import { invalidRequest, methodNotFound } from './errors.js';
import type { Request } from './json-rpc.js';
import type { Handshake } from './lifecycle.js';
import { type CacheHint, METHODS, type MethodEntry, type SessionState } from './methods.js';
import type { RunningRequest } from './peer.js';
import { type LogLevel, META } from './schemas.js';
import type { SharedState } from './definition.js';
import { carriesStatelessMeta, completeResult, readStatelessMeta } from './stateless.js';
import { parseOrThrow } from './validation.js';
import type { VersionRules } from './versions.js';
import { rulesFor } from './versions.js';

export interface RouterParts {
  shared: SharedState;
  handshake: Handshake;
  state: SessionState;
  contextFor(
    request: Request,
    running: RunningRequest,
    rules: VersionRules,
    client: Client,
    logLevel: () => LogLevel | undefined,
  ): RequestContext;
}

/** Most 2026-07-28 requests ask for no log level: they share one getter. */
const noLevel = (): LogLevel | undefined => undefined;
const levelGetter = (level: LogLevel | undefined): (() => LogLevel | undefined) => (level === undefined ? noLevel : () => level);

/** Returns the runner of one request: its result (or a promise of it), or it throws an RpcError. */
export function createEraRouter(parts: RouterParts): (request: Request, running: RunningRequest) => unknown {
  const { shared, handshake, state } = parts;

  /** The method, if we serve it: a method of a feature we do not serve does not exist. */
  function served(name: string): MethodEntry | undefined {
    const known = Object.hasOwn(METHODS, name) ? METHODS[name] : undefined;
    return known && (!known.feature || shared.features.has(known.feature)) ? known : undefined;
  }

  /**
   * A method's caching hint (https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching):
   * a tool list that depends on who asks (ServerDefinition.toolsFor) is for that caller only.
   */
  function cacheHint(name: string, method: MethodEntry): CacheHint | undefined {
    const perCaller = name === 'tools/list' && shared.definition.toolsFor !== undefined;
    return perCaller && method.cache ? { ...method.cache, scope: 'private' } : method.cache;
  }

  function runHandshake(request: Request, method: MethodEntry | undefined, running: RunningRequest): unknown {
    if (!method || method.era === 'stateless') throw methodNotFound(request.method);
    if (!handshake.ready && !method.beforeInitialize) {
      throw invalidRequest(
        `Invalid Request: ${request.method} before initialize; send initialize first, or carry the 2026-07-28 _meta (${META.protocolVersion} and ${META.clientCapabilities}) to be served statelessly`,
      );
    }
    if (handshake.ready && request.method === 'initialize') {
      throw invalidRequest('Invalid Request: the session is already initialized');
    }
    const params = parseOrThrow(method.params, request.params, request.method);
    const context = parts.contextFor(request, running, handshake.rules, handshake.client, () => handshake.logLevel);
    return method.run(params, context, state);
  }

  function runStateless(request: Request, method: MethodEntry | undefined, running: RunningRequest): unknown {
    const { version, client, logLevel } = readStatelessMeta(request.params);
    if (!method || method.era === 'handshake') throw methodNotFound(request.method);
    const params = parseOrThrow(method.params, request.params, request.method);
    const rules = rulesFor(version);
    const result = method.run(params, parts.contextFor(request, running, rules, client, levelGetter(logLevel)), state);
    if (!rules.resultType) return result;
    const cache = rules.cacheHints ? cacheHint(request.method, method) : undefined;
    // A result answered at once is completed at once: no function made for it (one per request).
    if (!(result instanceof Promise)) return completeResult(result, cache, shared.definition.info);
    return result.then((value: unknown) => completeResult(value, cache, shared.definition.info));
  }

  return (request, running) => {
    const method = served(request.method);
    const stateless = carriesStatelessMeta(request.params) || (method?.era === 'stateless' && !handshake.ready);
    return stateless ? runStateless(request, method, running) : runHandshake(request, method, running);
  };
}
