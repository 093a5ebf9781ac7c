// Recorded server messages hold values that differ on every run. Those that are obviously
// volatile are replaced by matchers so that the recording replays; everything else is kept.
import type { JsonValue } from './json-types.js';
import { isJsonObject } from './json-types.js';

// RFC 3339 date-time, the form the spec asks for (rule A-23).
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

export function maskVolatileValues(value: JsonValue): JsonValue {
  if (typeof value === 'string') return TIMESTAMP.test(value) ? '<<timestamp>>' : value;
  if (Array.isArray(value)) return value.map(maskVolatileValues);
  if (isJsonObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, maskVolatileValues(item)]));
  return value;
}
