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

/** What is wrong with a received message that answers an expectation in a form that cannot pair. */
export interface WrongForm {
  problem: string;
  /** The same words for every fixture it happens in, so that they group into one finding. */
  behaviour: string;
}

/**
 * Whether `actual` is the server's answer to `expected` in a form that cannot pair with it: the
 * request's id echoed with another JSON type (7 sent back as "7", which the client cannot match:
 * "Responses MUST include the same ID as the request they correspond to") or left out (an error
 * with id null for a request whose id was readable), or a JSON-RPC batch answered with separate
 * responses, or a single message answered with an array.
 */
export function wrongFormOf(expected: JsonValue, actual: JsonValue): WrongForm | undefined {
  const expectedKind = messageKind(expected);
  const actualKind = messageKind(actual);
  if (expectedKind === 'response' && actualKind === 'response') return idNotEchoed(expected, actual);
  if (expectedKind === 'batch' && actualKind === 'response' && Array.isArray(expected) && answersBatch(expected, actual))
    return {
      problem: 'a batch (JSON array) is owed and the server sent separate responses',
      behaviour: 'a batch answered with separate responses instead of one JSON array',
    };
  if (expectedKind === 'response' && Array.isArray(actual) && actual.some((item) => couldPair(expected, item)))
    return {
      problem: 'a single response is owed and the server sent a batch (JSON array)',
      behaviour: 'a single message answered with a batch (JSON array)',
    };
  return undefined;
}

function idNotEchoed(expected: JsonValue, actual: JsonValue): WrongForm | undefined {
  if (!isJsonObject(expected) || !isJsonObject(actual)) return undefined;
  const [sent, got] = [expected.id, actual.id];
  if ((got === null || got === undefined) && 'error' in actual && (typeof sent === 'number' || isPlainString(sent)))
    return {
      problem: `expected id ${JSON.stringify(sent)}, got an error without it (id ${got === null ? 'null' : 'absent'}): the server answered, but the client cannot tell what`,
      behaviour: 'an error without the request id (id null or absent) where the id was readable',
    };
  const plain = (id: JsonValue | undefined): boolean =>
    typeof id === 'number' || (typeof id === 'string' && !id.startsWith('<<'));
  if (!plain(sent) || !plain(got) || typeof sent === typeof got || String(sent) !== String(got)) return undefined;
  return {
    problem: `expected id ${JSON.stringify(sent)}, got ${JSON.stringify(got)}: the id's type changed`,
    behaviour: "a response id echoed with another JSON type (the id's type changed)",
  };
}

/** A single response that stands for part of an expected batch: an id-null error, or an element's id. */
function answersBatch(expected: JsonValue[], actual: JsonValue): boolean {
  if (!isJsonObject(actual)) return false;
  if (actual.id === null || !('id' in actual)) return 'error' in actual;
  return expected.some((item) => couldPair(item, actual));
}

/** A string id, not a matcher. */
function isPlainString(id: JsonValue | undefined): id is string {
  return typeof id === 'string' && !id.startsWith('<<');
}
