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

const MetaObjectSchema = z.looseObject({ progressToken: z.optional(ProgressTokenSchema) });
const MetaSchema = z.optional(MetaObjectSchema);

const EmptyParamsObjectSchema = z.looseObject({ _meta: MetaSchema });
/** Any request's params, when the method defines none of its own. */
export const EmptyParamsSchema = z.optional(EmptyParamsObjectSchema);

const RootsCapabilitySchema = z.looseObject({ listChanged: z.optional(z.boolean()) });
/** A capability declared by its presence: an object whose contents we do not read. */
const CapabilityObjectSchema = z.looseObject({});
const ClientCapabilitiesSchema = z.looseObject({
  roots: z.optional(RootsCapabilitySchema),
  sampling: z.optional(CapabilityObjectSchema),
  elicitation: z.optional(CapabilityObjectSchema),
  experimental: z.optional(CapabilityObjectSchema),
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
const PaginatedParamsObjectSchema = z.looseObject({ _meta: MetaSchema, cursor: z.optional(z.string()) });
export const PaginatedParamsSchema = z.optional(PaginatedParamsObjectSchema);

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
  // 2026-07-28 retries: any request may be a multi round-trip request (https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr).
  inputResponses: z.optional(z.record(z.string(), z.unknown())),
  requestState: z.optional(z.string()),
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
// Performance: a first reading may skip to the end of the file; what is accepted is the schemas above.
//
// A zod parse is a long walk through generic code, and slowest for a lone request, when the
// caches are cold (measured: docs/performance.md). These hand checks accept the usual shapes
// of the busiest methods' params, and only values the schema accepts unchanged, so the value
// can be passed on as it is; anything else (a MRTR retry, a wrong type) goes to zod, which
// also writes the error. protocol/tests/schemas.test.ts checks that agreement on generated values.
//
// Each check is built by quickCheck from one check per key the schema declares, so a key added
// to a schema cannot slip past: the type of `checks` demands a check for it, and without one
// quickCheck throws when the module loads. Keys the schema does not declare need no check: a
// loose object passes them through unchanged.

type Check = (value: unknown) => boolean;

/** What JSON.parse makes of `{...}`; anything more exotic goes to zod (which drops a `__proto__` key). */
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  Object.getPrototypeOf(value) === Object.prototype &&
  !Object.hasOwn(value, '__proto__');
const isString = (value: unknown): boolean => typeof value === 'string';
const isBoolean = (value: unknown): boolean => typeof value === 'boolean';
const isLogLevel = (value: unknown): boolean => (LOG_LEVELS as readonly unknown[]).includes(value);
const isRequestId = (value: unknown): boolean => typeof value === 'string' || Number.isSafeInteger(value);
/** Present only in requests that take the slow path (e.g. a MRTR retry). */
const isAbsent = (value: unknown): boolean => value === undefined;
const optional =
  (check: Check): Check =>
  (value) =>
    value === undefined || check(value);

/** One check per key a schema declares, optional keys included: a key without one is a type error. */
type KeyChecks<Shape> = { readonly [Key in keyof Shape]-?: Check };

/**
 * The quick check of a loose object schema: a plain object whose every declared key passes its
 * check. Throws if a declared key has no check (a cast can hide one from the type checker) or
 * if the schema is not loose (a strict or stripping schema refuses or drops keys we let pass).
 */
export function quickCheck<Shape extends z.core.$ZodLooseShape>(
  schema: z.ZodMiniObject<Shape>,
  checks: KeyChecks<Shape>,
): (params: unknown) => params is Record<string, unknown> {
  const unchecked = Object.keys(schema.shape).filter((key) => !Object.hasOwn(checks, key));
  if (unchecked.length > 0) throw new Error(`quickCheck: no check for the schema's key ${unchecked.join(', ')}`);
  if (schema._zod.def.catchall?._zod.def.type !== 'unknown') throw new Error('quickCheck: the schema must be a looseObject');
  const keys = Object.keys(checks);
  const keyChecks: Check[] = Object.values(checks);
  return (params): params is Record<string, unknown> => {
    if (!isPlainObject(params)) return false;
    for (let i = 0; i < keys.length; i++) if (!keyChecks[i]!(params[keys[i]!])) return false;
    return true;
  };
}

const isMeta = optional(quickCheck(MetaObjectSchema, { progressToken: optional(isRequestId) }));
const isCapabilityObject = optional(quickCheck(CapabilityObjectSchema, {}));
const isClientCapabilities = quickCheck(ClientCapabilitiesSchema, {
  roots: optional(quickCheck(RootsCapabilitySchema, { listChanged: optional(isBoolean) })),
  sampling: isCapabilityObject,
  elicitation: isCapabilityObject,
  experimental: isCapabilityObject,
});
const isClientInfo = quickCheck(ClientInfoSchema, { name: isString, version: isString, title: optional(isString) });

/** Quick checks by schema: true only for values the schema accepts and returns unchanged. */
export const QUICK_CHECKS: ReadonlyMap<z.ZodMiniType, Check> = new Map<z.ZodMiniType, Check>([
  [EmptyParamsSchema, optional(quickCheck(EmptyParamsObjectSchema, { _meta: isMeta }))],
  [PaginatedParamsSchema, optional(quickCheck(PaginatedParamsObjectSchema, { _meta: isMeta, cursor: optional(isString) }))],
  [
    CallToolParamsSchema,
    quickCheck(CallToolParamsSchema, {
      _meta: isMeta,
      name: isString,
      arguments: optional(isPlainObject),
      inputResponses: isAbsent,
      requestState: isAbsent,
    }),
  ],
  [ResourceUriParamsSchema, quickCheck(ResourceUriParamsSchema, { _meta: isMeta, uri: isString })],
  // Every 2026-07-28 request carries one (stateless.ts, readStatelessMeta).
  [
    StatelessMetaSchema,
    quickCheck(StatelessMetaSchema, {
      [META.protocolVersion]: isString,
      [META.clientCapabilities]: isClientCapabilities,
      [META.clientInfo]: optional(isClientInfo),
      [META.logLevel]: optional(isLogLevel),
    }),
  ],
]);
