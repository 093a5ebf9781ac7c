// Which client messages can leave a lasting effect on a server, and which cannot.
//
// A fixture that fails on a shared process is played again on a fresh one, so that what earlier
// fixtures did to the server never decides its verdict (process-pool.ts). That costs a server
// start per failure: most of a run's time on a server that fails many advisories. It is needed
// only where earlier fixtures could have changed something. Reads cannot (ping, the lists,
// prompts/get, resources/read, completion/complete, server/discover: the spec names them as
// queries), nor can a request the server refused with an error (the method did not run), one to
// a method MCP does not define that got no result (a server that does not know it ran nothing), a
// cancellation or a progress report, or a notification MCP does not define (a receiver ignores
// it). Everything else may have: tools/call (a tool is any code), subscriptions, logging/setLevel,
// tasks, the notifications MCP defines (roots/list_changed makes a server ask for roots again).
import type { JsonValue } from './json-types.js';
import { isJsonObject } from './json-types.js';

const READ_ONLY_REQUESTS: ReadonlySet<string> = new Set([
  'ping',
  'tools/list',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'completion/complete',
  'server/discover',
]);

/** Notifications a receiver acts on by stopping or reporting, never by changing what it serves. */
const HARMLESS_NOTIFICATIONS: ReadonlySet<string> = new Set(['notifications/cancelled', 'notifications/progress']);

/** Every notification method the schemas (2024-11-05 to 2026-07-28) define, in either direction. */
const MCP_NOTIFICATIONS: ReadonlySet<string> = new Set([
  'notifications/cancelled',
  'notifications/progress',
  'notifications/initialized',
  'notifications/message',
  'notifications/roots/list_changed',
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/list_changed',
  'notifications/resources/updated',
  'notifications/elicitation/complete',
  'notifications/tasks/status',
  'notifications/subscriptions/acknowledged',
]);

/** The session's opening, which every turn on a shared process continues: no effect of a fixture's. */
const LIFECYCLE: ReadonlySet<string> = new Set(['initialize', 'notifications/initialized']);

/**
 * What a request may have done, by its answer: `none` (a read, or the session's opening);
 * `unless-refused` (a method MCP defines: only an error shows it did not run, and one left
 * unanswered may still be running); `if-answered` (a method MCP does not define, which a server
 * that does not know it cannot run: only a result shows it did).
 */
export function requestEffect(method: string): 'none' | 'unless-refused' | 'if-answered' {
  if (READ_ONLY_REQUESTS.has(method) || LIFECYCLE.has(method)) return 'none';
  return isMcpMethodName(method) ? 'unless-refused' : 'if-answered';
}

export function notificationChangesServer(method: string): boolean {
  return MCP_NOTIFICATIONS.has(method) && !HARMLESS_NOTIFICATIONS.has(method) && !LIFECYCLE.has(method);
}

/**
 * Whether a message a fixture sends may change the server, judged before any answer: a request
 * to a method MCP defines that is not a read, or a notification that changes it. Requests to
 * methods MCP does not define (`subtract`, `mcp-conform/no-such-method`) are refused, so no.
 * Used to start such fixtures last, so that the others find processes nothing has changed.
 */
export function mayChangeServer(message: JsonValue): boolean {
  if (Array.isArray(message)) return message.some(mayChangeServer);
  if (!isJsonObject(message) || typeof message.method !== 'string') return false;
  if (!('id' in message)) return notificationChangesServer(message.method);
  return requestEffect(message.method) === 'unless-refused';
}

const MCP_NAMESPACES = [
  'tools/',
  'resources/',
  'prompts/',
  'logging/',
  'completion/',
  'tasks/',
  'subscriptions/',
  'roots/',
  'sampling/',
  'elicitation/',
  'server/',
];

function isMcpMethodName(method: string): boolean {
  return MCP_NAMESPACES.some((prefix) => method.startsWith(prefix));
}
