// Attachments over MCP: the add_attachment tool, the blob resource
// jira://issue/{key}/attachment/{name}, and the content block get_issue returns for one.
//
// A resource's bytes travel as `blob` (base64) with the attachment's mimeType
// (https://modelcontextprotocol.io/specification/2025-11-25/server/resources, "Binary Content").
// Claude Code does not read resource templates, so get_issue with `attachment` is the twin:
// an image comes back as `image` content, which a host can show the model; anything else as an
// embedded resource carrying the same blob (https://modelcontextprotocol.io/specification/2025-11-25/server/tools, "Tool Result").

import * as z from 'zod/mini';
import type { RequestContext } from '../../protocol/context.js';
import type { ContentBlock } from '../../protocol/content.js';
import type { Completer, ResourceContents, ResourceTemplateDefinition } from '../../protocol/resources.js';
import { type ToolDefinition, structuredResult } from '../../protocol/tools.js';
import { compileUriTemplate } from '../../protocol/uri-template.js';
import { LIMITS, type AttachmentInfo, type AttachmentMutation, type TrackerStore } from '../store/index.js';
import { described } from './described.js';

export const ATTACHMENT_TEMPLATE = compileUriTemplate('jira://issue/{key}/attachment/{name}');

export const attachmentUri = (key: string, name: string): string => ATTACHMENT_TEMPLATE.expand({ key, name });

/** What get_issue and add_attachment show of an attachment. */
export const AttachmentSummarySchema = z.object({
  name: z.string(),
  mimeType: z.string(),
  size: z.int(),
  uri: z.string(),
});

export function attachmentSummary(key: string, info: AttachmentInfo): z.infer<typeof AttachmentSummarySchema> {
  return { name: info.name, mimeType: info.mimeType, size: info.size, uri: attachmentUri(key, info.name) };
}

/** The attachment as a tool result's content: an image block for images, else an embedded blob. */
export function attachmentBlock(store: TrackerStore, key: string, name: string): ContentBlock {
  const file = store.getAttachment(key, name);
  if (file.mimeType.startsWith('image/')) return { type: 'image', data: file.content, mimeType: file.mimeType };
  return { type: 'resource', resource: { uri: attachmentUri(key, file.name), mimeType: file.mimeType, blob: file.content } };
}

/** The blob resource; null (not found) for an issue or a name that does not exist. */
export function attachmentTemplate(
  store: TrackerStore,
  completeKey: Completer,
  read: (uri: string) => ResourceContents[] | null,
): Omit<ResourceTemplateDefinition, 'canonical'> {
  return {
    uriTemplate: ATTACHMENT_TEMPLATE.template,
    name: 'attachment',
    title: 'Attachment',
    description:
      'A file attached to an issue, as a blob with its own mimeType, e.g. jira://issue/PROJ-101/attachment/screenshot.png. ' +
      'get_issue lists an issue’s attachments and returns one with `attachment`.',
    complete: {
      key: completeKey,
      name: (value, chosen) => {
        const { values, total } = store.completeAttachmentNames(chosen.key ?? '', value);
        return { values, total };
      },
    },
    read: (_variables, uri) => read(uri),
  };
}

const AttachmentOutput = z.object({
  attachment: AttachmentSummarySchema,
  issue: z.object({ key: z.string(), title: z.string(), attachment_count: z.int() }),
  changed: z.boolean(),
  change: z.string(),
});

export function addAttachmentTool(
  store: TrackerStore,
  domain: <T>(work: () => T | Promise<T>) => T | Promise<T>,
): ToolDefinition {
  const describe = (description: string) => described(z.string(), description);
  return {
    name: 'add_attachment',
    title: 'Add attachment',
    description:
      `Attaches a file (base64) to an issue: up to ${LIMITS.attachmentBytesMax / 1024} KiB, ` +
      `${LIMITS.attachmentsPerIssueMax} per issue; names are unique and never replaced. ` +
      'get_issue with attachment reads it back.',
    input: z.strictObject({
      key: describe('Issue key, e.g. PROJ-101.'),
      name: describe('File name, e.g. screenshot.png: letters, digits, . _ -'),
      mimeType: describe('e.g. image/png, text/plain.'),
      content: describe('The file, base64.'),
    }),
    output: AttachmentOutput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: (args, context: RequestContext) =>
      domain(async () => {
        const mutation = await store.addAttachment(args.key, args);
        return attachmentResult(mutation, context);
      }),
  };
}

function attachmentResult({ issue, attachment, count, change }: AttachmentMutation, context: RequestContext) {
  context.log('info', { change: change.description, issues: change.issues }, 'tracker');
  const summary = attachmentSummary(issue.key, attachment);
  return structuredResult(
    {
      attachment: summary,
      issue: { key: issue.key, title: issue.title, attachment_count: count },
      changed: true,
      change: change.description,
    },
    [{ type: 'resource_link', uri: summary.uri, name: attachment.name, mimeType: attachment.mimeType, size: attachment.size }],
  );
}
