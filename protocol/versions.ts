// The protocol revisions we speak, and everything that differs between them, in one table.
//
// Handlers never compare version strings; they read a column of this table from the
// request context. Adding a revision means adding a row, not hunting for `if`s.
// Sources: each revision's changelog (https://modelcontextprotocol.io/specification/2025-11-25/changelog) and schema (https://github.com/modelcontextprotocol/modelcontextprotocol/blob/main/schema/2025-11-25/schema.ts);
// spec-tests/RULES.md rules 1.6 (batches), 2.4 (capabilities), 5.x, 7.x and 9.

import { ErrorCode } from './errors.js';

/** The revisions negotiated by `initialize`, newest first (https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle). */
export const HANDSHAKE_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
/** The revisions served statelessly, version and capabilities in each request's `_meta` (https://modelcontextprotocol.io/specification/2026-07-28/basic). */
export const STATELESS_VERSIONS = ['2026-07-28'] as const;
export type HandshakeVersion = (typeof HANDSHAKE_VERSIONS)[number];
export type StatelessVersion = (typeof STATELESS_VERSIONS)[number];
export type ProtocolVersion = HandshakeVersion | StatelessVersion;
export const LATEST_HANDSHAKE_VERSION: HandshakeVersion = HANDSHAKE_VERSIONS[0];

export interface VersionRules {
  version: ProtocolVersion;
  /** How a session is opened: `initialize` once, or nothing and `_meta` on every request. */
  era: 'handshake' | 'stateless';
  /** Every result carries `resultType` and `_meta` serverInfo (2026-07-28, https://modelcontextprotocol.io/specification/2026-07-28/basic). */
  resultType: boolean;
  /** Lists, reads and discover carry `ttlMs` and `cacheScope` (https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching). */
  cacheHints: boolean;
  /** A JSON array of messages on one line is a batch (2025-03-26 only; removed in 2025-06-18). */
  batches: boolean;
  /** `completions` is a declared server capability (2025-03-26→); before, the method had no flag. */
  completionsCapability: boolean;
  /** Tool annotations (readOnlyHint, ...) exist (2025-03-26→). */
  toolAnnotations: boolean;
  /** `message` on notifications/progress (2025-03-26→). */
  progressMessage: boolean;
  /** `title` on tools, prompts, resources, arguments (2025-06-18→). */
  titles: boolean;
  /** Tool `outputSchema` and `structuredContent` (2025-06-18→). */
  structuredContent: boolean;
  /** `resource_link` content blocks (2025-06-18→). */
  resourceLinks: boolean;
  /** `lastModified` in annotations (2025-06-18→). */
  lastModified: boolean;
  /** `context.arguments` in completion/complete (2025-06-18→). */
  completionContext: boolean;
  /** The client can be asked for user input with `elicitation/create` (2025-06-18→, https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation). */
  elicitation: boolean;
  /** Elicitation requests say their `mode`, `form` or `url` (2025-11-25→; before, every request was a form). */
  elicitationMode: boolean;
  /**
   * Over Streamable HTTP, an SSE stream opens with an event that has an id and no data, so the
   * client holds a Last-Event-ID before any message (2025-11-25,
   * https://modelcontextprotocol.io/specification/2025-11-25/basic/transports "Sending Messages
   * to the Server"); an older client might try to read the empty event as a message.
   */
  ssePriming: boolean;
  /** JSON Schema dialect for inputSchema/outputSchema: 2020-12 is the default from 2025-11-25. */
  jsonSchemaDialect: 'draft-7' | 'draft-2020-12';
  /** Resource not found: -32002 up to 2025-11-25 (https://modelcontextprotocol.io/specification/2025-11-25/server/resources "Error Handling"), -32602 from 2026-07-28. */
  resourceNotFoundCode: number;
}

// Each revision is the one before it plus what its changelog added (https://modelcontextprotocol.io/specification/2025-11-25/changelog).
const V2024_11_05: VersionRules = {
  version: '2024-11-05',
  era: 'handshake',
  resultType: false,
  cacheHints: false,
  batches: false,
  completionsCapability: false,
  toolAnnotations: false,
  progressMessage: false,
  titles: false,
  structuredContent: false,
  resourceLinks: false,
  lastModified: false,
  completionContext: false,
  elicitation: false,
  elicitationMode: false,
  ssePriming: false,
  jsonSchemaDialect: 'draft-7',
  resourceNotFoundCode: ErrorCode.ResourceNotFound,
};
const V2025_03_26: VersionRules = {
  ...V2024_11_05,
  version: '2025-03-26',
  batches: true,
  completionsCapability: true,
  toolAnnotations: true,
  progressMessage: true,
};
const V2025_06_18: VersionRules = {
  ...V2025_03_26,
  version: '2025-06-18',
  batches: false, // removed again (changelog item 1)
  titles: true,
  structuredContent: true,
  resourceLinks: true,
  lastModified: true,
  completionContext: true,
  elicitation: true,
};
const V2025_11_25: VersionRules = {
  ...V2025_06_18,
  version: '2025-11-25',
  jsonSchemaDialect: 'draft-2020-12',
  elicitationMode: true,
  ssePriming: true,
};
const V2026_07_28: VersionRules = {
  ...V2025_11_25,
  version: '2026-07-28',
  era: 'stateless',
  resultType: true,
  cacheHints: true,
  resourceNotFoundCode: ErrorCode.InvalidParams,
};

const RULES: Record<ProtocolVersion, VersionRules> = {
  '2024-11-05': V2024_11_05,
  '2025-03-26': V2025_03_26,
  '2025-06-18': V2025_06_18,
  '2025-11-25': V2025_11_25,
  '2026-07-28': V2026_07_28,
};

export function isHandshakeVersion(version: string): version is HandshakeVersion {
  return (HANDSHAKE_VERSIONS as readonly string[]).includes(version);
}

export function isStatelessVersion(version: string): version is StatelessVersion {
  return (STATELESS_VERSIONS as readonly string[]).includes(version);
}

export function rulesFor(version: ProtocolVersion): VersionRules {
  return RULES[version];
}

/**
 * Version negotiation (https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle "Version Negotiation"): if we support the
 * version the client asked for, we answer with that same string; otherwise with our latest.
 * Either way it is a result, not an error: the client decides whether it can go on.
 */
export function negotiateVersion(requested: string): HandshakeVersion {
  return isHandshakeVersion(requested) ? requested : LATEST_HANDSHAKE_VERSION;
}
