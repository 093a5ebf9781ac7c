// The headers a Streamable HTTP client sends with each message, per era.
//
// - Every POST: `Content-Type: application/json` and `Accept: application/json,
//   text/event-stream` (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports
//   "Sending Messages to the Server").
// - The handshake era: the `Mcp-Session-Id` the initialize answer issued, on every later request;
//   from 2025-06-18 on, `MCP-Protocol-Version` with the negotiated version after initialize
//   (same page, "Session Management" and "Protocol Version Header").
// - A 2026-07-28 request (its `_meta` names the version): no session; the body mirrored into
//   `MCP-Protocol-Version`, `Mcp-Method` and, for tools/call, resources/read and prompts/get,
//   `Mcp-Name`, Base64-wrapped as `=?base64?...?=` when it is not plain visible ASCII
//   (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http
//   "Request Metadata").
import type { JsonValue } from './json-types.js';
import { isJsonObject } from './json-types.js';

const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
const NAMED_BY: Record<string, string> = { 'tools/call': 'name', 'resources/read': 'uri', 'prompts/get': 'name' };
/** The first revision with the MCP-Protocol-Version header in the handshake era. */
const VERSION_HEADER_SINCE = '2025-06-18';

export const POST_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' } as const;

/** The revision a message's `_meta` names, when it is a 2026-07-28-style request or notification. */
export function statelessVersion(message: JsonValue): string | undefined {
  if (!isJsonObject(message) || !isJsonObject(message.params) || !isJsonObject(message.params._meta)) return undefined;
  const version = message.params._meta[VERSION_KEY];
  return typeof version === 'string' ? version : undefined;
}

export function statelessHeaders(message: JsonValue, version: string): Record<string, string> {
  const method = isJsonObject(message) && typeof message.method === 'string' ? message.method : '';
  const headers: Record<string, string> = { 'MCP-Protocol-Version': version, 'Mcp-Method': method };
  const field = Object.hasOwn(NAMED_BY, method) ? NAMED_BY[method] : undefined;
  const name = field !== undefined && isJsonObject(message) && isJsonObject(message.params) ? message.params[field] : undefined;
  if (typeof name === 'string') headers['Mcp-Name'] = headerValue(name);
  return headers;
}

/** A handshake-era session's headers: its id, and its version once one that has the header is negotiated. */
export function sessionHeaders(sessionId: string | undefined, version: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (sessionId !== undefined) headers['Mcp-Session-Id'] = sessionId;
  if (version !== undefined && version >= VERSION_HEADER_SINCE) headers['MCP-Protocol-Version'] = version;
  return headers;
}

/** Plain visible ASCII as it is; anything else (non-ASCII, control characters, edge spaces) as Base64. */
function headerValue(value: string): string {
  if (/^[\x21-\x7E]([\x20-\x7E]*[\x21-\x7E])?$/.test(value)) return value;
  return `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}
