// Sorts what a server writes into the kinds the matcher pairs differently: responses are
// paired by id, notifications and server requests by method in order, batches as a unit.
import type { JsonObject, JsonValue } from './json-types.js';
import { isJsonObject } from './json-types.js';

export type MessageKind = 'response' | 'notification' | 'request' | 'batch' | 'other';

export function messageKind(value: JsonValue): MessageKind {
  if (Array.isArray(value)) return 'batch';
  if (!isJsonObject(value)) return 'other';
  if (typeof value.method === 'string') return 'id' in value ? 'request' : 'notification';
  if ('result' in value || 'error' in value || 'id' in value) return 'response';
  return 'other';
}

/** Ids compare by JSON text so that 1 and "1" stay different (rule 1.2). */
export function idKey(message: JsonObject): string {
  return 'id' in message ? JSON.stringify(message.id) : '(no id)';
}

export function describeMessage(value: JsonValue): string {
  const kind = messageKind(value);
  if (!isJsonObject(value)) return kind === 'batch' ? 'batch response' : 'message';
  if (kind === 'response') return `response to id ${'id' in value ? JSON.stringify(value.id) : '(absent)'}`;
  if (kind === 'request') return `server request ${String(value.method)} (id ${JSON.stringify(value.id)})`;
  if (kind === 'notification') return `notification ${String(value.method)}`;
  return 'message';
}
