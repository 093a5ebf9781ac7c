// JSON-RPC 2.0 errors, the codes MCP uses, and the one place where an unexpected
// exception is turned into something safe to send.
//
// JSON-RPC 2.0 (https://www.jsonrpc.org/specification#error_object) reserves -32768..-32000; MCP adds its own codes in -32000..-32099.
// Every code we send is named here. spec-tests/RULES.md, rule 1.5, lists when each is used.

export const ErrorCode = {
  /** The line is not valid JSON (or not valid UTF-8) (https://www.jsonrpc.org/specification#error_object). */
  ParseError: -32700,
  /** Valid JSON, but not a valid request object: bad `jsonrpc`, `method` or `id`, a batch where none is allowed (https://www.jsonrpc.org/specification#error_object). */
  InvalidRequest: -32600,
  /** Unknown method, or a method behind a capability the server did not declare (https://modelcontextprotocol.io/specification/2025-03-26/server/utilities/completion). */
  MethodNotFound: -32601,
  /**
   * Params that do not fit the method: wrong shape, unknown tool or prompt, bad cursor, bad log
   * level; and from 2026-07-28 an unknown resource (https://www.jsonrpc.org/specification#error_object,
   * https://modelcontextprotocol.io/specification/2026-07-28/server/resources "Error Handling").
   */
  InvalidParams: -32602,
  /** A fault inside the server, never used for bad input (https://www.jsonrpc.org/specification#error_object). */
  InternalError: -32603,
  /** Resource not found, 2024-11-05 to 2025-11-25 (https://modelcontextprotocol.io/specification/2025-11-25/server/resources "Error Handling"). */
  ResourceNotFound: -32002,
  /** 2026-07-28 over HTTP: the headers do not say what the body says, or a required one is missing (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http "Server Validation"). */
  HeaderMismatch: -32020,
  /** 2026-07-28: the request cannot be served without a client capability its `_meta` does not declare (https://modelcontextprotocol.io/specification/2026-07-28/basic). */
  MissingRequiredClientCapability: -32021,
  /** 2026-07-28: the version the request asked for is not one we serve; `data` says which we do (https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning). */
  UnsupportedProtocolVersion: -32022,
} as const;

/**
 * The mark every RpcError carries. A program bundled in pieces (the tracker's companions,
 * lib/companion-bundle.ts) holds a copy of this module in each piece, and `instanceof` knows
 * only its own copy's class; `Symbol.for` gives every copy in a process the same symbol.
 */
const RPC_ERROR = Symbol.for('mcp-by-hand.RpcError');

/** An error that travels to the peer as a JSON-RPC `error` object. */
export class RpcError extends Error {
  readonly code: number;
  readonly data: unknown;
  readonly [RPC_ERROR] = true;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }

  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

export const invalidParams = (message: string, data?: unknown): RpcError => new RpcError(ErrorCode.InvalidParams, message, data);

export const invalidRequest = (message: string, data?: unknown): RpcError =>
  new RpcError(ErrorCode.InvalidRequest, message, data);

export const methodNotFound = (method: string): RpcError =>
  new RpcError(ErrorCode.MethodNotFound, `Method not found: ${excerpt(method)}`);

/**
 * 2026-07-28: the request cannot be served without capabilities its `_meta` does not declare;
 * `data.requiredCapabilities` is a ClientCapabilities object naming them (`{ "sampling": {} }`),
 * and over HTTP the status is 400 (https://modelcontextprotocol.io/specification/2026-07-28/basic
 * "Per-request protocol fields").
 */
export function missingClientCapability(required: Record<string, object>): RpcError {
  const names = Object.keys(required).join(', ');
  return new RpcError(ErrorCode.MissingRequiredClientCapability, `Missing required client capability: ${names}`, {
    requiredCapabilities: required,
  });
}

/** How much of a client's input an error quotes back: characters of one value, and values of a list. */
const ECHO_MAX_CHARS = 200;
export const ECHO_MAX_ITEMS = 10;

/**
 * Client input quoted in an error: the start of it and its size when it is long. Quoted
 * whole, input near the message size limit would come back twice (message and data): an
 * answer longer than any message we accept, and as much again for the client to buffer.
 */
export function excerpt(input: string): string {
  if (input.length <= ECHO_MAX_CHARS) return input;
  return `${input.slice(0, ECHO_MAX_CHARS)}… (${Buffer.byteLength(input)} bytes)`;
}

/** The first few of a list of the client's names, each an excerpt. */
export function excerpts(inputs: readonly string[]): string[] {
  const shown = inputs.slice(0, ECHO_MAX_ITEMS).map(excerpt);
  return inputs.length > ECHO_MAX_ITEMS ? [...shown, `… (${inputs.length - ECHO_MAX_ITEMS} more)`] : shown;
}

/** Whether `thrown` is an RpcError, made by this copy of the class or by another (RPC_ERROR). */
export function isRpcError(thrown: unknown): thrown is RpcError {
  return thrown instanceof Error && (thrown as Partial<Record<typeof RPC_ERROR, boolean>>)[RPC_ERROR] === true;
}

/**
 * Anything a handler throws becomes a JSON-RPC error here. An RpcError passes as it is;
 * anything else is a fault of ours: -32603 with a one-line message and no stack trace
 * (the stack goes to stderr through `report`, never to the peer).
 */
export function toRpcError(thrown: unknown, report: (detail: string) => void): RpcError {
  if (isRpcError(thrown)) return thrown;
  const detail = thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown);
  report(detail);
  return new RpcError(ErrorCode.InternalError, 'Internal error');
}
