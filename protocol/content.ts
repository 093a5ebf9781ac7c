// Content: what tool results, prompt messages and resource listings are made of, and how each
// is shaped for the negotiated revision (https://modelcontextprotocol.io/specification/2025-11-25/server/tools
// "Tool Result"). Tools, prompts and resources all use these, so they live here and none of
// those three imports another.

import type { VersionRules } from './versions.js';

export interface Annotations {
  audience?: ('user' | 'assistant')[];
  priority?: number;
  /** ISO 8601; exists from 2025-06-18. */
  lastModified?: string;
}

/** What resources/list shows for one resource. */
export interface ResourceInfo {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  size?: number;
}

export type EmbeddedResource =
  { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: string };

export type ContentBlock =
  | { type: 'text'; text: string; annotations?: Annotations }
  | { type: 'image' | 'audio'; data: string; mimeType: string; annotations?: Annotations }
  | { type: 'resource'; resource: EmbeddedResource; annotations?: Annotations }
  // A link is a Resource with a type tag (schema ResourceLink extends Resource).
  | ({ type: 'resource_link' } & ResourceInfo);

/** Strips what the negotiated revision does not have from a block: resource_link, lastModified. */
export function shapeContentBlock(block: ContentBlock, rules: VersionRules): ContentBlock {
  if (block.type === 'resource_link' && !rules.resourceLinks) {
    // Before 2025-06-18 there is no link block; a text line keeps the reference visible.
    return { type: 'text', text: `${block.title ?? block.name}: ${block.uri}` };
  }
  if (block.annotations?.lastModified && !rules.lastModified) {
    const { lastModified: _dropped, ...annotations } = block.annotations;
    return { ...block, annotations };
  }
  return block;
}

/** A resource's or a template's description for the revision: `title` and `lastModified` exist from 2025-06-18. */
export function shapeInfo<T extends { title?: string; annotations?: Annotations }>(info: T, rules: VersionRules): T {
  let shaped = info;
  if (!rules.titles && shaped.title !== undefined) {
    const { title: _title, ...rest } = shaped;
    shaped = rest as T;
  }
  if (!rules.lastModified && shaped.annotations?.lastModified !== undefined) {
    const { lastModified: _lm, ...annotations } = shaped.annotations;
    shaped = { ...shaped, annotations };
  }
  return shaped;
}
