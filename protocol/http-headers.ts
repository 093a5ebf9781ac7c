// First reading: skip this file. It is a detail of the HTTP transport; stdio is enough to learn MCP (docs/reading-path.md).
// The request headers of a 2026-07-28 POST, checked against its body.
//
// Streamable HTTP mirrors parts of the body into headers so that load balancers and gateways
// can route without parsing JSON; a server that reads the body MUST refuse a request whose
// headers say something else, or lack a required one, with 400 and HeaderMismatch (-32020):
// otherwise a gateway could route on one method while we run another
// (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http
// "Request Metadata" and "Server Validation").
//
//   MCP-Protocol-Version   = _meta io.modelcontextprotocol/protocolVersion   every request
//   Mcp-Method             = method                                          every request
//   Mcp-Name               = params.name or params.uri                       tools/call,
//                                                                            resources/read,
//                                                                            prompts/get
//                          = params.taskId                                   tasks/get, tasks/update,
//                                                                            tasks/cancel (the tasks
//                                                                            extension, "Routing Headers")
//   Mcp-Param-{Name}       = params.arguments[the argument marked            tools/call of a tool that
//                            x-mcp-header: Name]                              marks arguments
//
// Header names are case-insensitive (node lower-cases them); values are compared exactly. A
// value outside plain ASCII travels as `=?base64?...?=` and is decoded before comparing.
//
// A marked argument (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http
// "Custom Headers from Tool Parameters"): its value in the body needs the header, and the
// header a value in the body ("Client omits header but value is in body": reject). An integer
// is compared as a number (`42.0` is 42, the spec's SHOULD), a boolean as `true` / `false`. A
// header whose argument is absent or null is refused too (our choice: the spec only says the
// server "MUST NOT expect" it; a gateway may have routed on a value we would never see).

import type { IncomingHttpHeaders } from 'node:http';
import { ErrorCode, RpcError, excerpt } from './errors.js';
import { META } from './schemas.js';

const NAMED_BY: Record<string, 'name' | 'uri' | 'taskId'> = {
  'tools/call': 'name',
  'resources/read': 'uri',
  'prompts/get': 'name',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/** The arguments a tool mirrors into headers, by argument: `Mcp-Param-{Name}` (server.ts, paramHeaders). */
export type ParamHeaders = (toolName: string) => Readonly<Record<string, string>> | undefined;

/** Throws HeaderMismatch when the headers of a 2026-07-28 request do not say what its body says. */
export function checkStatelessHeaders(
  headers: IncomingHttpHeaders,
  method: string,
  params: unknown,
  paramHeaders: ParamHeaders,
): void {
  const fields = (params ?? {}) as Record<string, unknown>;
  const meta = (fields._meta ?? {}) as Record<string, unknown>;
  expectHeader(headers, 'mcp-protocol-version', meta[META.protocolVersion], false);
  expectHeader(headers, 'mcp-method', method, false);
  const field = Object.hasOwn(NAMED_BY, method) ? NAMED_BY[method] : undefined;
  if (field) expectHeader(headers, 'mcp-name', fields[field], true);
  const marked = method === 'tools/call' && typeof fields.name === 'string' ? paramHeaders(fields.name) : undefined;
  if (marked) checkParamHeaders(headers, marked, (fields.arguments ?? {}) as Record<string, unknown>);
}

function checkParamHeaders(
  headers: IncomingHttpHeaders,
  marked: Readonly<Record<string, string>>,
  args: Record<string, unknown>,
) {
  for (const [argument, suffix] of Object.entries(marked)) {
    const name = `mcp-param-${suffix.toLowerCase()}`;
    const bodyValue = Object.hasOwn(args, argument) ? args[argument] : undefined;
    const raw = headers[name];
    if (bodyValue === undefined || bodyValue === null) {
      if (raw !== undefined) throw mismatch(`the ${name} header is given, and the body has no ${argument}`);
      continue;
    }
    if (raw === undefined) throw mismatch(`the ${name} header is missing, and the body has ${argument}`);
    if (Array.isArray(raw)) throw mismatch(`the ${name} header is given more than once`);
    // Visible ASCII, space and tab only (RFC 9110 field values); anything else goes in Base64.
    if (/[^\t\x20-\x7e]/.test(raw)) throw mismatch(`the ${name} header holds characters a header value cannot`);
    const value = decodeSentinel(raw);
    if (value === undefined) throw mismatch(`the ${name} header is not valid Base64 of UTF-8 between =?base64? and ?=`);
    if (!sameValue(value, bodyValue)) {
      throw mismatch(
        `the ${name} header value ${excerpt(JSON.stringify(value))} does not match the body's ${argument} ${excerpt(JSON.stringify(bodyValue))}`,
      );
    }
  }
}

function sameValue(header: string, body: unknown): boolean {
  if (typeof body === 'number') return header.trim() !== '' && Number(header) === body;
  if (typeof body === 'boolean') return header === String(body);
  return header === body;
}

function expectHeader(headers: IncomingHttpHeaders, name: string, bodyValue: unknown, encoded: boolean): void {
  const raw = headers[name];
  if (raw === undefined) throw mismatch(`the ${name} header is missing`);
  if (Array.isArray(raw)) throw mismatch(`the ${name} header is given more than once`);
  const value = encoded ? decodeSentinel(raw) : raw;
  if (value === undefined) throw mismatch(`the ${name} header is not valid Base64 of UTF-8 between =?base64? and ?=`);
  if (value !== bodyValue) {
    throw mismatch(
      `the ${name} header value ${excerpt(JSON.stringify(value))} does not match the body's ${excerpt(JSON.stringify(bodyValue))}`,
    );
  }
}

/**
 * `=?base64?...?=` -> its UTF-8 text; any other value as it is; undefined when the Base64 is
 * malformed or its bytes are not UTF-8. Decoded strictly: a lossy decoder turns every invalid
 * byte into U+FFFD, so `=?base64?/w==?=` (the lone byte 0xFF) would match a name of U+FFFD.
 */
export function decodeSentinel(value: string): string | undefined {
  if (!value.startsWith('=?base64?') || !value.endsWith('?=')) return value;
  const encoded = value.slice('=?base64?'.length, -'?='.length);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(encoded, 'base64'));
  } catch {
    return undefined;
  }
}

const mismatch = (detail: string) => new RpcError(ErrorCode.HeaderMismatch, `Header mismatch: ${detail}`);
