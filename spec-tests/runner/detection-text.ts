// The header of the text report: what the server said about itself when detect.ts asked.
import type { RunInfo } from './reporter.js';
import type { JsonObject } from './json-types.js';
import { isJsonObject } from './json-types.js';
import { isDeclared } from './requirements-check.js';

const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';

export function describeDetection({ detection, serverCommand, detectionMs }: RunInfo): string {
  const newest = [...detection.handshake].reverse().find((probe) => probe.result !== undefined)?.result;
  // 2026-07-28 has no initialize: server/discover carries serverInfo in its _meta.
  const discoverMeta = detection.discover?._meta;
  const info = newest?.serverInfo ?? (isJsonObject(discoverMeta) ? discoverMeta[SERVER_INFO_KEY] : undefined);
  const name = isJsonObject(info) ? `${String(info.name)} ${String(info.version)}` : '(no serverInfo)';
  const lines = [
    `server:     ${name}  (${serverCommand}; probed in ${detectionMs} ms)`,
    `handshake:  ${detection.offeredHandshake.length > 0 ? detection.offeredHandshake.join(', ') : 'none offered'}${handshakeNotes(detection)}`,
    `2026-07-28: ${detection.offeredStateless.length > 0 ? `offered (server/discover lists ${detection.offeredStateless.join(', ')})` : `not offered (server/discover: ${detection.discoverProblem ?? 'does not list it'})`}`,
  ];
  const capabilities = newest?.capabilities ?? detection.discover?.capabilities;
  if (isJsonObject(capabilities)) lines.push(`capabilities: ${describeCapabilities(capabilities)}`);
  const instructions = newest?.instructions ?? detection.discover?.instructions;
  if (typeof instructions === 'string') lines.push(`instructions: ${instructions.length} characters`);
  return `${lines.join('\n')}\n\n`;
}

/** Revisions asked for and answered with another: "(2025-06-18 -> 2025-11-25)". */
function handshakeNotes(detection: RunInfo['detection']): string {
  const notes = detection.handshake
    .filter((probe) => probe.negotiated !== undefined && probe.negotiated !== probe.requested)
    .map((probe) => `${probe.requested} -> ${probe.negotiated}`);
  return notes.length > 0 ? `  (asked for and answered with: ${notes.join(', ')})` : '';
}

function describeCapabilities(capabilities: JsonObject): string {
  // A capability set to false (or null) is not declared (requirements-check.ts isDeclared).
  const declared = Object.entries(capabilities).filter(([, value]) => isDeclared(value));
  const names = declared.map(([name, value]) => {
    const flags = isJsonObject(value) ? Object.keys(value).filter((key) => value[key] === true) : [];
    return flags.length > 0 ? `${name} {${flags.join(', ')}}` : name;
  });
  return names.length > 0 ? names.join(', ') : '(none)';
}
