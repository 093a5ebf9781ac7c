// What a parsed fixture looks like. FORMAT.md documents the text form these types come from.
import type { JsonValue } from './json-types.js';
import type { HttpRequestSpec, HttpResponseSpec } from './http-exchange.js';

/** How the runner opens the session before the fixture's own steps run. */
export type ProtocolMode =
  | { kind: 'handshake'; version: string } // initialize with this version; skip if the server picks another
  | { kind: 'any' } // initialize with the runner's newest version; accept whatever the server picks
  | { kind: 'none' } // no automatic handshake: the fixture drives the lifecycle itself
  | { kind: 'stateless'; version: string }; // 2026-07-28 and later: no handshake; requests carry `_meta`

/** The revision a fixture is about, for reports: `2025-11-25`, `2026-07-28`, `any` or `none`. */
export function revisionOf(mode: ProtocolMode): string {
  return mode.kind === 'handshake' || mode.kind === 'stateless' ? mode.version : mode.kind;
}

/**
 * A `requires:` line, checked against the first initialize result of the session. It holds when
 * any of its alternatives (`A | B`) holds.
 */
export interface Requirement {
  text: string;
  alternatives: RequirementAlternative[];
}

export interface RequirementAlternative {
  path: string[];
  condition: { kind: 'present' } | { kind: 'absent' } | { kind: 'equals'; value: JsonValue };
}

/**
 * How binding a fixture's expectations are: `must` (a MUST of MCP or JSON-RPC that the ecosystem
 * follows), `should`, or `jsonrpc-strict` (JSON-RPC's replies to unreadable input, which the
 * official SDKs deliberately leave out). The always-on checks (stdout purity, envelope, schema,
 * unexpected messages) are `must` whatever the fixture says.
 */
export type Level = 'must' | 'should' | 'jsonrpc-strict';
export const LEVELS: readonly Level[] = ['must', 'should', 'jsonrpc-strict'];

/** `must` if any failure is (or none was given a level), else `should`, else `jsonrpc-strict`. */
export function strictestLevel(failures: readonly { level?: Level }[]): Level {
  const levels = failures.map((failure) => failure.level ?? 'must');
  return LEVELS.find((level) => levels.includes(level)) ?? 'must';
}

export interface FixtureHeader {
  prose: string;
  level: Level;
  spec: string[];
  covers: string[];
  protocol: ProtocolMode;
  requires: Requirement[];
  timeoutMs: number | undefined;
  /** `transport: stdio: REASON`: the fixture checks what the HTTP transport defines otherwise (REASON says what), so it does not apply over HTTP. */
  stdioOnly: string | undefined;
  /** `server-args: ARGS`: appended to the server's command line (the server must be started in a mode of its own). */
  serverArgs: string | undefined;
  /** `process: fresh: REASON`: the fixture needs a server process of its own (REASON says why); see process-sharing.ts. */
  freshProcess: string | undefined;
}

export interface ExpectedMessage {
  value: JsonValue;
  line: number;
}

export type Step =
  | { kind: 'send-json'; line: number; messages: { value: JsonValue; line: number }[] }
  | { kind: 'send-raw'; line: number; chunks: Buffer[] }
  | { kind: 'expect'; line: number; optional: boolean; messages: ExpectedMessage[]; sectionIndex: number }
  | { kind: 'silence'; line: number; ms: number }
  | { kind: 'close-stdin'; line: number }
  | { kind: 'exit'; line: number; code: number | undefined; withinMs: number }
  | { kind: 'http-request'; line: number; request: HttpRequestSpec }
  | { kind: 'http-response'; line: number; response: HttpResponseSpec };

/** One `-- name --` section exactly as written, kept so --update can rewrite a file faithfully. */
export interface Section {
  name: string;
  body: string;
  line: number;
}

export interface Fixture {
  path: string;
  name: string;
  headerText: string;
  header: FixtureHeader;
  sections: Section[];
  steps: Step[];
}
