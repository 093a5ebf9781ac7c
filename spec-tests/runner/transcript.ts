// Collects what a recorded session carried in each direction and writes it as a fixture:
// consecutive client lines become a client section (raw where the bytes are not plain JSON),
// consecutive server lines a server section, and the ending an eof/exit section.
import type { Section } from './fixture-types.js';
import type { JsonValue } from './json-types.js';
import { formatJson } from './json-types.js';
import { serializeFixture } from './fixture-writer.js';
import { escapeRaw } from './raw-escape.js';
import { maskVolatileValues } from './volatile-values.js';

interface Entry {
  from: 'client' | 'server' | 'eof';
  bytes: Buffer;
  terminated: boolean;
}

export class Transcript {
  private readonly entries: Entry[] = [];

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
      'protocol: none',
      '',
    ].join('\n');
    const exit = { name: 'exit', body: exitCode === null ? '' : `code: ${exitCode}\n` };
    const sections = [...this.groupSections(), exit].map((section, index) => ({ ...section, line: index + 1 }));
    return serializeFixture(`${header}\n`, sections);
  }

  private groupSections(): Omit<Section, 'line'>[] {
    const sections: { name: string; lines: string[] }[] = [];
    for (const entry of this.entries) {
      const name = sectionName(entry);
      const last = sections[sections.length - 1];
      const lines = entry.from === 'eof' ? [] : [entryText(entry)];
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

function entryText(entry: Entry): string {
  if (entry.from === 'client') {
    const value = plainJson(entry);
    return value === undefined
      ? escapeRaw(entry.terminated ? Buffer.concat([entry.bytes, Buffer.from('\n')]) : entry.bytes)
      : formatJson(value);
  }
  const value = parseJson(entry.bytes);
  return value === undefined
    ? `# the server wrote a line that is not JSON: ${escapeRaw(entry.bytes)}`
    : formatJson(maskVolatileValues(value));
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
