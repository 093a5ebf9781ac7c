// The params of every method we accept, as zod schemas: one source for validation and
// for the TypeScript types the handlers see. Shapes follow https://github.com/modelcontextprotocol/modelcontextprotocol/blob/main/schema/2025-11-25/schema.ts; where
// revisions differ, the schema accepts the union and the handler reads the version table.
//
// Objects are `looseObject`: unknown keys pass through. The spec lets every params object
// carry `_meta` and lets newer clients add fields; rejecting them would break the next
// revision's clients (a trap seen in the wild: strict envelope schemas that reject harmless extra keys).

import * as z from 'zod/mini';

/** https://modelcontextprotocol.io/specification/2025-11-25/basic: ids and progress tokens are strings or integers. */
export const RequestIdSchema = z.union([z.string(), z.int()]);
export const ProgressTokenSchema = RequestIdSchema;

const MetaSchema = z.optional(z.looseObject({ progressToken: z.optional(ProgressTokenSchema) }));

/** Any request's params, when the method defines none of its own. */
export const EmptyParamsSchema = z.optional(z.looseObject({ _meta: MetaSchema }));

const ClientCapabilitiesSchema = z.looseObject({
  roots: z.optional(z.looseObject({ listChanged: z.optional(z.boolean()) })),
  sampling: z.optional(z.looseObject({})),
  elicitation: z.optional(z.looseObject({})),
  experimental: z.optional(z.looseObject({})),
});
const ClientInfoSchema = z.looseObject({ name: z.string(), version: z.string(), title: z.optional(z.string()) });

export const InitializeParamsSchema = z.looseObject({
  _meta: MetaSchema,
  protocolVersion: z.string(),
  capabilities: ClientCapabilitiesSchema,
  clientInfo: ClientInfoSchema,
});
export type InitializeParams = z.infer<typeof InitializeParamsSchema>;
export type ClientCapabilities = InitializeParams['capabilities'];
export type ClientInfo = InitializeParams['clientInfo'];

/** https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination: the cursor is an opaque string. */
export const PaginatedParamsSchema = z.optional(z.looseObject({ _meta: MetaSchema, cursor: z.optional(z.string()) }));

export const CallToolParamsSchema = z.looseObject({
  _meta: MetaSchema,
  name: z.string(),
  arguments: z.optional(z.record(z.string(), z.unknown())),
  // 2026-07-28 retries of a multi round-trip request (https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr).
  inputResponses: z.optional(z.record(z.string(), z.unknown())),
  requestState: z.optional(z.string()),
});
export type CallToolParams = z.infer<typeof CallToolParamsSchema>;

/** https://modelcontextprotocol.io/specification/2025-11-25/server/prompts: prompt argument values are strings on the wire. */
export const GetPromptParamsSchema = z.looseObject({
  _meta: MetaSchema,
  name: z.string(),
  arguments: z.optional(z.record(z.string(), z.string())),
});

export const ResourceUriParamsSchema = z.looseObject({ _meta: MetaSchema, uri: z.string() });

/** RFC 5424 severities, lowest first (https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging). */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export const LogLevelSchema = z.enum(LOG_LEVELS);
export type LogLevel = z.infer<typeof LogLevelSchema>;
export const SetLevelParamsSchema = z.looseObject({ _meta: MetaSchema, level: LogLevelSchema });

export const CompleteParamsSchema = z.looseObject({
  _meta: MetaSchema,
  ref: z.union([
    z.looseObject({ type: z.literal('ref/prompt'), name: z.string() }),
    z.looseObject({ type: z.literal('ref/resource'), uri: z.string() }),
  ]),
  argument: z.looseObject({ name: z.string(), value: z.string() }),
  context: z.optional(z.looseObject({ arguments: z.optional(z.record(z.string(), z.string())) })),
});

// ---- 2026-07-28: each request carries the version and the client in `_meta` ----------------

/** The reserved `_meta` keys of https://modelcontextprotocol.io/specification/2026-07-28/basic ("Per-request fields", "Per-response fields"). */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

/** Required on every 2026-07-28 request: the version and the capabilities; a missing one is -32602. */
export const StatelessMetaSchema = z.looseObject({
  [META.protocolVersion]: z.string(),
  [META.clientCapabilities]: ClientCapabilitiesSchema,
  [META.clientInfo]: z.optional(ClientInfoSchema),
  [META.logLevel]: z.optional(LogLevelSchema),
});

/** https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions: what the client opts in to on a listen stream. */
export const ListenParamsSchema = z.looseObject({
  notifications: z.looseObject({
    toolsListChanged: z.optional(z.boolean()),
    promptsListChanged: z.optional(z.boolean()),
    resourcesListChanged: z.optional(z.boolean()),
    resourceSubscriptions: z.optional(z.array(z.string())),
  }),
});
export type ListenFilter = z.infer<typeof ListenParamsSchema>['notifications'];

export const CancelledParamsSchema = z.looseObject({ requestId: RequestIdSchema, reason: z.optional(z.string()) });

// ---- the quick path for the params nearly every request carries ---------------------------
//
// A zod parse is a long walk through generic code: 4 µs when the process is busy, but 20 to
// 60 µs for a lone request, when the caches are cold (spec-tests/bench; the floor answers a
// whole request in about 50). These hand checks accept the usual shapes of the busiest
// methods' params, and only values the schema accepts unchanged, so the value can be passed on
// as it is; anything else (a MRTR retry, a wrong type) goes to zod, which also writes the
// error. protocol/tests/schemas.test.ts checks that agreement on generated values.

/** What JSON.parse makes of `{...}`; anything more exotic goes to zod (which drops a `__proto__` key). */
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  Object.getPrototypeOf(value) === Object.prototype &&
  !Object.hasOwn(value, '__proto__');
const isRequestId = (value: unknown): boolean => typeof value === 'string' || Number.isSafeInteger(value);
const isMeta = (meta: unknown): boolean =>
  meta === undefined || (isPlainObject(meta) && (meta.progressToken === undefined || isRequestId(meta.progressToken)));
const isEmptyParams = (params: unknown): params is Record<string, unknown> | undefined =>
  params === undefined || (isPlainObject(params) && isMeta(params._meta));

/** Quick checks by schema: true only for values the schema accepts and returns unchanged. */
export const QUICK_CHECKS: ReadonlyMap<z.ZodMiniType, (params: unknown) => boolean> = new Map<
  z.ZodMiniType,
  (params: unknown) => boolean
>([
  [EmptyParamsSchema, isEmptyParams],
  [
    PaginatedParamsSchema,
    (params) => isEmptyParams(params) && (params?.cursor === undefined || typeof params.cursor === 'string'),
  ],
  [
    CallToolParamsSchema,
    (params) =>
      isPlainObject(params) &&
      isMeta(params._meta) &&
      typeof params.name === 'string' &&
      (params.arguments === undefined || isPlainObject(params.arguments)) &&
      params.inputResponses === undefined &&
      params.requestState === undefined,
  ],
  [ResourceUriParamsSchema, (params) => isPlainObject(params) && isMeta(params._meta) && typeof params.uri === 'string'],
]);
