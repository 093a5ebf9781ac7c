// Recorded messages hold values that differ on every run, and values the user asked to keep out
// of the file (--redact). Before a recording is written they are replaced, so that it replays as
// a stable fixture; everything else is kept as recorded. FORMAT.md ("Recording") lists the rules.
import type { JsonValue } from './json-types.js';
import { isJsonObject } from './json-types.js';
import { isMarkerText } from './matchers.js';
import { REDACTED, escapeRegex, scrubText } from './redaction.js';

/** What the whole recording says about its values, gathered before any line is written. */
export interface RecordingFacts {
  /** JSON texts of the ids of the client's subscriptions/listen requests. */
  listenIds: ReadonlySet<string>;
  /** Server-issued requestStates that a later client line sends back, each with its capture name. */
  echoed: ReadonlyMap<string, string>;
  redactedKeys: ReadonlySet<string>;
  /** The values found under the redacted keys, to hunt down where other strings quote them. */
  redactedValues: readonly string[];
}

// RFC 3339 date-time, the form the spec asks for (rule A-23): a whole string, or quoted inside
// one (a tool's text content is often its structured result as JSON text).
const DATE_TIME = String.raw`\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})`;
const TIMESTAMP = new RegExp(`^${DATE_TIME}$`);
// https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions: the value
// is the id of the listen request, which the client chose; any other value is the server's own.
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
// The initialize result's serverInfo, and the 2026-07-28 result `_meta` that names the server.
const SERVER_INFO_KEYS: ReadonlySet<string> = new Set(['serverInfo', 'io.modelcontextprotocol/serverInfo']);

export function maskServerMessage(message: JsonValue, facts: RecordingFacts): JsonValue {
  return maskServerValue(message, undefined, undefined, facts);
}

function maskServerValue(
  value: JsonValue,
  key: string | undefined,
  parentKey: string | undefined,
  facts: RecordingFacts,
): JsonValue {
  if (key !== undefined && facts.redactedKeys.has(key)) return '<<any>>';
  if (key === SUBSCRIPTION_ID) return facts.listenIds.has(JSON.stringify(value)) ? value : typeMatcher(value);
  if (typeof value === 'string') return maskServerString(value, key, parentKey, facts);
  if (Array.isArray(value)) return value.map((item) => maskServerValue(item, undefined, undefined, facts));
  if (isJsonObject(value))
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, maskServerValue(item, name, key, facts)]));
  return value;
}

function maskServerString(value: string, key: string | undefined, parentKey: string | undefined, facts: RecordingFacts): string {
  if (key === 'requestState') {
    const name = facts.echoed.get(value);
    return name === undefined ? '<<string>>' : `<<capture:${name}>>`;
  }
  // A release changes the version, not the server: a fixture outlives both.
  if (key === 'version' && parentKey !== undefined && SERVER_INFO_KEYS.has(parentKey)) return '<<string>>';
  if (TIMESTAMP.test(value)) return '<<timestamp>>';
  const pattern = patternForQuotedValues(value, facts.redactedValues);
  if (pattern !== undefined) return pattern;
  // A recorded string that looks like a matcher is meant as itself.
  return isMarkerText(value) ? `<<literal:${value}>>` : value;
}

/**
 * A string that quotes timestamps or redacted values becomes a regex matcher with a hole for
 * each: any date-time for a timestamp, anything for a redacted value (on replay the server may
 * quote the client's `<<redacted>>` or its own real value). Undefined when it quotes neither.
 */
function patternForQuotedValues(value: string, redactedValues: readonly string[]): string | undefined {
  const holes = new RegExp([...redactedValues.map(escapeRegex), DATE_TIME].join('|'), 'g');
  let pattern = '';
  let from = 0;
  for (const hole of value.matchAll(holes)) {
    const at = hole.index ?? 0;
    pattern += escapeRegex(value.slice(from, at)) + (redactedValues.includes(hole[0]) ? '[\\s\\S]*' : DATE_TIME);
    from = at + hole[0].length;
  }
  return from === 0 ? undefined : `<<regex:^${pattern}${escapeRegex(value.slice(from))}$>>`;
}

function typeMatcher(value: JsonValue): string {
  if (typeof value === 'string') return '<<string>>';
  if (Number.isInteger(value)) return '<<integer>>';
  return typeof value === 'number' ? '<<number>>' : '<<any>>';
}

/** A client line as replay will send it: redacted values replaced, echoed requestStates named. */
export function prepareClientMessage(message: JsonValue, facts: RecordingFacts): JsonValue {
  return prepareClientValue(message, undefined, facts);
}

function prepareClientValue(value: JsonValue, key: string | undefined, facts: RecordingFacts): JsonValue {
  if (key !== undefined && facts.redactedKeys.has(key)) return REDACTED;
  if (typeof value === 'string') {
    const name = facts.echoed.get(value);
    return name === undefined ? scrubText(value, facts.redactedValues) : `<<echo:${name}>>`;
  }
  if (Array.isArray(value)) return value.map((item) => prepareClientValue(item, undefined, facts));
  if (isJsonObject(value))
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, prepareClientValue(item, name, facts)]));
  return value;
}
