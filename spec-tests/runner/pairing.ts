// Decides which received message an expectation is about, before comparing their content:
// a response by its id (responses may come in any order, https://www.jsonrpc.org/specification#batch; the official SDKs answer concurrent requests by completion),
// a notification or server request by its method, a batch response by being an array.
import type { JsonValue } from './json-types.js';
import { isJsonObject } from './json-types.js';
import type { Mismatch } from './matchers.js';
import { matchUnordered, matchValue } from './matchers.js';
import { messageKind } from './message-kinds.js';

export function couldPair(expected: JsonValue, actual: JsonValue): boolean {
  const expectedKind = messageKind(expected);
  const actualKind = messageKind(actual);
  if (expectedKind === 'batch' || actualKind === 'batch') return expectedKind === actualKind;
  if (!isJsonObject(expected) || !isJsonObject(actual)) return false;
  if (expectedKind === 'response') return actualKind === 'response' && matchValue(expected.id ?? null, actual.id) === undefined;
  if (actualKind !== 'notification' && actualKind !== 'request') return false;
  return matchValue(expected.method ?? null, actual.method) === undefined;
}

export function isMethodMessage(value: JsonValue): boolean {
  const kind = messageKind(value);
  return kind === 'notification' || kind === 'request';
}

export function compareMessage(expected: JsonValue, actual: JsonValue): Mismatch | undefined {
  return Array.isArray(expected) ? matchUnordered(expected, actual) : matchValue(expected, actual);
}
