// An HTTP error status without a JSON-RPC body, read as the transport allows: the server refused
// what the POST carried. "If the server cannot accept the input, it MUST return an HTTP error
// status code (e.g., 400 Bad Request). The HTTP response body MAY comprise a JSON-RPC error
// response" (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports). So such
// a refusal stands for the JSON-RPC errors a transcript expects for that POST (by id; or, for
// input whose id cannot be read, an error without one; or a batch of errors); where it expects a
// result the refusal is the failure, named by its HTTP status. A well-formed request is another
// matter: "If the input is a JSON-RPC request, the server MUST either return Content-Type:
// text/event-stream ... or Content-Type: application/json", so its error belongs in such a body,
// and a bare HTTP error for it fails at the fixture's level ('bare-request').
import type { JsonValue } from './json-types.js';
import { isJsonObject } from './json-types.js';
import { isMarkerText } from './matchers.js';
import { messageKind } from './message-kinds.js';

export interface Refusal {
  /** What happened, in words: "the server answered POST ping (id 1) with HTTP 400 and no JSON-RPC body". */
  problem: string;
  /** The ids (idKey) of the requests the POST carried, not yet accounted for. */
  ids: string[];
  /** Those of them that are well-formed MCP requests (params absent or an object), which the server had to answer in a body. */
  wellFormed: string[];
  /** The POST carried a batch, or something that is not a request with an id: an error without an id may stand for it. */
  idless: boolean;
  batch: boolean;
}

/** Whether the refusal answers this expected message, and as what the transcript wanted. */
export function refusalCovers(refusal: Refusal, expected: JsonValue): 'error' | 'result' | 'bare-request' | undefined {
  if (Array.isArray(expected)) {
    if (!refusal.batch) return undefined;
    return expected.every((item) => isJsonObject(item) && isJsonObject(item.error)) ? 'error' : 'result';
  }
  if (!isJsonObject(expected) || messageKind(expected) !== 'response') return undefined;
  const id = literalId(expected);
  if (id !== undefined ? !refusal.ids.includes(id) : !refusal.idless) return undefined;
  if (!isJsonObject(expected.error)) return 'result';
  return id !== undefined && refusal.wellFormed.includes(id) && !refusal.batch ? 'bare-request' : 'error';
}

/** Marks the part of the refusal that `expected` used up. */
export function useRefusal(refusal: Refusal, expected: JsonValue): void {
  if (Array.isArray(expected)) return void Object.assign(refusal, { batch: false, idless: false, ids: [] });
  const id = isJsonObject(expected) ? literalId(expected) : undefined;
  if (id !== undefined) refusal.ids = refusal.ids.filter((item) => item !== id);
  else refusal.idless = false;
}

/** A request MCP accepts the shape of: a string method, a string or integer id, params absent or an object. */
export function isWellFormedRequest(item: JsonValue): boolean {
  if (!isJsonObject(item) || item.jsonrpc !== '2.0' || typeof item.method !== 'string') return false;
  const idOk = typeof item.id === 'string' || (typeof item.id === 'number' && Number.isInteger(item.id));
  return idOk && (item.params === undefined || isJsonObject(item.params));
}

/** The expected id as idKey spells it, or undefined for none, null or a matcher (`<<one-of:null|absent>>`). */
function literalId(expected: { [key: string]: JsonValue }): string | undefined {
  if (!('id' in expected) || expected.id === null) return undefined;
  if (typeof expected.id === 'string' && isMarkerText(expected.id)) return undefined;
  return JSON.stringify(expected.id);
}
