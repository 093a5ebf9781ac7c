// What even the floor must do per request in 2026-07-28, where a request carries its protocol
// version and the client's capabilities in `_meta` and every request is self-contained
// (https://modelcontextprotocol.io/specification/2026-07-28/basic "Statelessness"): a request
// without either required field is -32602 ("_meta"), a version the server does not implement is
// -32022 with what it supports and what was asked (.../2026-07-28/basic/versioning). The
// floor is a lower bound of a correct server, so it does these checks on every request as ours
// does; clientInfo is optional, and a server SHOULD NOT act on it, so it is not looked at.
// The answers' own 2026 fields (resultType, the serverInfo in `_meta`, the cache hints) are in
// the canned results, which are ours.

const PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const SUPPORTED = '2026-07-28';

/**
 * The error object (JSON text) a 2026-07-28 request must be answered with instead of its
 * result, or undefined when it may be served. A request whose `_meta` names no protocol version
 * speaks the handshake era and is served as before (the floors, as ours, serve both eras).
 */
export function statelessRefusal(params: unknown): string | undefined {
  const meta = (params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  if (typeof meta !== 'object' || meta === null || !Object.hasOwn(meta, PROTOCOL_VERSION)) return undefined;
  const version = meta[PROTOCOL_VERSION];
  const capabilities = meta[CLIENT_CAPABILITIES];
  if (typeof version !== 'string' || typeof capabilities !== 'object' || capabilities === null || Array.isArray(capabilities)) {
    return `{"code":-32602,"message":"Invalid params: a 2026-07-28 request needs _meta ${PROTOCOL_VERSION} (a string) and ${CLIENT_CAPABILITIES} (an object)"}`;
  }
  if (version !== SUPPORTED) {
    return `{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["${SUPPORTED}"],"requested":${JSON.stringify(version)}}}`;
  }
  return undefined;
}
