// The MCP session: the lifecycle state machine on top of the peer, driven by the method table.
//
//   awaiting-initialize --initialize--> ready                 (2024-11-05 .. 2025-11-25)
//   awaiting-initialize --a request with 2026 _meta--> stateless
//
// One process serves whichever era the client speaks, as https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning
// allows. A request is served statelessly when its `_meta`
// names a protocol version, or when its method exists only in 2026-07-28 (`server/discover`,
// `subscriptions/listen`); otherwise by the handshake rules. The first of `initialize` and a
// stateless request fixes the era of the process: after `initialize`, a stateless request is
// -32600; after a stateless request, `initialize` is -32600. Until then `ping` works for both.
//
// - Before `initialize`, only `ping` is answered normally; any other request gets -32600
//   with a clear message (A-6; never code 0 as go-sdk, never -32002 which means "resource
//   not found"). A second `initialize` gets -32600 too.
// - `initialize` runs synchronously, so the next line is not dispatched before the version
//   is settled (an asynchronous initialize lets a fast client race it).
// - Notifications are handled in arrival order and never answered (https://modelcontextprotocol.io/specification/2025-11-25/basic).
// - A JSON array is a batch only in a 2025-03-26 session (rule 1.6); otherwise
//   it gets a single -32600 with id null.
//
// The session does no I/O: it is handed lines and a `send` function.

import { HandlerContext, type RequestContext, type SessionLink, refuse } from './context.js';
import { ErrorCode, RpcError, invalidRequest, methodNotFound } from './errors.js';
import {
  type Incoming,
  type OutgoingMessage,
  type Request,
  classify,
  errorMessage,
  notificationMessage,
  parseLine,
} from './json-rpc.js';
import type { Frame } from './line-framer.js';
import { type Feature, METHODS, type MethodEntry, type SessionState } from './methods.js';
import { type RunningRequest, createPeer } from './peer.js';
import { type PromptDefinition, createPromptRegistry } from './prompts.js';
import { type ResourceDefinition, type ResourceTemplateDefinition, createResourceRegistry } from './resources.js';
import {
  CancelledParamsSchema,
  type ClientCapabilities,
  type ClientInfo,
  type ListenFilter,
  LOG_LEVELS,
  type LogLevel,
} from './schemas.js';
import { carriesStatelessMeta, completeResult, createListenStreams, readStatelessMeta } from './stateless.js';
import { DEFAULT_SUBSCRIPTION_LIMITS, type SubscriptionLimits, createSubscriptionRegistry } from './subscriptions.js';
import { type ToolDefinition, createToolRegistry } from './tools.js';
import { parseOrThrow } from './validation.js';
import { LATEST_HANDSHAKE_VERSION, STATELESS_VERSIONS, type VersionRules, negotiateVersion, rulesFor } from './versions.js';

export interface ServerDefinition {
  /** `serverInfo` in the initialize result. */
  info: { name: string; version: string; title?: string };
  instructions?: string;
  tools?: ToolDefinition[];
  resources?: ResourceDefinition[];
  resourceTemplates?: ResourceTemplateDefinition[];
  prompts?: PromptDefinition[];
  /** We will send notifications/resources/updated for subscribed URIs. */
  subscriptions?: boolean;
  /** Bounds on what clients may subscribe to (DEFAULT_SUBSCRIPTION_LIMITS where not given). */
  subscriptionLimits?: Partial<SubscriptionLimits>;
  /**
   * A resource gained its first subscriber (resources/subscribe or subscriptions/listen), e.g.
   * to note what it holds now. `uri` is its canonical URI, whatever spelling the client used.
   */
  onSubscribe?(uri: string): void;
  /** Its last subscriber left (unsubscribed, or its stream ended): forget what was noted. */
  onUnsubscribe?(uri: string): void;
  /** We will send notifications/resources/list_changed. */
  resourceListChanged?: boolean;
  /** We will send notifications/message. */
  logging?: boolean;
  /** Items per page in every list (default 100). */
  pageSize?: number;
}

export interface SessionIo {
  send(message: OutgoingMessage | OutgoingMessage[]): void;
  /** Diagnostics for stderr. */
  report(detail: string): void;
  /** A request that ran on finished, and its answer (if any) was sent: the reader may take more input. */
  settled(): void;
}

export interface Session {
  /** One line from the framer, or the framer's complaint about one. */
  receive(frame: Frame): void;
  /** The application says what a URI returns has changed; its subscribers are told, each with the spelling it used. */
  resourceUpdated(uri: string): void;
  resourceListChanged(): void;
  /** Subscriptions the client holds now (each spelling, on each stream). */
  readonly subscriptions: number;
  /** A log message for the client, if its level lets it through. */
  log(level: LogLevel, data: unknown, logger?: string): void;
  readonly inFlight: number;
  /** Ends open subscription streams gracefully, then resolves when no request is running. */
  idle(): Promise<void>;
  /** Shutdown: abort all running work. */
  abortAll(): void;
}

const MAX_BATCH_ITEMS = 1000;

export interface SessionLimits {
  /** Deepest accepted nesting of arrays and objects in a message (default 1000). */
  maxDepth?: number;
}

export function createSession(definition: ServerDefinition, io: SessionIo, limits: SessionLimits = {}): Session {
  const features = servedFeatures(definition);
  let phase: 'awaiting-initialize' | 'ready' | 'stateless' = 'awaiting-initialize';
  let clientInitialized = false; // notifications/initialized received
  // The handshake era's negotiated rules and client; stateless requests bring their own.
  let rules: VersionRules = rulesFor(LATEST_HANDSHAKE_VERSION);
  let client: Client = { capabilities: {}, info: { name: 'unknown', version: 'unknown' } };
  const running = new Set<Promise<unknown>>();
  const resources = createResourceRegistry(definition.resources ?? [], definition.resourceTemplates ?? []);
  const subscriptionLimits = { ...DEFAULT_SUBSCRIPTION_LIMITS, ...definition.subscriptionLimits };
  const subscriptions = createSubscriptionRegistry(resources.canonicalUri, subscriptionLimits, {
    added: (key) => definition.onSubscribe?.(key),
    removed: (key) => definition.onUnsubscribe?.(key),
  });
  const streams = createListenStreams((message) => io.send(message), subscriptions, subscriptionLimits.maxStreams);

  const state: SessionState = {
    tools: createToolRegistry(definition.tools ?? [], io.report),
    resources,
    prompts: createPromptRegistry(definition.prompts ?? []),
    pageSize: definition.pageSize ?? 100,
    logLevel: undefined,
    initialize(params) {
      const version = negotiateVersion(params.protocolVersion);
      rules = rulesFor(version);
      client = { capabilities: params.capabilities, info: params.clientInfo };
      phase = 'ready';
      const result: Record<string, unknown> = {
        protocolVersion: version,
        capabilities: capabilitiesFor(features, rules),
        serverInfo: rules.titles ? definition.info : { name: definition.info.name, version: definition.info.version },
      };
      if (definition.instructions) result.instructions = definition.instructions;
      return result;
    },
    discover() {
      const result: Record<string, unknown> = {
        supportedVersions: [...STATELESS_VERSIONS],
        capabilities: capabilitiesFor(features, rulesFor(STATELESS_VERSIONS[0])),
      };
      if (definition.instructions) result.instructions = definition.instructions;
      return result;
    },
    listen: (filter, context) => streams.open(context.requestId, honouredFilter(filter, features), context.signal),
    subscribe: (uri) => subscriptions.subscribe(uri),
    unsubscribe: (uri) => subscriptions.unsubscribe(uri),
  };

  const peer = createPeer({
    send: (message) => io.send(message),
    onRequest: (request, running) => runMethod(request, running),
    // https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle "Timeouts": on expiry, cancel the request and stop waiting.
    onOutgoingTimeout: (id, method) =>
      io.send(notificationMessage('notifications/cancelled', { requestId: id, reason: `${method} timed out` })),
    report: io.report,
  });

  function runMethod(request: Request, running: RunningRequest): unknown {
    const known = Object.hasOwn(METHODS, request.method) ? METHODS[request.method] : undefined;
    const method = known && (!known.feature || features.has(known.feature)) ? known : undefined;
    if (phase === 'stateless' && request.method === 'initialize') {
      throw invalidRequest('Invalid Request: this process already serves 2026-07-28 requests; start a new one to use initialize');
    }
    // Once the process serves 2026-07-28, a request without its _meta is an incomplete one (-32602), not a handshake-era one.
    if (phase === 'stateless' || carriesStatelessMeta(request.params) || method?.era === 'stateless') {
      return runStateless(request, method, running);
    }
    if (!method) throw methodNotFound(request.method);
    if (phase === 'awaiting-initialize' && !method.beforeInitialize) {
      throw invalidRequest(`Invalid Request: ${request.method} before initialize; send initialize first`);
    }
    if (phase === 'ready' && request.method === 'initialize') {
      throw invalidRequest('Invalid Request: the session is already initialized');
    }
    const params = parseOrThrow(method.params, request.params, request.method);
    return method.run(
      params,
      contextFor(request, running, rules, client, () => state.logLevel),
      state,
    );
  }

  function runStateless(request: Request, method: MethodEntry | undefined, running: RunningRequest): unknown {
    if (phase === 'ready') {
      // In a handshake session, server/discover and subscriptions/listen do not exist (rule 1.7).
      if (!carriesStatelessMeta(request.params)) throw methodNotFound(request.method);
      throw invalidRequest(
        'Invalid Request: this process was initialized for the handshake era; start a new one for 2026-07-28 requests',
      );
    }
    const { version, client: caller, logLevel } = readStatelessMeta(request.params);
    if (!method || method.era === 'handshake') throw methodNotFound(request.method);
    phase = 'stateless';
    const params = parseOrThrow(method.params, request.params, request.method);
    const rules = rulesFor(version);
    const result = method.run(
      params,
      contextFor(request, running, rules, caller, () => logLevel),
      state,
    );
    if (!rules.resultType) return result;
    const complete = (value: unknown) => completeResult(value, rules.cacheHints ? method.cache : undefined, definition.info);
    return result instanceof Promise ? result.then(complete) : complete(result);
  }

  function contextFor(
    request: Request,
    running: RunningRequest,
    rules: VersionRules,
    client: Client,
    logLevel: () => LogLevel | undefined,
  ): RequestContext {
    const token = (request.params as { _meta?: { progressToken?: unknown } } | undefined)?._meta?.progressToken;
    return new HandlerContext(request.id, rules, client, running, token, logLevel, link);
  }

  const link: SessionLink = {
    isActive: (id, running) => peer.isActive(id, running),
    send: (message) => io.send(message),
    sendLog,
    requestClient,
  };

  /** https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle "Operation": use only capabilities the client declared; nothing before `initialized`. */
  function requestClient(method: string, params: unknown, timeoutMs: number): Promise<unknown> {
    const needed = CLIENT_CAPABILITY_FOR[method];
    if (!clientInitialized) return refuse(`${method}: the client has not sent notifications/initialized yet`);
    if (needed && client.capabilities[needed] === undefined) {
      return refuse(`${method}: the client did not declare the ${needed} capability`);
    }
    return peer.request(method, params, timeoutMs);
  }

  function sendLog(threshold: LogLevel | undefined, level: LogLevel, data: unknown, logger?: string): void {
    if (!features.has('logging') || threshold === undefined) return;
    if (LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(threshold)) return;
    io.send(notificationMessage('notifications/message', logger === undefined ? { level, data } : { level, logger, data }));
  }

  /** A log not tied to a request: only the handshake era has a session-wide level for it. */
  function log(level: LogLevel, data: unknown, logger?: string): void {
    if (phase === 'ready') sendLog(state.logLevel, level, data, logger);
  }

  function handleNotification(method: string, params: unknown): void {
    switch (method) {
      case 'notifications/initialized':
        clientInitialized = true;
        return;
      case 'notifications/cancelled': {
        // Malformed or unknown cancellations are ignored silently (https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/cancellation).
        const parsed = CancelledParamsSchema.safeParse(params);
        if (parsed.success) peer.cancel(parsed.data.requestId);
        return;
      }
      default:
        // Unknown notifications (roots/list_changed, progress for requests we never sent, future ones): ignore.
        return;
    }
  }

  /** Handles one message; resolves with its response, or null when there is none to send. */
  function handle(message: Incoming): Promise<OutgoingMessage | null> | OutgoingMessage | null {
    switch (message.kind) {
      case 'request':
        return track(peer.answer(message));
      case 'notification':
        handleNotification(message.method, message.params);
        return null;
      case 'response':
        peer.receiveResponse(message);
        return null;
      case 'invalid':
        return errorMessage(message.id, message.error);
      case 'ignored':
        io.report(`ignored: ${message.reason}`);
        return null;
    }
  }

  function track(outcome: OutgoingMessage | null | Promise<OutgoingMessage | null>): typeof outcome {
    if (!(outcome instanceof Promise)) return outcome;
    running.add(outcome);
    void outcome.finally(() => running.delete(outcome));
    return outcome;
  }

  function sendWhenReady(outcome: Promise<OutgoingMessage | null> | OutgoingMessage | null): void {
    if (outcome === null) return;
    if (!(outcome instanceof Promise)) return deliver(outcome);
    // Settled only once the answer is sent: the reader then sees its size in the output
    // waiting, and a request it takes next cannot be answered first.
    void outcome.then((message) => {
      if (message) deliver(message);
      io.settled();
    });
  }

  /**
   * Sends an answer; one too big to encode (JSON.stringify has a length limit) is replaced by
   * -32603 for each id it answered, so no request is left without a response.
   */
  function deliver(answer: OutgoingMessage | OutgoingMessage[]): void {
    try {
      io.send(answer);
    } catch (thrown) {
      io.report(`could not send an answer: ${thrown instanceof Error ? thrown.message : String(thrown)}`);
      const failed = (Array.isArray(answer) ? answer : [answer]).map((message) =>
        errorMessage(
          'id' in message ? message.id : null,
          new RpcError(ErrorCode.InternalError, 'Internal error: the result could not be encoded'),
        ),
      );
      io.send(Array.isArray(answer) ? failed : failed[0]!);
    }
  }

  /** JSON-RPC 2.0 §6, for 2025-03-26 sessions: one array of responses, none for notifications, nothing at all if empty. */
  function handleBatch(items: unknown[]): void {
    if (!rules.batches || phase !== 'ready') {
      io.send(errorMessage(null, invalidRequest('Invalid Request: batches are not supported in this protocol version')));
      return;
    }
    if (items.length === 0) {
      io.send(errorMessage(null, invalidRequest('Invalid Request: empty batch')));
      return;
    }
    // One batch is answered in one line, so its size bounds memory and the in-flight limit.
    if (items.length > MAX_BATCH_ITEMS) {
      io.send(errorMessage(null, invalidRequest(`Invalid Request: a batch holds at most ${MAX_BATCH_ITEMS} messages`)));
      return;
    }
    const outcomes = items.map((item) => {
      const message = classify(item);
      // https://modelcontextprotocol.io/specification/2025-03-26/basic/lifecycle: initialize MUST NOT be part of a batch.
      if (message.kind === 'request' && message.method === 'initialize') {
        return errorMessage(message.id, invalidRequest('Invalid Request: initialize cannot be part of a batch'));
      }
      return handle(message);
    });
    void Promise.all(outcomes).then((responses) => {
      const present = responses.filter((r): r is OutgoingMessage => r !== null);
      if (present.length > 0) deliver(present);
      io.settled();
    });
  }

  function receive(frame: Frame): void {
    if (frame.kind === 'too-long') {
      io.send(errorMessage(null, invalidRequest(`Invalid Request: message longer than ${frame.limitBytes} bytes, discarded`)));
      return;
    }
    if (frame.kind === 'not-utf8') {
      io.send(errorMessage(null, new RpcError(ErrorCode.ParseError, 'Parse error: message is not valid UTF-8')));
      return;
    }
    const parsed = parseLine(frame.text, limits.maxDepth);
    if (parsed.kind === 'parse-error')
      io.send(errorMessage(null, new RpcError(ErrorCode.ParseError, 'Parse error: not valid JSON')));
    else if (parsed.kind === 'too-deep')
      io.send(errorMessage(null, invalidRequest(`Invalid Request: nested deeper than ${parsed.maxDepth} levels`)));
    else if (parsed.kind === 'batch') handleBatch(parsed.items);
    else sendWhenReady(handle(parsed.message));
  }

  return {
    receive(frame) {
      // A fault of ours while handling one line must not stop the reader or spill into the next line.
      try {
        receive(frame);
      } catch (thrown) {
        io.report(`internal error on a message: ${thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown)}`);
      }
    },
    resourceUpdated(uri) {
      // Only for URIs the client subscribed to
      // (https://modelcontextprotocol.io/specification/2025-11-25/server/resources#subscriptions), and with
      // its spelling: the client matches the notification to its subscription by that string.
      for (const { holder, uri: spelling } of subscriptions.subscribersOf(uri)) {
        if (holder === null) io.send(notificationMessage('notifications/resources/updated', { uri: spelling }));
        else streams.resourceUpdated(holder, spelling);
      }
    },
    resourceListChanged() {
      if (phase === 'ready' && features.has('resourceListChanged'))
        io.send(notificationMessage('notifications/resources/list_changed'));
      streams.resourceListChanged();
    },
    get subscriptions() {
      return subscriptions.size;
    },
    log,
    // Listen streams and handlers waiting for the client's answer are not work the reader
    // must wait for: counting them could pause stdin with the very message that would end them
    // (a cancel, the client's answer) unread.
    get inFlight() {
      return Math.max(0, peer.inFlight - streams.size - peer.awaitingAnswers);
    },
    async idle() {
      streams.closeAll();
      while (running.size > 0) await Promise.allSettled([...running]);
    },
    abortAll: () => peer.abortAll(),
  };
}

type Client = { capabilities: ClientCapabilities; info: ClientInfo };

/**
 * What a listen stream will carry: the requested types we actually send (the acknowledgement
 * "only includes notification types the server actually supports", schema
 * SubscriptionsAcknowledgedNotificationParams). Our tool and prompt lists never change.
 */
function honouredFilter(requested: ListenFilter, features: ReadonlySet<Feature>): ListenFilter {
  const honoured: ListenFilter = {};
  if (requested.resourcesListChanged && features.has('resourceListChanged')) honoured.resourcesListChanged = true;
  if (requested.resourceSubscriptions && features.has('subscriptions'))
    honoured.resourceSubscriptions = requested.resourceSubscriptions;
  return honoured;
}

const CLIENT_CAPABILITY_FOR: Record<string, keyof ClientCapabilities> = {
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
  'roots/list': 'roots',
};

function servedFeatures(definition: ServerDefinition): Set<Feature> {
  const features = new Set<Feature>();
  const resources = (definition.resources?.length ?? 0) + (definition.resourceTemplates?.length ?? 0) > 0;
  if (definition.tools?.length) features.add('tools');
  if (resources) features.add('resources');
  if (resources && definition.subscriptions) features.add('subscriptions');
  if (resources && definition.resourceListChanged) features.add('resourceListChanged');
  if (definition.prompts?.length) features.add('prompts');
  if (definition.logging) features.add('logging');
  const completes =
    definition.prompts?.some((p) => p.arguments.some((a) => a.complete)) ||
    definition.resourceTemplates?.some((t) => t.complete && Object.keys(t.complete).length > 0);
  if (completes) features.add('completions');
  return features;
}

/** Capabilities advertised exactly as served (rule 2.4: a declared capability whose methods are missing breaks hosts). */
function capabilitiesFor(features: ReadonlySet<Feature>, rules: VersionRules): Record<string, unknown> {
  const capabilities: Record<string, unknown> = {};
  if (features.has('tools')) capabilities.tools = {};
  if (features.has('resources')) {
    const resources: Record<string, boolean> = {};
    if (features.has('subscriptions')) resources.subscribe = true;
    if (features.has('resourceListChanged')) resources.listChanged = true;
    capabilities.resources = resources;
  }
  if (features.has('prompts')) capabilities.prompts = {};
  if (features.has('logging')) capabilities.logging = {};
  // 2024-11-05 had completion/complete but no capability flag for it.
  if (features.has('completions') && rules.completionsCapability) capabilities.completions = {};
  return capabilities;
}
