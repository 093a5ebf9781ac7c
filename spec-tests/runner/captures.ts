// Some values a server hands out must come back from the client unchanged, and differ on every
// run: the opaque requestState of an input_required result, which the client's retry echoes
// (https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr). A fixture
// cannot spell such a value, so it names it: `"<<capture:NAME>>"` in a server section accepts
// any value and remembers it, and `"<<echo:NAME>>"` in a later client section is replaced by it
// before the line is sent.
import type { JsonValue } from './json-types.js';
import { isJsonObject } from './json-types.js';
import { CAPTURE_NAME, matchValue, parseMarker } from './matchers.js';

export type Captures = Map<string, JsonValue>;

const ECHO = /^<<echo:(.*)>>$/;

/** Remembers what each `<<capture:NAME>>` of an expected message stood for in the one it paired with. */
export function collectCaptures(expected: JsonValue, actual: JsonValue, into: Captures): void {
  if (!Array.isArray(expected) || !Array.isArray(actual)) return collectFrom(expected, actual, into);
  // A batch response's elements come in any order: take each from the element it matches.
  for (const item of expected) {
    const partner = actual.find((candidate) => matchValue(item, candidate) === undefined);
    if (partner !== undefined) collectFrom(item, partner, into);
  }
}

function collectFrom(expected: JsonValue, actual: JsonValue | undefined, into: Captures): void {
  if (actual === undefined) return;
  const marker = typeof expected === 'string' ? parseMarker(expected) : undefined;
  if (marker?.kind === 'capture') into.set(marker.name, actual);
  if (Array.isArray(expected) && Array.isArray(actual)) expected.forEach((item, index) => collectFrom(item, actual[index], into));
  if (isJsonObject(expected) && isJsonObject(actual))
    Object.entries(expected).forEach(([key, item]) => collectFrom(item, actual[key], into));
}

/** The first `<<echo:NAME>>` in a client message whose NAME nothing has captured yet. */
export function missingCapture(value: JsonValue, captures: Captures): string | undefined {
  const name = echoName(value);
  if (name !== undefined) return captures.has(name) ? undefined : name;
  const items = Array.isArray(value) ? value : isJsonObject(value) ? Object.values(value) : [];
  for (const item of items) {
    const missing = missingCapture(item, captures);
    if (missing !== undefined) return missing;
  }
  return undefined;
}

/** The client message with every `"<<echo:NAME>>"` replaced by the captured value (check missingCapture first). */
export function fillEchoes(value: JsonValue, captures: Captures): JsonValue {
  const name = echoName(value);
  if (name !== undefined) return captures.get(name) ?? value;
  if (Array.isArray(value)) return value.map((item) => fillEchoes(item, captures));
  if (isJsonObject(value))
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fillEchoes(item, captures)]));
  return value;
}

function echoName(value: JsonValue): string | undefined {
  const name = typeof value === 'string' ? ECHO.exec(value)?.[1] : undefined;
  return name !== undefined && CAPTURE_NAME.test(name) ? name : undefined;
}
