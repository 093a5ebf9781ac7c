// Layer 2: lines -> JSON values -> JSON-RPC 2.0 envelopes.
//
// Hand-written checks, no zod: this layer only decides what kind of message a value is,
// and it must tell "not JSON" (-32700) from "JSON, but not a request" (-32600) — the SDK,
// which validates inside its framer, cannot tell them apart.
//
// The invalid-input policy, row by row (spec-tests/RULES.md: rules 1.x and the JSON-RPC examples J1-J15):
//   not JSON                                        -> -32700, id null
//   JSON that is not an object                      -> -32600, id null
//   an object with `method` and a valid `id`,
//     but a bad `jsonrpc` or `params`               -> -32600, that id
//   an `id` that is null, fractional, bool, object  -> -32600, id null (MCP forbids null ids)
//   `method` present but not a string               -> -32600, the id if it is valid
//   a malformed *notification* (string `method`,
//     no `id`, something else wrong)                -> ignored: never answer a notification
//   a response (`result` or `error`, no `method`)   -> handed to the peer; a malformed one is ignored
//   no `method`, no `result`, no `error`            -> -32600, the id if it is valid
//   an array                                        -> a batch; the session decides (rule 1.6)

import { ErrorCode, RpcError, excerpt } from './errors.js';
import { PreEncoded, encodeJson, encodeJsonParts } from './pre-encoded.js';

/** MCP request ids are strings or integers; null is not allowed (https://modelcontextprotocol.io/specification/2025-11-25/basic "Requests"). */
export type RequestId = string | number;
export type Params = Record<string, unknown> | unknown[] | undefined;

export interface Request {
  kind: 'request';
  id: RequestId;
  method: string;
  params: Params;
}
export interface Notification {
  kind: 'notification';
  method: string;
  params: Params;
}
export interface Response {
  kind: 'response';
  id: RequestId;
  result?: unknown;
  error?: unknown;
}
/** Not a valid message, but one we must answer: `id` is what we could recover, else null. */
export interface Invalid {
  kind: 'invalid';
  id: RequestId | null;
  error: RpcError;
}
/** Not a valid message, and not one we may answer (a malformed notification or response). */
export interface Ignored {
  kind: 'ignored';
  reason: string;
}

export type Incoming = Request | Notification | Response | Invalid | Ignored;

export type ParsedLine =
  | { kind: 'single'; message: Incoming }
  | { kind: 'batch'; items: unknown[] }
  | { kind: 'parse-error' }
  | { kind: 'too-deep'; maxDepth: number }
  /** Refused unparsed; `id` and `notification` are read from its top level, so the refusal can be addressed. */
  | { kind: 'too-many-values'; maxValues: number; id: RequestId | null; notification: boolean };

/** Nesting deeper than any MCP message needs; deeper input costs memory out of all proportion. */
export const DEFAULT_MAX_DEPTH = 1000;

/**
 * Objects, arrays and their members in one message. Parsing, validating and answering a message
 * costs time in proportion to them, and the connection answers nothing else meanwhile (issue 30:
 * millions of small objects or argument keys held it for seconds), while a ping must be answered
 * promptly. The largest message MCP needs here (a batch of 1,000 small requests) has about
 * 10,000; keys of one object cost most to parse (docs/performance.md, the nesting bound).
 */
export const MAX_VALUES = 20_000;

export function parseLine(text: string, maxDepth = DEFAULT_MAX_DEPTH): ParsedLine {
  // A line shorter than both limits cannot pass either: skip the scan for most messages.
  if (text.length > Math.min(maxDepth, MAX_VALUES)) {
    const shape = shapeOf(text, maxDepth, MAX_VALUES);
    if (shape === 'too-deep') return { kind: 'too-deep', maxDepth };
    if (shape === 'too-many-values') return { kind: 'too-many-values', maxValues: MAX_VALUES, ...topLevelIdentity(text) };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'parse-error' };
  }
  if (Array.isArray(value)) return { kind: 'batch', items: value };
  return { kind: 'single', message: classify(value) };
}

/**
 * Performance (a first reading may skip it): one pass over the text, counting brackets and commas outside strings. JSON.parse itself
 * accepts millions of levels, and memory and time grow with them out of all proportion (found
 * by spec-tests/fuzz); this check costs one scan of the line, and stops at the first limit
 * passed. Strings are jumped over with indexOf, from quote to quote: a long string is then one
 * search, not a look at each of its characters. Measurements: docs/performance.md.
 * Values are counted as brackets plus commas: every member but the first of an object or array
 * follows a comma, so this is the number of containers and members, give or take one a container.
 */
function shapeOf(text: string, maxDepth: number, maxValues: number): 'too-deep' | 'too-many-values' | 'ok' {
  let depth = 0;
  let values = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) i = closingQuote(text, i);
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return 'too-deep';
      if (++values > maxValues) return 'too-many-values';
    } else if (c === 0x5d || c === 0x7d) depth--;
    else if (c === 0x2c && ++values > maxValues) return 'too-many-values';
  }
  return 'ok';
}

/**
 * The id of a message too costly to parse whole, and whether it is a notification, read from the
 * members of its top-level object only. JSON-RPC answers with `"id": null` only when the id cannot
 * be read (https://www.jsonrpc.org/specification#response_object), and never answers a
 * notification: a client waiting for its request's id would otherwise wait for ever.
 */
function topLevelIdentity(text: string): { id: RequestId | null; notification: boolean } {
  let depth = 0;
  let atKey = false;
  let id: RequestId | null = null;
  let hasId = false;
  let hasMethod = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const end = closingQuote(text, i);
      if (atKey) {
        const key = text.slice(i + 1, end);
        if (key === 'method') hasMethod = true;
        if (key === 'id') [hasId, id] = [true, idAt(text, text.indexOf(':', end) + 1)];
        atKey = false;
      }
      i = end;
    } else if (c === 0x7b || c === 0x5b) atKey = ++depth === 1 && c === 0x7b;
    else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x2c && depth === 1) atKey = true;
  }
  return { id, notification: hasMethod && !hasId };
}

/** A string or integer id written at `start` (after its key's colon), or null. */
function idAt(text: string, start: number): RequestId | null {
  const written = /^\s*("(?:[^"\\]|\\.)*"|-?\d+)\s*[,}]/.exec(text.slice(start, start + 1024))?.[1];
  if (written === undefined) return null;
  const value: unknown = JSON.parse(written);
  return isRequestId(value) ? value : null;
}

/** Where the string opened at `start` ends: the next quote not escaped by an odd run of backslashes. */
function closingQuote(text: string, start: number): number {
  for (let at = text.indexOf('"', start + 1); at !== -1; at = text.indexOf('"', at + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
  return text.length;
}

/**
 * A string or an integer. Integers beyond 2^53 are refused: JSON.parse has already rounded
 * them, so we could not echo them back exactly, and a wrong id is worse than none.
 */
export function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || Number.isSafeInteger(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const invalid = (id: RequestId | null, message: string): Invalid => ({
  kind: 'invalid',
  id,
  error: new RpcError(ErrorCode.InvalidRequest, message),
});

export function classify(value: unknown): Incoming {
  if (!isObject(value)) return invalid(null, 'Invalid Request: a message must be a JSON object');
  const hasId = 'id' in value;
  const id = hasId && isRequestId(value.id) ? value.id : null;
  if (!('method' in value)) return classifyResponse(value, id);
  if (hasId && id === null) return invalid(null, 'Invalid Request: id must be a string or an integer');
  if (typeof value.method !== 'string') return invalid(id, 'Invalid Request: method must be a string');

  // A string method and no id: a notification. Whatever else is wrong with it, we must not answer.
  const problem = envelopeProblem(value);
  if (!hasId) {
    return problem
      ? { kind: 'ignored', reason: `notification ${excerpt(value.method)}: ${problem}` }
      : { kind: 'notification', method: value.method, params: value.params as Params };
  }
  if (problem) return invalid(id, `Invalid Request: ${problem}`);
  return { kind: 'request', id: id as RequestId, method: value.method, params: value.params as Params };
}

function envelopeProblem(value: Record<string, unknown>): string | undefined {
  if (value.jsonrpc !== '2.0') return 'jsonrpc must be exactly "2.0"';
  // https://www.jsonrpc.org/specification#parameter_structures: params, when present, is a structured value (object or array).
  if ('params' in value && typeof value.params !== 'object') return 'params must be an object';
  if (value.params === null) return 'params must be an object';
  return undefined;
}

function classifyResponse(value: Record<string, unknown>, id: RequestId | null): Incoming {
  // Neither `method` nor `result`/`error`: not a response, so a broken request. If it
  // carried an id the sender is waiting on it, so answer rather than drop it.
  if (!('result' in value) && !('error' in value)) return invalid(id, 'Invalid Request: a request needs a method');
  // A response must carry exactly one of result and error (https://www.jsonrpc.org/specification#response_object). A broken
  // response is never answered: that could start an endless exchange of errors.
  if (id === null || value.jsonrpc !== '2.0' || ('result' in value && 'error' in value)) {
    return { kind: 'ignored', reason: 'malformed response' };
  }
  return 'result' in value ? { kind: 'response', id, result: value.result } : { kind: 'response', id, error: value.error };
}

// ---- what we send -------------------------------------------------------------------

export type OutgoingMessage =
  | { jsonrpc: '2.0'; id: RequestId; result: unknown }
  | { jsonrpc: '2.0'; id: RequestId | null; error: ReturnType<RpcError['toJSON']> }
  | { jsonrpc: '2.0'; id: RequestId; method: string; params?: unknown }
  | { jsonrpc: '2.0'; method: string; params?: unknown };

export const resultMessage = (id: RequestId, result: unknown): OutgoingMessage => ({ jsonrpc: '2.0', id, result });

/** https://www.jsonrpc.org/specification#response_object: when the id could not be read, the error's id is null (rule A-3). */
export const errorMessage = (id: RequestId | null, error: RpcError): OutgoingMessage => ({
  jsonrpc: '2.0',
  id,
  error: error.toJSON(),
});

export const notificationMessage = (method: string, params?: unknown): OutgoingMessage =>
  params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };

export const requestMessage = (id: RequestId, method: string, params?: unknown): OutgoingMessage =>
  params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };

/**
 * One message, one line: compact JSON has no raw newline (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports),
 * and encodeJson escapes U+2028 and U+2029 too (rule 4).
 */
export function encodeLine(message: unknown): string {
  // A result encoded already (a tool's, ping's): resultMessage's envelope is written around its
  // JSON by hand, in resultMessage's key order, as JSON.stringify would write it. encodeJson
  // encodes the id, escaping U+2028 and U+2029 in a string id too.
  if (isEncodedResult(message)) return `{"jsonrpc":"2.0","id":${encodeJson(message.id)},"result":${message.result.json}}\n`;
  return encodeJson(message) + '\n';
}

/** A line as UTF-8 bytes, in chunks sent one after the other; together they are one whole line. */
export type LineBytes = readonly Buffer[];

/**
 * encodeLine's line as UTF-8, for a writer to a pipe or a socket. Performance (a first reading
 * may skip it): encodeLine joins the envelope and a result's JSON into a rope, and writing a rope
 * makes V8 copy it whole into a new string first, the largest part of the garbage of the mixed
 * workload (docs/performance.md). Here each part goes into the bytes as it is; the bytes are
 * outside V8's heap, in Node's pool. A fragment kept as bytes (PreEncoded.ofStringAsBytes) is a
 * chunk of its own, not copied: a 10 MB issue's text costs nothing to send again.
 */
export function encodeLineBytes(message: unknown): LineBytes {
  if (isEncodedResult(message)) {
    const { result } = message;
    const head = `{"jsonrpc":"2.0","id":${encodeJson(message.id)},"result":`;
    if (result.utf8 !== undefined) return [utf8Of([head]), ...result.utf8, utf8Of(['}\n'])];
    const parts = result.jsonParts;
    return [utf8Of(parts === undefined ? [head, result.json, '}\n'] : [head, ...parts, '}\n'])];
  }
  const parts = encodeJsonParts(message);
  parts.push('\n');
  const chunks: Buffer[] = [];
  let text: string[] = [];
  for (const part of parts) {
    if (typeof part === 'string') text.push(part);
    else {
      if (text.length > 0) chunks.push(utf8Of(text));
      chunks.push(part);
      text = [];
    }
  }
  chunks.push(utf8Of(text));
  return chunks;
}

/** How many bytes a line holds. */
export const lineLength = (line: LineBytes): number => line.reduce((sum, chunk) => sum + chunk.length, 0);

function utf8Of(parts: readonly string[]): Buffer {
  let size = 0;
  for (const part of parts) size += Buffer.byteLength(part);
  const bytes = Buffer.allocUnsafe(size);
  let at = 0;
  for (const part of parts) at += bytes.write(part, at);
  return bytes;
}

/** A result message as resultMessage makes it, its result a PreEncoded: those three fields, no other. */
function isEncodedResult(message: unknown): message is { jsonrpc: '2.0'; id: RequestId; result: PreEncoded<unknown> } {
  if (typeof message !== 'object' || message === null) return false;
  const { result } = message as { result?: unknown };
  if (!(result instanceof PreEncoded)) return false;
  // Counted in place: Object.keys would make an array for every answer.
  let keys = 0;
  for (const key in message) if (Object.hasOwn(message, key)) keys++;
  return keys === 3;
}
