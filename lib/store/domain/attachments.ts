// Attachments: files added to an issue (add_attachment), read back whole (a blob resource).
//
// Each is one record, `issue.attachment_added`, carrying the file as base64, so both backends
// keep it as they keep any record. Three bounds, each refused with a message that says which:
// the size of one file (LIMITS.attachmentBytesMax, decoded), how many one issue has
// (attachmentsPerIssueMax) and the bytes of all of them together (attachmentStoreBytesMax).
// The format checks run before the plan, the bounds inside it, against the newest state: a
// refused attachment is never written. Names are unique per issue; an attachment is never
// replaced or removed, so its URI always reads the same bytes.
import { quote, requireString } from '../model/args.js';
import { domainError } from '../model/errors.js';
import { requireIssue } from '../state/lookup.js';
import {
  ATTACHMENT_BASE64_MAX,
  ATTACHMENT_NAME_PATTERN,
  base64Bytes,
  isBase64,
  LIMITS,
  MIME_TYPE_PATTERN,
  NOT_BASE64,
} from '../model/schema.js';
import type { RecordDraft } from '../model/record-schema.js';
import { findAttachment, type StoredAttachment, type TrackerState } from '../state/state.js';
import { COMPLETION_CAP, type Completion } from './completions.js';

export interface AttachmentInput {
  readonly name: string;
  readonly mimeType: string;
  /** Base64; line breaks and spaces (as MIME writes it) are taken out. */
  readonly content: string;
  /** Default: the store's actor. */
  readonly author?: string;
}

/** What an issue shows of an attachment: everything but the bytes. */
export interface AttachmentInfo {
  readonly name: string;
  readonly mimeType: string;
  readonly size: number;
  readonly author: string;
  readonly created_at: string;
}

export interface AttachmentRequest {
  readonly name: string;
  readonly mime_type: string;
  readonly content: string;
  readonly size: number;
}

const KIB = 1024;
const sizeText = (bytes: number): string => (bytes >= KIB * KIB ? `${bytes / KIB / KIB} MiB` : `${bytes / KIB} KiB`);

/** Format checks, before the plan: name, type and content, the content's size before its characters. */
export function parseAttachment(input: AttachmentInput): AttachmentRequest {
  const name = requireString(input.name, 'Attachment name').trim();
  if (!ATTACHMENT_NAME_PATTERN.test(name)) {
    invalid(
      `Invalid attachment name ${quote(input.name)}: a letter or digit, then letters, digits, '.', '_' or '-', up to 100 characters (e.g. screenshot-1.png).`,
    );
  }
  const mime_type = requireString(input.mimeType, 'mimeType').trim().toLowerCase();
  if (!MIME_TYPE_PATTERN.test(mime_type)) invalid(`Invalid mimeType ${quote(input.mimeType)}: type/subtype, e.g. image/png.`);
  const raw = requireString(input.content, 'content');
  // Line breaks may at most double the text; past that it is too large whatever it holds.
  if (raw.length > 2 * ATTACHMENT_BASE64_MAX) tooLarge(Math.floor((raw.length * 3) / 4));
  const content = raw.replace(/\s+/g, '');
  if (content.length > ATTACHMENT_BASE64_MAX) tooLarge(Math.floor((content.length * 3) / 4));
  if (!isBase64(content)) invalid(`The content ${NOT_BASE64}.`);
  const size = base64Bytes(content);
  if (size > LIMITS.attachmentBytesMax) tooLarge(size);
  return { name, mime_type, content, size };
}

/** The record adding the attachment, or a refusal naming the bound it would pass. */
export function planAttachment(
  state: TrackerState,
  key: string,
  request: AttachmentRequest,
  author: string,
  at: string,
): RecordDraft {
  requireIssue(state, key);
  const present = state.attachments.get(key) ?? [];
  if (findAttachment(state, key, request.name) !== undefined) {
    throw domainError(
      'conflict',
      `${key} already has an attachment named ${request.name}; attachments are never replaced. Pick another name.`,
    );
  }
  if (present.length >= LIMITS.attachmentsPerIssueMax) {
    throw domainError(
      'conflict',
      `${key} already has ${present.length} attachments, the most one issue may have (${LIMITS.attachmentsPerIssueMax}).`,
    );
  }
  if (state.attachmentBytes + request.size > LIMITS.attachmentStoreBytesMax) {
    throw domainError(
      'conflict',
      `The tracker holds ${state.attachmentBytes} bytes of attachments; ${request.size} more would pass the limit of ` +
        `${sizeText(LIMITS.attachmentStoreBytesMax)} for all attachments together.`,
    );
  }
  const { name, mime_type, content } = request;
  return { type: 'issue.attachment_added', key, attachment: { name, mime_type, content, author, created_at: at } };
}

export function attachmentInfo(attachment: StoredAttachment): AttachmentInfo {
  const { name, mime_type, size, author, created_at } = attachment;
  return { name, mimeType: mime_type, size, author, created_at };
}

export function listAttachments(state: TrackerState, key: string): AttachmentInfo[] {
  requireIssue(state, key);
  return (state.attachments.get(key) ?? []).map(attachmentInfo);
}

/** Not found names the attachments the issue has. */
export function requireAttachment(state: TrackerState, key: string, name: string): StoredAttachment {
  requireIssue(state, key);
  const found = findAttachment(state, key, name);
  if (found !== undefined) return found;
  const names = (state.attachments.get(key) ?? []).map((a) => a.name);
  const known = names.length === 0 ? 'it has none' : `it has: ${names.join(', ')}`;
  throw domainError('not_found', `${key} has no attachment named ${quote(name)}; ${known}.`);
}

/**
 * Names of the issue's attachments starting with `prefix` (all of them fit: at most
 * attachmentsPerIssueMax); with no issue chosen yet (key null), the names on any issue.
 */
export function completeAttachmentNames(state: TrackerState, key: string | null, prefix: string): Completion {
  const wanted = prefix.toLowerCase();
  const lists = key === null ? [...state.attachments.values()] : [state.attachments.get(key) ?? []];
  const names = [...new Set(lists.flatMap((list) => list.map((a) => a.name)))].filter((name) =>
    name.toLowerCase().startsWith(wanted),
  );
  return { values: names.slice(0, COMPLETION_CAP), total: names.length, hasMore: names.length > COMPLETION_CAP };
}

function tooLarge(bytes: number): never {
  return invalid(
    `The attachment is about ${bytes} bytes; the limit is ${LIMITS.attachmentBytesMax} bytes (${sizeText(LIMITS.attachmentBytesMax)}) per attachment.`,
  );
}

function invalid(message: string): never {
  throw domainError('invalid_argument', message);
}
