// Compares an expected value (from a fixture) with what the server sent. Parsed JSON is
// compared, so key order and spacing never matter. Strings of the form <<...>> are matchers
// for values that legitimately vary; FORMAT.md lists them. Objects match as a subset (extra
// keys in the actual message are allowed) unless they carry the key "<<exact>>": true.
import type { JsonValue } from './json-types.js';
import { isJsonObject } from './json-types.js';
import type { PathSegment } from './json-path.js';
import { formatPath } from './json-path.js';

export const EXACT_KEY = '<<exact>>';

type TypeName = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array';
const TYPE_NAMES: readonly string[] = ['string', 'number', 'integer', 'boolean', 'object', 'array'];

export type Marker =
  | { kind: 'any' }
  | { kind: 'absent' }
  | { kind: 'timestamp' }
  | { kind: 'type'; type: TypeName }
  | { kind: 'regex'; pattern: RegExp }
  | { kind: 'literal'; text: string }
  | { kind: 'capture'; name: string }
  | { kind: 'one-of'; values: JsonValue[]; orAbsent: boolean };

export interface Mismatch {
  path: string;
  expected: string;
  actual: string;
}

// RFC 3339 date-time, which also satisfies ISO 8601 (rule A-23).
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

export function isMarkerText(text: string): boolean {
  return text.startsWith('<<') && text.endsWith('>>') && text.length >= 4;
}

/** Reads a <<...>> string; throws on an unknown matcher so fixture typos fail loudly. */
export function parseMarker(text: string): Marker | undefined {
  if (!isMarkerText(text)) return undefined;
  const inner = text.slice(2, -2);
  if (inner === 'any') return { kind: 'any' };
  if (inner === 'absent') return { kind: 'absent' };
  if (inner === 'timestamp') return { kind: 'timestamp' };
  if (TYPE_NAMES.includes(inner)) return { kind: 'type', type: inner as TypeName };
  if (inner.startsWith('regex:')) return { kind: 'regex', pattern: new RegExp(inner.slice('regex:'.length), 'u') };
  if (inner.startsWith('literal:')) return { kind: 'literal', text: inner.slice('literal:'.length) };
  if (inner.startsWith('one-of:')) return parseOneOf(text, inner.slice('one-of:'.length).split('|'));
  if (inner.startsWith('capture:')) return { kind: 'capture', name: parseCaptureName(text, inner.slice('capture:'.length)) };
  throw new Error(`unknown matcher "${text}"`);
}

/** `<<one-of:-32600|-32700>>`, `<<one-of:null|absent>>`: where the spec leaves several answers open. */
function parseOneOf(text: string, alternatives: string[]): Marker {
  const values = alternatives
    .filter((item) => item !== 'absent')
    .map((item) => {
      try {
        return JSON.parse(item) as JsonValue;
      } catch {
        throw new Error(`matcher "${text}": "${item}" is neither JSON nor absent`);
      }
    });
  return { kind: 'one-of', values, orAbsent: values.length < alternatives.length };
}

/** `<<capture:NAME>>` (a server section) and `<<echo:NAME>>` (a client section) share NAME. */
export const CAPTURE_NAME = /^[A-Za-z0-9_.-]+$/;

function parseCaptureName(text: string, name: string): string {
  if (!CAPTURE_NAME.test(name)) throw new Error(`matcher "${text}": a capture name is letters, digits, _ . -`);
  return name;
}

/** Every matcher in an expected value, parsed once, so a fixture with a typo fails to load. */
export function checkMarkers(expected: JsonValue): void {
  if (typeof expected === 'string') parseMarker(expected);
  if (Array.isArray(expected)) expected.forEach(checkMarkers);
  if (isJsonObject(expected)) Object.values(expected).forEach(checkMarkers);
}

export function matchValue(expected: JsonValue, actual: JsonValue | undefined, path: PathSegment[] = []): Mismatch | undefined {
  const marker = typeof expected === 'string' ? parseMarker(expected) : undefined;
  if (marker) return matchMarker(marker, expected, actual, path);
  if (actual === undefined) return mismatch(path, expected, actual);
  if (Array.isArray(expected)) return matchArray(expected, actual, path);
  if (isJsonObject(expected)) return matchObject(expected, actual, path);
  return expected === actual ? undefined : mismatch(path, expected, actual);
}

function matchMarker(
  marker: Marker,
  expected: JsonValue,
  actual: JsonValue | undefined,
  path: PathSegment[],
): Mismatch | undefined {
  if (marker.kind === 'one-of' && actual === undefined) {
    return marker.orAbsent ? undefined : mismatch(path, expected, actual);
  }
  if (marker.kind === 'absent') {
    return actual === undefined
      ? undefined
      : { path: formatPath(path), expected: 'nothing (key absent)', actual: describe(actual) };
  }
  if (actual === undefined) return mismatch(path, expected, actual);
  return markerAccepts(marker, actual) ? undefined : mismatch(path, expected, actual);
}

function markerAccepts(marker: Exclude<Marker, { kind: 'absent' }>, actual: JsonValue): boolean {
  switch (marker.kind) {
    case 'any':
    case 'capture': // the value is remembered by the session, see captures.ts
      return true;
    case 'timestamp':
      return typeof actual === 'string' && TIMESTAMP.test(actual) && !Number.isNaN(Date.parse(actual));
    case 'type':
      return hasType(actual, marker.type);
    case 'regex':
      return typeof actual === 'string' && marker.pattern.test(actual);
    case 'literal':
      return actual === marker.text;
    case 'one-of':
      return marker.values.some((value) => matchValue(value, actual) === undefined);
  }
}

function hasType(actual: JsonValue, type: TypeName): boolean {
  if (type === 'integer') return Number.isInteger(actual);
  if (type === 'array') return Array.isArray(actual);
  if (type === 'object') return isJsonObject(actual);
  return typeof actual === type;
}

function matchArray(expected: JsonValue[], actual: JsonValue, path: PathSegment[]): Mismatch | undefined {
  if (!Array.isArray(actual)) return mismatch(path, expected, actual);
  if (expected.length !== actual.length) {
    return {
      path: formatPath(path),
      expected: `an array of ${expected.length} items`,
      actual: `${actual.length} items: ${describe(actual)}`,
    };
  }
  for (const [index, item] of expected.entries()) {
    const problem = matchValue(item, actual[index], [...path, index]);
    if (problem) return problem;
  }
  return undefined;
}

function matchObject(expected: Record<string, JsonValue>, actual: JsonValue, path: PathSegment[]): Mismatch | undefined {
  if (!isJsonObject(actual)) return mismatch(path, expected, actual);
  for (const [key, value] of Object.entries(expected)) {
    if (key === EXACT_KEY) continue;
    const problem = matchValue(value, actual[key], [...path, key]);
    if (problem) return problem;
  }
  if (expected[EXACT_KEY] === true) return findExtraKey(expected, actual, path);
  return undefined;
}

function findExtraKey(
  expected: Record<string, JsonValue>,
  actual: Record<string, JsonValue>,
  path: PathSegment[],
): Mismatch | undefined {
  const extra = Object.keys(actual).find((key) => !(key in expected));
  if (extra === undefined) return undefined;
  return {
    path: formatPath([...path, extra]),
    expected: 'nothing (the object is marked <<exact>>)',
    actual: describe(actual[extra]),
  };
}

/**
 * A batch response may list its responses in any order (https://www.jsonrpc.org/specification#batch), so each expected
 * element is matched against a distinct actual element.
 */
export function matchUnordered(expected: JsonValue[], actual: JsonValue, path: PathSegment[] = []): Mismatch | undefined {
  if (!Array.isArray(actual)) return mismatch(path, expected, actual);
  if (expected.length !== actual.length) {
    return {
      path: formatPath(path),
      expected: `a batch of ${expected.length} responses`,
      actual: `${actual.length}: ${describe(actual)}`,
    };
  }
  const unused = [...actual];
  for (const [index, item] of expected.entries()) {
    const found = unused.findIndex((candidate) => matchValue(item, candidate) === undefined);
    if (found === -1) {
      return {
        path: formatPath([...path, index]),
        expected: `an element matching ${describe(item)}`,
        actual: `none of ${describe(unused)}`,
      };
    }
    unused.splice(found, 1);
  }
  return undefined;
}

function mismatch(path: PathSegment[], expected: JsonValue, actual: JsonValue | undefined): Mismatch {
  return { path: formatPath(path), expected: describe(expected), actual: describe(actual) };
}

export function describe(value: JsonValue | undefined, maxLength = 200): string {
  if (value === undefined) return 'nothing (key absent)';
  const text = JSON.stringify(value);
  return text.length > maxLength ? `${text.slice(0, maxLength)}…` : text;
}
