// The steps the runner plays before a fixture's own steps when its header says
// `protocol: VERSION` or `protocol: any`: initialize, check the answer, then initialized.
import type { ProtocolMode, Requirement, Step } from './fixture-types.js';
import type { JsonObject, JsonValue } from './json-types.js';

const HANDSHAKE_REQUEST_ID = 'mcp-conform:initialize';
/** The id of detect.ts's initialize probes (a probe's process may serve on: process-pool.ts). */
export const PROBE_REQUEST_ID = 'mcp-conform:probe';
/** The revisions with an initialize handshake, oldest first (detect.ts asks for each). */
export const HANDSHAKE_VERSIONS: readonly string[] = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
/** The newest revision with an initialize handshake; also the schema used before negotiation. */
export const NEWEST_HANDSHAKE_VERSION = '2025-11-25';
export const RUNNER_VERSION = '0.1.0';
/**
 * The clientInfo of every initialize the runner sends (the detection probes and the handshake it
 * plays), fixed whatever RUNNER_VERSION says: a fixture that opens with a probe's very initialize
 * continues the probe's process (process-sharing.ts), and the initialize-VERSION fixtures spell
 * this value out, so a new runner version must not change it. Which runner ran, `mcp-conform
 * version` and the JSON report say.
 */
export const RUNNER_CLIENT_INFO = { name: 'mcp-conform', version: '0.1.0' } as const;
/**
 * Revisions without a handshake (https://modelcontextprotocol.io/specification/2026-07-28/basic): each request carries its version
 * and client capabilities in `_meta`, so the fixture's requests spell them out and the runner
 * sends nothing first.
 */
export const STATELESS_VERSIONS: readonly string[] = ['2026-07-28'];

export const HANDSHAKE_RULE = [
  'https://modelcontextprotocol.io/specification/2025-06-18/basic/lifecycle: the server MUST answer initialize with protocolVersion, capabilities and serverInfo {name, version} (rule 2.2)',
];

/** The runner's initialize, the same in the detection probes (detect.ts) and the handshake it plays. */
export function initializeRequest(id: string, version: string): JsonObject {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: version, capabilities: {}, clientInfo: { ...RUNNER_CLIENT_INFO } },
  };
}

export function handshakeSteps(mode: ProtocolMode): Step[] {
  if (mode.kind === 'none' || mode.kind === 'stateless') return [];
  const version = mode.kind === 'handshake' ? mode.version : NEWEST_HANDSHAKE_VERSION;
  const initialize = initializeRequest(HANDSHAKE_REQUEST_ID, version);
  const answer: JsonValue = {
    jsonrpc: '2.0',
    id: HANDSHAKE_REQUEST_ID,
    result: {
      protocolVersion: '<<string>>',
      capabilities: '<<object>>',
      serverInfo: { name: '<<string>>', version: '<<string>>' },
    },
  };
  return [
    { kind: 'send-json', line: 0, messages: [{ value: initialize, line: 0 }] },
    { kind: 'expect', line: 0, optional: false, messages: [{ value: answer, line: 0 }], sectionIndex: -1 },
    { kind: 'send-json', line: 0, messages: [{ value: { jsonrpc: '2.0', method: 'notifications/initialized' }, line: 0 }] },
  ];
}

/** A fixture for one revision does not apply to a server that negotiates another (https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle). */
export function handshakeRequirements(mode: ProtocolMode): Requirement[] {
  if (mode.kind !== 'handshake') return [];
  return [
    {
      text: `protocolVersion = ${mode.version}`,
      alternatives: [{ path: ['protocolVersion'], condition: { kind: 'equals', value: mode.version } }],
    },
  ];
}
