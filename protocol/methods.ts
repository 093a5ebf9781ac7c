// THE method table: every MCP method this server answers, in one declarative list.
//
// Each row says what the method's params look like, which server capability it belongs to
// (without that capability the method does not exist: -32601, https://modelcontextprotocol.io/specification/2025-03-26/server/utilities/completion
// and rule 1.7 in spec-tests/RULES.md), whether it may run before `initialize`, which era has it (the
// handshake revisions, the stateless 2026-07-28, or both), how long a 2026-07-28 client may
// cache its result, and the plain function that answers it. The session derives every envelope and lifecycle error from these rows;
// handlers only ever see params that passed their schema. (The shape comes from the Go SDK's
// `serverMethodInfos` table.)

import type * as z from 'zod/mini';
import type { RequestContext } from './context.js';
import { excerpt, invalidParams } from './errors.js';
import { paginate } from './pagination.js';
import { PreEncoded } from './pre-encoded.js';
import type { PromptRegistry } from './prompts.js';
import type { Completer, ResourceRegistry, Suggestions } from './resources.js';
import {
  CallToolParamsSchema,
  CompleteParamsSchema,
  EmptyParamsSchema,
  GetPromptParamsSchema,
  InitializeParamsSchema,
  type ListenFilter,
  ListenParamsSchema,
  type LogLevel,
  PaginatedParamsSchema,
  ResourceUriParamsSchema,
  SetLevelParamsSchema,
} from './schemas.js';
import { type TaskStore, TaskIdParamsSchema, UpdateTaskParamsSchema, declaresTasks, tasksNotDeclared } from './tasks.js';
import type { ToolRegistry } from './tools.js';

/** What this server serves; the advertised capabilities are derived from it, never declared by hand. */
export type Feature =
  'tools' | 'tasks' | 'resources' | 'subscriptions' | 'resourceListChanged' | 'prompts' | 'logging' | 'completions';

/** The per-connection state handlers may read and change. */
export interface SessionState {
  readonly tools: ToolRegistry;
  readonly resources: ResourceRegistry;
  readonly prompts: PromptRegistry;
  readonly tasks: TaskStore;
  readonly pageSize: number;
  /** logging/setLevel: the handshake session's level for the log notifications we send. */
  setLogLevel(level: LogLevel): void;
  /** Runs `initialize`; lives in the session because it moves the lifecycle on. */
  initialize(params: z.infer<typeof InitializeParamsSchema>): Record<string, unknown>;
  /** The `server/discover` result (2026-07-28). */
  discover(): Record<string, unknown>;
  /** Adds a resources/subscribe subscription (-32602 past the limits). */
  subscribe(uri: string): void;
  /** Some connection already subscribes to the resource a URI names: it exists, and is watched. */
  isWatched(uri: string): boolean;
  /** Ends the session's subscriptions to the resource a URI names, in any spelling. */
  unsubscribe(uri: string): void;
  /** Opens a `subscriptions/listen` stream; settles when the stream ends. */
  listen(filter: ListenFilter, context: RequestContext): Promise<Record<string, unknown>>;
}

function subscribed(state: SessionState, uri: string): Record<string, never> {
  state.subscribe(uri);
  return {};
}

/** https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching: how long the result stays fresh, and for whom. */
export interface CacheHint {
  ttlMs: number;
  scope: 'public' | 'private';
}

// Capabilities, tools, prompts and templates never change while a process runs; the issue
// list and the resources' content do, so those are never served from a cache (ttl 0).
const STABLE: CacheHint = { ttlMs: 3_600_000, scope: 'public' };
const LIVE: CacheHint = { ttlMs: 0, scope: 'private' };

// ping's answer, `{}`, encoded once: its line is then written without a JSON.stringify (json-rpc.ts, encodeLine).
const EMPTY_RESULT = PreEncoded.ofValue({});

export interface MethodEntry<P = any> {
  params: z.ZodMiniType<P>;
  /** The feature the method belongs to; if we do not serve it, the method is unknown. */
  feature?: Feature;
  /** May be answered before `initialize` (only `ping` and `initialize` itself). */
  beforeInitialize?: boolean;
  /** The era the method exists in; absent means both (https://modelcontextprotocol.io/specification/2026-07-28/changelog lists the removals). */
  era?: 'handshake' | 'stateless';
  /** 2026-07-28 caching hint for a complete result (rule 15.3). */
  cache?: CacheHint;
  run(params: P, context: RequestContext, state: SessionState): unknown;
}

const entry = <P>(row: MethodEntry<P>): MethodEntry<P> => row;

export const METHODS: Readonly<Record<string, MethodEntry>> = {
  // https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle "Initialization".
  initialize: entry({
    params: InitializeParamsSchema,
    beforeInitialize: true,
    era: 'handshake',
    run: (params, _context, state) => state.initialize(params),
  }),

  // https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/ping: answer promptly with an empty result, at any time.
  ping: entry({ params: EmptyParamsSchema, beforeInitialize: true, era: 'handshake', run: () => EMPTY_RESULT }),

  // https://modelcontextprotocol.io/specification/2026-07-28/server/discover: servers MUST implement it.
  'server/discover': entry({
    params: EmptyParamsSchema,
    era: 'stateless',
    cache: STABLE,
    run: (_params, _context, state) => state.discover(),
  }),

  // https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions: a long-lived request that carries notifications.
  'subscriptions/listen': entry({
    params: ListenParamsSchema,
    era: 'stateless',
    run: (params, context, state) => state.listen(params.notifications, context),
  }),

  'tools/list': entry({
    params: PaginatedParamsSchema,
    feature: 'tools',
    cache: STABLE,
    run: (params, context, state) =>
      listPage('tools', state.tools.describe(context.rules, context.auth), params?.cursor, state.pageSize),
  }),

  'tools/call': entry({
    params: CallToolParamsSchema,
    feature: 'tools',
    run: (params, context, state) => state.tools.call(params, context),
  }),

  // The tasks extension (tasks.ts): only for a request that declares it, else -32021
  // ("MUST return this error for non-declaring clients issuing tasks/get, tasks/update, and
  // tasks/cancel"). Each answers `resultType: "complete"`; the update and the cancel an empty ack.
  'tasks/get': entry({
    params: TaskIdParamsSchema,
    feature: 'tasks',
    era: 'stateless',
    run: (params, context, state) => withTasks(context, () => state.tasks.get(params.taskId, context.auth?.subject)),
  }),

  'tasks/update': entry({
    params: UpdateTaskParamsSchema,
    feature: 'tasks',
    era: 'stateless',
    run: (params, context, state) =>
      withTasks(context, () => (state.tasks.update(params.taskId, params.inputResponses, context.auth?.subject), {})),
  }),

  'tasks/cancel': entry({
    params: TaskIdParamsSchema,
    feature: 'tasks',
    era: 'stateless',
    run: (params, context, state) => withTasks(context, () => (state.tasks.cancel(params.taskId, context.auth?.subject), {})),
  }),

  'resources/list': entry({
    params: PaginatedParamsSchema,
    feature: 'resources',
    cache: LIVE,
    run(params, context, state) {
      const page = paginate(state.resources.listing, params?.cursor, state.pageSize);
      const resources = page.items.map((info) => state.resources.describeResource(info, context.rules));
      return page.nextCursor === undefined ? { resources } : { resources, nextCursor: page.nextCursor };
    },
  }),

  'resources/templates/list': entry({
    params: PaginatedParamsSchema,
    feature: 'resources',
    cache: STABLE,
    run: (params, context, state) =>
      listPage('resourceTemplates', state.resources.describeTemplates(context.rules), params?.cursor, state.pageSize),
  }),

  'resources/read': entry({
    params: ResourceUriParamsSchema,
    feature: 'resources',
    cache: LIVE,
    run(params, context, state) {
      const contents = state.resources.read(params.uri, context);
      return contents instanceof Promise ? contents.then((value) => ({ contents: value })) : { contents };
    },
  }),

  // https://modelcontextprotocol.io/specification/2025-11-25/server/resources "Subscriptions": only when we declared `subscribe: true`.
  'resources/subscribe': entry({
    params: ResourceUriParamsSchema,
    feature: 'subscriptions',
    era: 'handshake',
    run(params, context, state) {
      // A resource already watched exists and has its fingerprint: subscribing costs a map entry,
      // not a read (a read of a 10 MB issue for each of 200 subscribes held a ping 110 s, issue 30).
      if (state.isWatched(params.uri)) return subscribed(state, params.uri);
      const read = state.resources.read(params.uri, context); // not found -> the read's error
      return read instanceof Promise ? read.then(() => subscribed(state, params.uri)) : subscribed(state, params.uri);
    },
  }),

  'resources/unsubscribe': entry({
    params: ResourceUriParamsSchema,
    feature: 'subscriptions',
    era: 'handshake',
    run(params, _context, state) {
      state.unsubscribe(params.uri);
      return {};
    },
  }),

  'prompts/list': entry({
    params: PaginatedParamsSchema,
    feature: 'prompts',
    cache: STABLE,
    run: (params, context, state) => listPage('prompts', state.prompts.describe(context.rules), params?.cursor, state.pageSize),
  }),

  'prompts/get': entry({
    params: GetPromptParamsSchema,
    feature: 'prompts',
    run: (params, context, state) => state.prompts.get(params.name, params, context),
  }),

  // https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging: send only messages at this level or more severe.
  // Removed in 2026-07-28: the level travels in each request's `_meta` instead.
  'logging/setLevel': entry({
    params: SetLevelParamsSchema,
    feature: 'logging',
    era: 'handshake',
    run(params, _context, state) {
      state.setLogLevel(params.level);
      return {};
    },
  }),

  // https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/completion.
  'completion/complete': entry({
    params: CompleteParamsSchema,
    feature: 'completions',
    async run(params, context, state) {
      const completer = findCompleter(params.ref, params.argument.name, state);
      // `context.arguments` exists from 2025-06-18; older clients cannot send it.
      const chosen = context.rules.completionContext ? (params.context?.arguments ?? {}) : {};
      const suggestions = completer ? await completer(params.argument.value, chosen) : { values: [] };
      return { completion: completionOf(suggestions) };
    },
  }),
};

function withTasks(context: RequestContext, run: () => Record<string, unknown>): Record<string, unknown> {
  if (!declaresTasks(context.client.capabilities)) throw tasksNotDeclared();
  return run();
}

function listPage(
  key: string,
  all: Record<string, unknown>[],
  cursor: string | undefined,
  pageSize: number,
): Record<string, unknown> {
  const page = paginate(
    { count: () => all.length, slice: (offset, limit) => all.slice(offset, offset + limit) },
    cursor,
    pageSize,
  );
  return page.nextCursor === undefined ? { [key]: page.items } : { [key]: page.items, nextCursor: page.nextCursor };
}

function findCompleter(
  ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
  argument: string,
  state: SessionState,
): Completer | undefined {
  if (ref.type === 'ref/prompt') return state.prompts.completer(ref.name, argument);
  const completer = state.resources.completer(ref.uri, argument);
  if (!completer && !state.resources.hasTemplate(ref.uri)) {
    throw invalidParams(`Unknown resource template: ${excerpt(ref.uri)}`, { uri: excerpt(ref.uri) });
  }
  return completer;
}

/** The schema caps `values` at 100; `total` and `hasMore` tell the client there are more. */
function completionOf({ values, total }: Suggestions): { values: string[]; total: number; hasMore: boolean } {
  const known = Math.max(total ?? 0, values.length);
  const sent = values.slice(0, 100);
  return { values: sent, total: known, hasMore: known > sent.length };
}
