// Which fixtures may share a server process, and which need one of their own.
//
// Starting a server is most of what a fixture costs (a Node server takes 100-300 ms, a Python
// one a second), so fixtures that leave nothing behind share a process (process-pool.ts):
// - handshake era: one stdio process carries one session, so fixtures that open the session the
//   same way (the same `initialize`) continue one session after a single handshake;
// - 2026-07-28: every request stands alone, so the stateless fixtures share a process freely.
// A fixture needs a fresh process when it says so (`process: fresh: REASON`) or when the runner
// can tell from its text that it changes the process or the stream, or that nobody can know
// when the server is done with its input. Sharing never decides a verdict: a fixture that does
// not pass on a shared process is played again on a fresh one (run-fixture.ts).
import type { Fixture } from './fixture-types.js';
import type { JsonValue } from './json-types.js';
import { isJsonObject } from './json-types.js';
import { NEWEST_HANDSHAKE_VERSION } from './handshake.js';

/** Fixtures with the same key can follow one another on one process. */
export type ProcessNeed = { fresh: string } | { shareKey: string };

export function processNeed(fixture: Fixture): ProcessNeed {
  const reason = freshReason(fixture);
  if (reason !== undefined) return { fresh: reason };
  const mode = fixture.header.protocol;
  if (mode.kind === 'stateless') return { shareKey: `stateless ${mode.version}` };
  // `protocol: any` sends the same initialize as `protocol: <newest>`, so both continue one session.
  return { shareKey: `handshake ${mode.kind === 'handshake' ? mode.version : NEWEST_HANDSHAKE_VERSION}` };
}

function freshReason(fixture: Fixture): string | undefined {
  const { header, steps } = fixture;
  if (header.freshProcess !== undefined) return header.freshProcess;
  if (header.protocol.kind === 'none') return 'protocol: none (it drives the lifecycle itself)';
  if (header.serverArgs !== undefined) return `server-args: ${header.serverArgs} (the server starts in a mode of its own)`;
  if (steps.some((step) => step.kind === 'send-raw')) return 'raw bytes may leave the stream mid-line';
  if (steps.some((step) => step.kind === 'close-stdin' || step.kind === 'exit')) return 'it ends the process';
  const sent = steps.flatMap((step) => (step.kind === 'send-json' ? step.messages.map((message) => message.value) : []));
  if (sent.some(isLifecycleMessage)) return 'it sends initialize or initialized itself';
  // Batches are answered element by element only in 2025-03-26; other revisions may refuse one whole, with no id to wait for.
  if (sent.some(Array.isArray) && !(header.protocol.kind === 'handshake' && header.protocol.version === '2025-03-26'))
    return 'a batch outside 2025-03-26 may be refused whole';
  if (header.protocol.kind !== 'stateless' && !sent.every(hasPlainIds))
    return 'its request ids are under test (a shared session gives each fixture ids of its own)';
  return undefined;
}

function isLifecycleMessage(value: JsonValue): boolean {
  return isJsonObject(value) && (value.method === 'initialize' || value.method === 'notifications/initialized');
}

/** Requests only (in a batch too): their ids are what a shared session renames (process-pool.ts). */
function hasPlainIds(value: JsonValue): boolean {
  if (Array.isArray(value)) return value.every(hasPlainIds);
  if (!isJsonObject(value) || typeof value.method !== 'string' || !('id' in value)) return true;
  return isPlainId(value.id);
}

/** A positive integer below a million or a short printable ASCII string: ids a fixture uses as labels, not as the subject. */
export function isPlainId(id: JsonValue | undefined): boolean {
  if (typeof id === 'number') return Number.isSafeInteger(id) && id >= 1 && id < PLAIN_NUMBER_LIMIT;
  return typeof id === 'string' && /^[\x20-\x7e]{1,64}$/.test(id);
}

export const PLAIN_NUMBER_LIMIT = 1_000_000;
