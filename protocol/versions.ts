// The protocol revisions we speak, and everything that differs between them, in one table.
//
// Handlers never compare version strings; they read a column of this table from the
// request context. Adding a revision means adding a row, not hunting for `if`s.
// Sources: each revision's changelog (S/{v}/changelog.mdx) and schema (schema/{v}/schema.ts);
// REQUIREMENTS.md §1.6 (batches), §2.4 (capabilities), §5, §7, §9.

export const SUPPORTED_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
export type ProtocolVersion = (typeof SUPPORTED_VERSIONS)[number];
export const LATEST_VERSION: ProtocolVersion = SUPPORTED_VERSIONS[0];

export interface VersionRules {
  version: ProtocolVersion;
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
  /** JSON Schema dialect for inputSchema/outputSchema: 2020-12 is the default from 2025-11-25. */
  jsonSchemaDialect: 'draft-7' | 'draft-2020-12';
  /** Resource not found: -32002 up to 2025-11-25 (S/{v}/server/resources.mdx "Error Handling"). */
  resourceNotFoundCode: number;
}

const RULES: Record<ProtocolVersion, VersionRules> = {
  '2024-11-05': {
    version: '2024-11-05', batches: false, completionsCapability: false, toolAnnotations: false,
    progressMessage: false, titles: false, structuredContent: false, resourceLinks: false,
    lastModified: false, completionContext: false, jsonSchemaDialect: 'draft-7', resourceNotFoundCode: -32002,
  },
  '2025-03-26': {
    version: '2025-03-26', batches: true, completionsCapability: true, toolAnnotations: true,
    progressMessage: true, titles: false, structuredContent: false, resourceLinks: false,
    lastModified: false, completionContext: false, jsonSchemaDialect: 'draft-7', resourceNotFoundCode: -32002,
  },
  '2025-06-18': {
    version: '2025-06-18', batches: false, completionsCapability: true, toolAnnotations: true,
    progressMessage: true, titles: true, structuredContent: true, resourceLinks: true,
    lastModified: true, completionContext: true, jsonSchemaDialect: 'draft-7', resourceNotFoundCode: -32002,
  },
  '2025-11-25': {
    version: '2025-11-25', batches: false, completionsCapability: true, toolAnnotations: true,
    progressMessage: true, titles: true, structuredContent: true, resourceLinks: true,
    lastModified: true, completionContext: true, jsonSchemaDialect: 'draft-2020-12', resourceNotFoundCode: -32002,
  },
};

export function isSupportedVersion(version: string): version is ProtocolVersion {
  return (SUPPORTED_VERSIONS as readonly string[]).includes(version);
}

export function rulesFor(version: ProtocolVersion): VersionRules {
  return RULES[version];
}

/**
 * Version negotiation (S/{v}/basic/lifecycle.mdx "Version Negotiation"): if we support the
 * version the client asked for, we answer with that same string; otherwise with our latest.
 * Either way it is a result, not an error: the client decides whether it can go on.
 */
export function negotiateVersion(requested: string): ProtocolVersion {
  return isSupportedVersion(requested) ? requested : LATEST_VERSION;
}
