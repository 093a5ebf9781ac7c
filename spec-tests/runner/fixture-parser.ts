// Turns fixture text (FORMAT.md) into a Fixture: a prose header with `key: value` lines, then
// txtar-style `-- name --` sections that become the steps the runner plays in order.
import { STATELESS_VERSIONS } from './handshake.js';
import type {
  ExpectedMessage,
  Fixture,
  FixtureHeader,
  Level,
  ProtocolMode,
  Requirement,
  RequirementAlternative,
  Section,
  Step,
} from './fixture-types.js';
import { LEVELS } from './fixture-types.js';
import type { JsonValue } from './json-types.js';
import { isJsonObject } from './json-types.js';
import { FixtureSyntaxError, parseJsonSequence } from './json-sequence.js';
import { parseRawChunks } from './raw-chunks.js';
import { checkMarkers } from './matchers.js';
import { parseHttpRequest, parseHttpResponse } from './http-exchange.js';

const SECTION_MARKER = /^-- (.+) --$/;
const HEADER_KEY = /^(spec|covers|protocol|requires|timeout|level|transport|server-args|process):\s*(.*)$/;
const VERSION = /^\d{4}-\d{2}-\d{2}$/;
const DURATION = /^(\d+)\s*(ms)?$/;
const DEFAULT_EXIT_WITHIN_MS = 2000;

export function parseFixture(text: string, path: string, name: string): Fixture {
  const { headerText, sections } = splitSections(text);
  const header = parseHeader(headerText);
  const steps = sections.map((section, index) => parseStep(section, index));
  checkStepOrder(steps);
  return { path, name, headerText, header, sections, steps };
}

/** Header and section bodies keep their line endings, so that text can be written back unchanged. */
export function splitSections(text: string): { headerText: string; sections: Section[] } {
  const lines = text.split(/(?<=\n)/);
  let headerText = '';
  const sections: Section[] = [];
  lines.forEach((lineText, index) => {
    const marker = SECTION_MARKER.exec(lineText.trimEnd());
    const current = sections[sections.length - 1];
    if (marker) sections.push({ name: (marker[1] ?? '').trim(), line: index + 1, body: '' });
    else if (current) current.body += lineText;
    else headerText += lineText;
  });
  return { headerText, sections };
}

type HeaderDraft = Omit<FixtureHeader, 'prose' | 'protocol'> & { protocol: ProtocolMode | undefined };

function parseHeader(headerText: string): FixtureHeader {
  const prose: string[] = [];
  const header: HeaderDraft = {
    level: 'must',
    spec: [],
    covers: [],
    protocol: undefined,
    requires: [],
    timeoutMs: undefined,
    stdioOnly: undefined,
    serverArgs: undefined,
    freshProcess: undefined,
  };
  headerText.split('\n').forEach((text, index) => {
    const key = HEADER_KEY.exec(text);
    if (key) applyHeaderKey(header, key[1] ?? '', (key[2] ?? '').trim(), index + 1);
    else prose.push(text);
  });
  if (!header.protocol) throw new FixtureSyntaxError('the header needs a `protocol:` line (a version, any or none)', 1);
  return { ...header, protocol: header.protocol, prose: prose.join('\n').trim() };
}

function applyHeaderKey(header: HeaderDraft, key: string, value: string, line: number): void {
  if (key === 'spec') header.spec.push(value);
  if (key === 'covers') header.covers.push(...splitList(value));
  if (key === 'protocol') header.protocol = parseProtocol(value, line);
  if (key === 'requires') header.requires.push(parseRequirement(value, line));
  if (key === 'timeout') header.timeoutMs = parseDuration(value, line);
  if (key === 'level') header.level = parseLevel(value, line);
  if (key === 'transport') header.stdioOnly = parseStdioOnly(value, line);
  if (key === 'server-args') header.serverArgs = parseServerArgs(value, line);
  if (key === 'process') header.freshProcess = parseFreshProcess(value, line);
}

/** `fresh: REASON`: the one thing a fixture can ask of the process, and why. */
function parseFreshProcess(value: string, line: number): string {
  const reason = /^fresh:\s*(\S.*)$/.exec(value)?.[1];
  if (reason === undefined) throw new FixtureSyntaxError(`process: expected "fresh: REASON", got "${value}"`, line);
  return reason;
}

/** Options for the server's command line; nothing that starts another command. */
function parseServerArgs(value: string, line: number): string {
  if (!/^--?[A-Za-z0-9][-A-Za-z0-9_=,. ]*$/.test(value))
    throw new FixtureSyntaxError(`server-args: expected options such as "--read-only", got "${value}"`, line);
  return value;
}

/** `stdio: REASON`, the only transport a fixture can be limited to, and why. */
function parseStdioOnly(value: string, line: number): string {
  const reason = /^stdio:\s*(\S.*)$/.exec(value)?.[1];
  if (reason === undefined) throw new FixtureSyntaxError(`transport: expected "stdio: REASON", got "${value}"`, line);
  return reason;
}

function parseLevel(value: string, line: number): Level {
  const level = LEVELS.find((name) => name === value);
  if (level === undefined) throw new FixtureSyntaxError(`level must be one of ${LEVELS.join(', ')}, got "${value}"`, line);
  return level;
}

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function parseProtocol(value: string, line: number): ProtocolMode {
  if (value === 'any') return { kind: 'any' };
  if (value === 'none') return { kind: 'none' };
  if (STATELESS_VERSIONS.includes(value)) return { kind: 'stateless', version: value };
  if (VERSION.test(value)) return { kind: 'handshake', version: value };
  throw new FixtureSyntaxError(`protocol must be YYYY-MM-DD, any or none, got "${value}"`, line);
}

function parseRequirement(text: string, line: number): Requirement {
  return { text, alternatives: text.split('|').map((alternative) => parseAlternative(alternative.trim(), line)) };
}

function parseAlternative(text: string, line: number): RequirementAlternative {
  const equals = /^([\w./-]+)\s*=\s*(.+)$/.exec(text);
  if (equals) return { path: splitPath(equals[1] ?? ''), condition: { kind: 'equals', value: parseLooseJson(equals[2] ?? '') } };
  const absent = /^!\s*([\w./-]+)$/.exec(text);
  if (absent) return { path: splitPath(absent[1] ?? ''), condition: { kind: 'absent' } };
  if (/^[\w./-]+$/.test(text)) return { path: splitPath(text), condition: { kind: 'present' } };
  throw new FixtureSyntaxError(`requires: expected PATH, !PATH or PATH = VALUE (alternatives joined by |), got "${text}"`, line);
}

function splitPath(path: string): string[] {
  return path.split('.');
}

/** `requires: protocolVersion = 2025-06-18` reads better without quotes; JSON is accepted too. */
function parseLooseJson(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text.trim();
  }
}

function parseDuration(value: string, line: number): number {
  const match = DURATION.exec(value.trim());
  if (!match) throw new FixtureSyntaxError(`expected a duration like 500ms, got "${value}"`, line);
  return Number(match[1]);
}

function parseStep(section: Section, sectionIndex: number): Step {
  const bodyLine = section.line + 1;
  const words = section.name.split(/\s+/);
  const kind = words[0];
  if (section.name === 'client')
    return { kind: 'send-json', line: section.line, messages: parseJsonSequence(section.body, bodyLine) };
  if (section.name === 'client raw')
    return { kind: 'send-raw', line: section.line, chunks: parseRawChunks(section.body, bodyLine) };
  if (section.name === 'server' || section.name === 'server may') {
    const messages = parseExpectedMessages(section.body, bodyLine);
    return { kind: 'expect', line: section.line, optional: section.name === 'server may', messages, sectionIndex };
  }
  if (kind === 'silence' && words.length === 2)
    return { kind: 'silence', line: section.line, ms: parseDuration(words[1] ?? '', section.line) };
  if (section.name === 'http request')
    return { kind: 'http-request', line: section.line, request: parseHttpRequest(section.body, bodyLine) };
  if (section.name === 'http response')
    return { kind: 'http-response', line: section.line, response: parseHttpResponse(section.body, bodyLine) };
  if (section.name === 'eof') return { kind: 'close-stdin', line: section.line };
  if (section.name === 'exit') return parseExitStep(section);
  throw new FixtureSyntaxError(`unknown section "-- ${section.name} --"`, section.line);
}

function parseExpectedMessages(body: string, firstLine: number): ExpectedMessage[] {
  const messages = parseJsonSequence(body, firstLine);
  for (const message of messages) {
    if (!isExpectableMessage(message.value)) {
      throw new FixtureSyntaxError(
        'a server expectation must be an object with `id` or `method`, or a non-empty array of them',
        message.line,
      );
    }
    try {
      checkMarkers(message.value);
    } catch (error) {
      throw new FixtureSyntaxError((error as Error).message, message.line);
    }
  }
  return messages;
}

function isExpectableMessage(value: JsonValue): boolean {
  if (Array.isArray(value)) return value.length > 0 && value.every((item) => isJsonObject(item));
  return isJsonObject(value) && ('id' in value || 'method' in value);
}

function parseExitStep(section: Section): Step {
  let code: number | undefined;
  let withinMs = DEFAULT_EXIT_WITHIN_MS;
  section.body.split('\n').forEach((text, index) => {
    const line = section.line + 1 + index;
    const entry = /^(code|within):\s*(.+)$/.exec(text.trim());
    if (text.trim() === '' || text.trim().startsWith('#')) return;
    if (!entry) throw new FixtureSyntaxError(`exit section: expected "code: N" or "within: Nms", got "${text}"`, line);
    if (entry[1] === 'code') code = parseExitCode(entry[2] ?? '', line);
    else withinMs = parseDuration(entry[2] ?? '', line);
  });
  return { kind: 'exit', line: section.line, code, withinMs };
}

function parseExitCode(value: string, line: number): number {
  if (!/^\d+$/.test(value.trim())) throw new FixtureSyntaxError(`exit code must be a number, got "${value}"`, line);
  return Number(value);
}

/**
 * Writing to stdin after it was closed is impossible, so such a fixture is a mistake; so is an
 * `http response` that follows no `http request`.
 */
function checkStepOrder(steps: Step[]): void {
  let closedAt: number | undefined;
  for (const [index, step] of steps.entries()) {
    if (step.kind === 'http-response' && steps[index - 1]?.kind !== 'http-request')
      throw new FixtureSyntaxError('"-- http response --" must follow an "-- http request --" section', step.line);
    if (step.kind === 'close-stdin') closedAt = step.line;
    if ((step.kind === 'send-json' || step.kind === 'send-raw') && closedAt !== undefined) {
      throw new FixtureSyntaxError(`cannot send after "-- eof --" (line ${closedAt})`, step.line);
    }
  }
}
