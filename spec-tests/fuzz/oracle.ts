// What the server must send back for a given stream of bytes, worked out independently of the
// server's code from the rules it documents (stdio transport, JSON-RPC 2.0, rule 1):
//
//   a line longer than the limit, not UTF-8, nested deeper than 1000
//   levels, not JSON, not an object                                  -> one error, id null
//   a request (string method, valid id)                              -> one response, that id
//   a broken request whose id is readable                            -> one error, that id
//   a notification, a response, a blank line                         -> nothing
//   a batch: outside a 2025-03-26 session one error with id null; inside, one array holding
//   one answer per request (nothing at all if it held only notifications).
//
// Ids are keyed by their JSON text, so 1 and "1" stay apart.

import { MUTATING_TOOLS } from './corpus.js';

export interface Expectation {
  /** Responses each id must get (an id sent twice must be answered twice). */
  readonly byId: Map<string, number>;
  /** Errors with id null: one per line we could not read as a request. */
  nullErrors: number;
  /** Batch responses (JSON arrays). */
  arrays: number;
  /** Ids named by a notifications/cancelled: their response may be missing. */
  readonly cancellable: Set<string>;
  /** Ids of tools/call requests to tools that write: id -> tool name. */
  readonly mutating: Map<string, string>;
}

export interface OracleOptions {
  readonly maxMessageBytes: number;
  /** A 2025-03-26 session: arrays are batches. */
  readonly batches: boolean;
}

export const emptyExpectation = (): Expectation => ({
  byId: new Map(),
  nullErrors: 0,
  arrays: 0,
  cancellable: new Set(),
  mutating: new Map(),
});

export const idKey = (id: unknown): string => JSON.stringify(id);
const isId = (value: unknown): boolean => typeof value === 'string' || Number.isSafeInteger(value);
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Adds what `bytes` (whole lines) calls for to `into`. */
export function expect(bytes: Buffer, options: OracleOptions, into: Expectation = emptyExpectation()): Expectation {
  let start = 0;
  for (let nl = bytes.indexOf(0x0a); nl !== -1; nl = bytes.indexOf(0x0a, start)) {
    expectLine(bytes.subarray(start, nl), options, into);
    start = nl + 1;
  }
  if (start < bytes.length) expectLine(bytes.subarray(start), options, into);
  return into;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** The server's default --max-depth: deeper lines are refused whole, before parsing. */
const MAX_DEPTH = 1000;

/** The deepest nesting of arrays and objects in a JSON text (strings skipped). */
function depthOf(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  let escaped = false;
  for (const char of text) {
    if (inString) {
      if (escaped) escaped = false;
      else if (char === '\\') escaped = true;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '[' || char === '{') deepest = Math.max(deepest, ++depth);
    else if (char === ']' || char === '}') depth--;
  }
  return deepest;
}

function expectLine(bytes: Buffer, options: OracleOptions, into: Expectation): void {
  if (bytes.length > options.maxMessageBytes) return void (into.nullErrors += 1);
  let text: string;
  try {
    text = decoder.decode(bytes); // a leading BOM is dropped, as the transport allows
  } catch {
    return void (into.nullErrors += 1);
  }
  if (text.endsWith('\r')) text = text.slice(0, -1);
  if (text.trim() === '') return;
  if (depthOf(text) > MAX_DEPTH) return void (into.nullErrors += 1);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return void (into.nullErrors += 1);
  }
  if (Array.isArray(value)) return expectBatch(value, options, into);
  const answer = expectMessage(value, into);
  if (answer === null) into.nullErrors += 1;
  else if (answer !== undefined) count(into, answer);
}

function expectBatch(items: unknown[], options: OracleOptions, into: Expectation): void {
  if (!options.batches || items.length === 0) return void (into.nullErrors += 1);
  let answered = 0;
  for (const item of items) {
    const answer = expectMessage(item, into);
    if (answer === undefined) continue;
    answered += 1;
    if (answer === null) into.nullErrors += 1;
    else count(into, answer);
  }
  if (answered > 0) into.arrays += 1;
}

const count = (into: Expectation, key: string): void => void into.byId.set(key, (into.byId.get(key) ?? 0) + 1);

/** The key of the id the answer carries; null for an error with id null; undefined: no answer. */
function expectMessage(value: unknown, into: Expectation): string | null | undefined {
  if (!isObject(value)) return null;
  const hasId = Object.hasOwn(value, 'id');
  const id = hasId && isId(value.id) ? idKey(value.id) : null;
  if (!Object.hasOwn(value, 'method')) {
    const isResponse = Object.hasOwn(value, 'result') || Object.hasOwn(value, 'error');
    return isResponse ? undefined : id; // a response is never answered, a broken request is
  }
  if (hasId && id === null) return null;
  if (typeof value.method !== 'string') return id;
  if (!hasId) {
    noteCancellation(value, into);
    return undefined;
  }
  noteMutation(value, id as string, into);
  return id;
}

function noteCancellation(value: Record<string, unknown>, into: Expectation): void {
  if (value.method !== 'notifications/cancelled' || !isObject(value.params)) return;
  if (isId(value.params.requestId)) into.cancellable.add(idKey(value.params.requestId));
}

function noteMutation(value: Record<string, unknown>, id: string, into: Expectation): void {
  if (value.method !== 'tools/call' || !isObject(value.params)) return;
  const name = value.params.name;
  if (typeof name === 'string' && MUTATING_TOOLS.has(name)) into.mutating.set(id, name);
}

/**
 * How many journal lines an acknowledged tools/call wrote: a create or a comment always one,
 * a link one if it changed anything, update_issue one per part it changed (its `change` lists
 * them, joined by '; '), a bulk update one per change.
 * Undefined when the answer does not say (no structuredContent before 2025-06-18).
 */
export function journalLinesAcknowledged(tool: string, response: Record<string, unknown>): number | undefined {
  const result = response.result as { isError?: boolean; structuredContent?: Record<string, unknown> } | undefined;
  if (!result || result.isError) return 0;
  if (tool === 'create_issue' || tool === 'add_comment') return 1;
  const data = result.structuredContent;
  if (data === undefined) return undefined;
  if (tool === 'bulk_update_status') return typeof data.changed === 'number' ? data.changed : undefined;
  if (tool === 'update_issue' && data.changed === true) return String(data.change).split('; ').length;
  return data.changed === true ? 1 : 0;
}
