// Collects what a recorded session carried in each direction and writes it as a fixture:
// consecutive client lines become a client section (raw where the bytes are not plain JSON),
// consecutive server lines a server section, and the ending an eof/exit section. Values that
// change from run to run, or were asked to be redacted, are replaced first (volatile-values.ts).
import type { Section } from './fixture-types.js';
import type { JsonObject, JsonValue } from './json-types.js';
import { formatJson, isJsonObject } from './json-types.js';
import { serializeFixture } from './fixture-writer.js';
import { escapeRaw } from './raw-escape.js';
import { STATELESS_VERSIONS } from './handshake.js';
import { redactedStrings, scrubBytes } from './redaction.js';
import { maskServerMessage, prepareClientMessage, type RecordingFacts } from './volatile-values.js';

interface Entry {
  from: 'client' | 'server' | 'eof';
  bytes: Buffer;
  terminated: boolean;
}

const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';

export class Transcript {
  private readonly entries: Entry[] = [];

  /** `redactedKeys`: every value under a key of that name is kept out of the fixture (--redact). */
  constructor(private readonly redactedKeys: ReadonlySet<string> = new Set()) {}

  add(from: 'client' | 'server', bytes: Buffer, terminated = true): void {
    this.entries.push({ from, bytes, terminated });
  }

  /** The host closed the server's stdin; what the server says afterwards comes after `-- eof --`. */
  closeStdin(): void {
    this.entries.push({ from: 'eof', bytes: Buffer.alloc(0), terminated: true });
  }

  /** `exitCode` is null when the server was killed by a signal: then any exit is accepted. */
  toFixture(command: string, recordedAt: Date, exitCode: number | null): string {
    const header = [
      `Recorded by mcp-conform record on ${recordedAt.toISOString()} from: ${command}`,
      'Say here what this transcript shows, then add `spec:` (page and rule) and `covers:` lines.',
      `protocol: ${recordedProtocol(this.entries)}`,
      '',
    ].join('\n');
    const exit = { name: 'exit', body: exitCode === null ? '' : `code: ${exitCode}\n` };
    const sections = [...this.groupSections(), exit].map((section, index) => ({ ...section, line: index + 1 }));
    return serializeFixture(`${header}\n`, sections);
  }

  private groupSections(): Omit<Section, 'line'>[] {
    const facts = gatherFacts(this.entries, this.redactedKeys);
    const sections: { name: string; lines: string[] }[] = [];
    for (const entry of this.entries) {
      const name = sectionName(entry);
      const last = sections[sections.length - 1];
      const lines = entry.from === 'eof' ? [] : [entryText(entry, facts)];
      if (last && last.name === name && name !== 'eof') last.lines.push(...lines);
      else sections.push({ name, lines });
    }
    return sections.map((section) => ({ name: section.name, body: section.lines.map((line) => `${line}\n`).join('') }));
  }
}

function sectionName(entry: Entry): string {
  if (entry.from !== 'client') return entry.from;
  return plainJson(entry) === undefined ? 'client raw' : 'client';
}

function entryText(entry: Entry, facts: RecordingFacts): string {
  const scrubbed = scrubBytes(entry.bytes, facts.redactedValues);
  if (entry.from === 'client') {
    const value = plainJson(entry);
    return value === undefined
      ? escapeRaw(entry.terminated ? Buffer.concat([scrubbed, Buffer.from('\n')]) : scrubbed)
      : formatJson(prepareClientMessage(value, facts));
  }
  const value = parseJson(entry.bytes);
  return value === undefined
    ? `# the server wrote a line that is not JSON: ${escapeRaw(scrubbed)}`
    : formatJson(maskServerMessage(value, facts));
}

/**
 * What the rules in volatile-values.ts need to know about the whole session: which ids opened
 * listen streams, which server-issued requestStates the client sent back later (a raw client
 * line cannot echo on replay, so only plain JSON lines count), and the redacted values.
 */
function gatherFacts(entries: readonly Entry[], redactedKeys: ReadonlySet<string>): RecordingFacts {
  const listenIds = new Set<string>();
  const issued = new Set<string>();
  const echoed = new Map<string, string>();
  const messages: JsonValue[] = [];
  for (const entry of entries) {
    const value = entry.from === 'server' ? parseJson(entry.bytes) : entry.from === 'client' ? plainJson(entry) : undefined;
    if (value === undefined) continue;
    messages.push(value);
    if (entry.from === 'server') stringsUnder(value, 'requestState').forEach((state) => issued.add(state));
    if (entry.from !== 'client') continue;
    requests(value)
      .filter((request) => request.method === 'subscriptions/listen' && request.id !== undefined)
      .forEach((request) => listenIds.add(JSON.stringify(request.id)));
    for (const text of stringsUnder(value, undefined))
      if (issued.has(text) && !echoed.has(text)) echoed.set(text, `requestState${echoed.size + 1}`);
  }
  return { listenIds, echoed, redactedKeys, redactedValues: redactedStrings(messages, redactedKeys) };
}

/** The strings under `key` anywhere in a value, or all its strings when `key` is undefined. */
function stringsUnder(value: JsonValue, key: string | undefined, inside = key === undefined): string[] {
  if (typeof value === 'string') return inside ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((item) => stringsUnder(item, key, inside));
  if (!isJsonObject(value)) return [];
  return Object.entries(value).flatMap(([name, item]) => stringsUnder(item, key, inside || name === key));
}

function requests(value: JsonValue): JsonObject[] {
  return (Array.isArray(value) ? value : [value]).filter(isJsonObject);
}

/**
 * A session that never sends initialize and whose requests name a stateless revision in `_meta`
 * replays as that revision (https://modelcontextprotocol.io/specification/2026-07-28/basic):
 * its schema is used and no handshake is played. Anything else drives its own lifecycle: `none`.
 */
function recordedProtocol(entries: readonly Entry[]): string {
  const sent = entries.flatMap((entry) => (entry.from === 'client' ? requests(plainJson(entry) ?? null) : []));
  if (sent.some((message) => message.method === 'initialize')) return 'none';
  for (const message of sent) {
    const meta = isJsonObject(message.params) ? message.params._meta : undefined;
    const version = isJsonObject(meta) ? meta[VERSION_KEY] : undefined;
    if (typeof version === 'string' && STATELESS_VERSIONS.includes(version)) return version;
  }
  return 'none';
}

/** A client line replays as JSON only if re-encoding it loses nothing that framing cares about. */
function plainJson(entry: Entry): JsonValue | undefined {
  if (!entry.terminated || entry.bytes.includes(0x0d) || entry.bytes[0] === 0xef) return undefined;
  return parseJson(entry.bytes);
}

function parseJson(bytes: Buffer): JsonValue | undefined {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as JsonValue;
  } catch {
    return undefined;
  }
}
