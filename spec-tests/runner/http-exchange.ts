// The HTTP layer of a fixture (FORMAT.md "HTTP exchanges"): a `-- http request --` section spells
// one HTTP request to the MCP endpoint exactly (method, headers, body), and the
// `-- http response --` section after it says what the transport page allows in return (status,
// Content-Type, headers, an empty body, a JSON-RPC error body). These check the rules of the
// Streamable HTTP transport itself (Origin 403, 202 Accepted, session ids, MCP-Protocol-Version),
// which no JSON-RPC transcript can express.
import type { JsonValue } from './json-types.js';
import { isJsonObject } from './json-types.js';
import { FixtureSyntaxError, parseJsonSequence } from './json-sequence.js';
import { checkMarkers, matchValue } from './matchers.js';
import { excerpt } from './http-answers.js';

export interface HttpRequestSpec {
  method: 'POST' | 'GET' | 'DELETE';
  /** As written, placeholders and all; an empty value leaves out a header the runner would add. */
  headers: [name: string, value: string][];
  body: string;
  /** `@needs-session`: the request means nothing unless the server issued a session. */
  needsSession: boolean;
  /** `@needs-event-id`: the request means nothing unless the server put an SSE event id on an answer (it offers resumption). */
  needsEventId: boolean;
}

type StatusPattern = { exact: number } | { hundreds: number };

/** One outcome the transport allows; a response section lists one or more, joined by `or` lines. */
export interface HttpOutcomeSpec {
  status: StatusPattern[];
  contentTypes: string[];
  emptyBody: boolean;
  headers: { name: string; pattern: RegExp | undefined; mayBeAbsent: boolean }[];
  /** Compared (FORMAT.md matching) with the JSON body, when the outcome names one. */
  json: JsonValue | undefined;
  /** `events: no response`: the event stream (read for a while, see http-connection.ts) carries no JSON-RPC response. */
  noResponseEvents: boolean;
  /** The lines as written, for messages. */
  text: string;
}

export interface HttpResponseSpec {
  outcomes: HttpOutcomeSpec[];
  /** `otherwise skip: REASON`: an answer outside the outcomes is one the spec allows too, after which the fixture has nothing to check. */
  otherwiseSkip: string | undefined;
}

/** What came back, as the runner read it (an SSE body is not read: its stream may stay open). */
export interface HttpOutcome {
  request: string;
  status: number;
  contentType: string;
  headers: Headers;
  body: string | undefined;
  /** The messages of an event stream answering a resumption (a GET with Last-Event-ID), read for a while. */
  events?: JsonValue[];
}

/** The placeholders a request may use, filled from the fixture's session (http-connection.ts). */
export const SESSION_ID = '<<session-id>>';
export const PROTOCOL_VERSION = '<<protocol-version>>';
/** The id of the last SSE event the server sent on a POST's stream in this session. */
export const LAST_EVENT_ID = '<<last-event-id>>';

const METHODS = ['POST', 'GET', 'DELETE'] as const;
const HEADER_LINE = /^([A-Za-z0-9-]+):\s?(.*)$/;

export function parseHttpRequest(body: string, firstLine: number): HttpRequestSpec {
  const lines = body.split('\n').map((text) => text.replace(/\r$/, ''));
  let index = lines.findIndex((text) => text.trim() !== '' && !text.startsWith('#'));
  const method = METHODS.find((name) => name === lines[index]?.trim());
  if (method === undefined)
    throw new FixtureSyntaxError(
      `http request: the first line must be ${METHODS.join(', ')} or ${METHODS.at(-1)}`,
      firstLine + Math.max(index, 0),
    );
  const request: HttpRequestSpec = { method, headers: [], body: '', needsSession: false, needsEventId: false };
  for (index += 1; index < lines.length && (lines[index] ?? '').trim() !== ''; index += 1) {
    const text = lines[index] ?? '';
    if (text.startsWith('#')) continue;
    if (text.trim() === '@needs-session') {
      request.needsSession = true;
      continue;
    }
    if (text.trim() === '@needs-event-id') {
      request.needsEventId = true;
      continue;
    }
    const header = HEADER_LINE.exec(text);
    if (!header) throw new FixtureSyntaxError(`http request: expected "Name: value", got "${text}"`, firstLine + index);
    request.headers.push([header[1] ?? '', (header[2] ?? '').trim()]);
  }
  request.body = lines
    .slice(index + 1)
    .filter((text) => !text.startsWith('#'))
    .join('\n')
    .trim();
  return request;
}

export function parseHttpResponse(body: string, firstLine: number): HttpResponseSpec {
  const spec: HttpResponseSpec = { outcomes: [], otherwiseSkip: undefined };
  let outcome = emptyOutcome();
  body.split('\n').forEach((raw, offset) => {
    const text = raw.trim();
    const line = firstLine + offset;
    if (text === '' || text.startsWith('#')) return;
    if (text === 'or') {
      spec.outcomes.push(outcome);
      outcome = emptyOutcome();
      return;
    }
    const skip = /^otherwise skip:\s*(\S.*)$/.exec(text);
    if (skip) return void (spec.otherwiseSkip = skip[1]);
    readOutcomeLine(outcome, text, line);
  });
  spec.outcomes.push(outcome);
  if (spec.outcomes.some((item) => item.text === ''))
    throw new FixtureSyntaxError('http response: each outcome needs at least one line (status: 403)', firstLine);
  return spec;
}

function emptyOutcome(): HttpOutcomeSpec {
  return { status: [], contentTypes: [], emptyBody: false, headers: [], json: undefined, noResponseEvents: false, text: '' };
}

function readOutcomeLine(outcome: HttpOutcomeSpec, text: string, line: number): void {
  outcome.text = outcome.text === '' ? text : `${outcome.text}, ${text}`;
  const [key = '', ...rest] = text.split(':');
  const value = rest.join(':').trim();
  if (key === 'status') outcome.status = alternatives(value).map((item) => parseStatus(item, line));
  else if (key === 'content-type') outcome.contentTypes = alternatives(value).map((item) => item.toLowerCase());
  else if (text === 'body: empty') outcome.emptyBody = true;
  else if (text === 'events: no response') outcome.noResponseEvents = true;
  else if (key === 'json') outcome.json = parseJsonBody(value, line);
  else if (key.startsWith('header '))
    outcome.headers.push(parseHeaderExpectation(key.slice('header '.length).trim(), value, line));
  else
    throw new FixtureSyntaxError(
      `http response: expected status:, content-type:, body: empty, events: no response, json:, header NAME:, "otherwise skip:" or "or", got "${text}"`,
      line,
    );
}

const alternatives = (value: string): string[] => value.split('|').map((item) => item.trim());

function parseStatus(text: string, line: number): StatusPattern {
  if (/^[1-5]\d\d$/.test(text)) return { exact: Number(text) };
  if (/^[1-5]xx$/.test(text)) return { hundreds: Number(text[0]) };
  throw new FixtureSyntaxError(`http response: a status is 403 or 4xx, got "${text}"`, line);
}

function parseHeaderExpectation(name: string, value: string, line: number): HttpOutcomeSpec['headers'][number] {
  const choices = alternatives(value);
  const mayBeAbsent = choices.includes('absent');
  const regex = choices.find((choice) => choice !== 'absent');
  if (regex === undefined) return { name, pattern: undefined, mayBeAbsent };
  const body = /^\/(.*)\/$/.exec(regex)?.[1];
  if (body === undefined)
    throw new FixtureSyntaxError(`http response: header ${name}: expected /REGEX/ or absent, got "${value}"`, line);
  return { name, pattern: new RegExp(body), mayBeAbsent };
}

function parseJsonBody(text: string, line: number): JsonValue {
  const [message] = parseJsonSequence(text, line);
  if (message === undefined) throw new FixtureSyntaxError('http response: json: needs a JSON value', line);
  try {
    checkMarkers(message.value);
  } catch (error) {
    throw new FixtureSyntaxError((error as Error).message, line);
  }
  return message.value;
}

export type HttpVerdict =
  { kind: 'pass' } | { kind: 'skip'; reason: string } | { kind: 'fail'; summary: string; behaviour: string };

/** Whether what came back is one of the outcomes the response section allows. */
export function judgeHttpOutcome(outcome: HttpOutcome, spec: HttpResponseSpec): HttpVerdict {
  const problems = spec.outcomes.map((item) => outcomeProblem(outcome, item));
  if (problems.some((problem) => problem === undefined)) return { kind: 'pass' };
  if (spec.otherwiseSkip !== undefined)
    return { kind: 'skip', reason: `${outcome.request} answered HTTP ${outcome.status}: ${spec.otherwiseSkip}` };
  const allowed = spec.outcomes.map((item) => item.text).join('; or ');
  return {
    kind: 'fail',
    summary: `${outcome.request}: the server answered ${describeOutcome(outcome)}, expected ${allowed} (${problems[0] ?? ''})`,
    behaviour: `HTTP ${outcome.status} where the transport allows ${allowed}`,
  };
}

function outcomeProblem(outcome: HttpOutcome, spec: HttpOutcomeSpec): string | undefined {
  if (spec.status.length > 0 && !spec.status.some((pattern) => statusMatches(pattern, outcome.status)))
    return `status ${outcome.status}`;
  if (spec.contentTypes.length > 0 && !spec.contentTypes.includes(outcome.contentType))
    return `Content-Type ${outcome.contentType || '(none)'}`;
  if (spec.emptyBody && outcome.body !== '') return `a body: ${excerpt(outcome.body ?? 'an event stream')}`;
  for (const header of spec.headers) {
    const value = outcome.headers.get(header.name);
    if (value === null && !header.mayBeAbsent) return `no ${header.name} header`;
    if (value !== null && (header.pattern === undefined || !header.pattern.test(value)))
      return `${header.name}: ${JSON.stringify(value)}`;
  }
  if (spec.json !== undefined) return jsonProblem(outcome.body, spec.json);
  if (spec.noResponseEvents) return replayedResponse(outcome.events ?? []);
  return undefined;
}

/** A response among the events of a resumed stream: one the client already had, sent again. */
function replayedResponse(events: JsonValue[]): string | undefined {
  const response = events.find((event) => Array.isArray(event) || (isJsonObject(event) && !('method' in event) && 'id' in event));
  return response === undefined ? undefined : `a response on the resumed stream: ${excerpt(JSON.stringify(response))}`;
}

function jsonProblem(body: string | undefined, expected: JsonValue): string | undefined {
  let actual: JsonValue;
  try {
    actual = JSON.parse(body ?? '') as JsonValue;
  } catch {
    return `a body that is not JSON: ${(body ?? 'an event stream').slice(0, 120) || '(empty)'}`;
  }
  const mismatch = matchValue(expected, actual);
  return mismatch === undefined
    ? undefined
    : `the body at ${mismatch.path}: ${mismatch.expected} expected, ${mismatch.actual} sent`;
}

function statusMatches(pattern: StatusPattern, status: number): boolean {
  return 'exact' in pattern ? pattern.exact === status : Math.floor(status / 100) === pattern.hundreds;
}

export function describeOutcome(outcome: HttpOutcome): string {
  const body =
    outcome.body === undefined ? 'an event stream' : outcome.body === '' ? 'no body' : `the body ${excerpt(outcome.body)}`;
  return `HTTP ${outcome.status}${outcome.contentType === '' ? '' : ` ${outcome.contentType}`} with ${body}`;
}
