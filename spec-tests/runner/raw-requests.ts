// Finds the requests inside raw client bytes, so that responses to them can be checked
// against the right result schema even when a fixture spells its input byte by byte.
import type { JsonValue } from './json-types.js';

const BYTE_ORDER_MARK = '\uFEFF';

export function sentRequestsInRaw(chunks: Buffer[]): JsonValue[] {
  const text = Buffer.concat(chunks).toString('utf8');
  return text.split('\n').flatMap((line) => parseQuietly(line.replace(BYTE_ORDER_MARK, '')));
}

function parseQuietly(line: string): JsonValue[] {
  try {
    return [JSON.parse(line) as JsonValue];
  } catch {
    return [];
  }
}
