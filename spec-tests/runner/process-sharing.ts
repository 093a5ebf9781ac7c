// Which fixtures may share a server process, and which need one of their own.
//
// Starting a server is most of what a fixture costs (a Node server takes 100-300 ms, a Python
// one a second), so fixtures that leave nothing behind share a process (process-pool.ts):
// - handshake era: one stdio process carries one session, so fixtures that open the session the
//   same way (the same `initialize`) continue one session after a single handshake;
// - 2026-07-28: every request stands alone, so the stateless fixtures share a process freely.
// A fixture needs a process of its own when it says so (`process: fresh: REASON`) or when the
// runner can tell from its text that it changes the process or the session. A fixture whose ids
// cannot be renamed (raw bytes, ids under test) shares too, with those ids as written, on a
// process where none of them was used yet (process-pool.ts). A batch outside 2025-03-26 may be refused
// whole, with no id to wait for: the fence at the end of the turn shows it is over. A fixture
// that closes stdin or waits for an exit takes the last turn of a process: started last
// (run-command.ts), it ends a process the run would stop anyway instead of starting its own. A
// `protocol: none` fixture that opens with a detection probe's very initialize continues that
// probe's process (the four initialize-VERSION fixtures: four starts fewer); one other that
// drives the lifecycle may continue a legacy server's server/discover probe process; neither if
// it ends the process, which would use up the probe's process for nothing. Sharing
// never decides a verdict: a fixture that does not pass on a shared process is played again on a
// new one (run-fixture.ts).
import type { Fixture } from './fixture-types.js';
import type { JsonValue } from './json-types.js';
import { isJsonObject } from './json-types.js';
import { isDeepStrictEqual } from 'node:util';
import { HANDSHAKE_VERSIONS, NEWEST_HANDSHAKE_VERSION, PROBE_REQUEST_ID, initializeRequest } from './handshake.js';
import { sentRequestsInRaw } from './raw-requests.js';

/**
 * Fixtures with the same `shareKey` can follow one another on one process; one with `idsAsWritten`
 * (the reason) keeps its request ids, on a process where none was used; one that `endsProcess`
 * (it closes stdin or waits for an exit) takes the last turn of its process. A fixture that
 * `continuesProbe` opens with the very initialize of that revision's detection probe (detect.ts):
 * it continues the probe's process, the probe's answer standing for its own. A `fresh` fixture
 * gets a process of its own (the reason says why).
 */
export type ProcessNeed =
  | { fresh: string; beforeInitialize?: true }
  | { continuesProbe: string; initializeId: JsonValue }
  | { shareKey: string; idsAsWritten?: string; endsProcess?: true };

export function processNeed(fixture: Fixture): ProcessNeed {
  const probe = repeatedProbe(fixture);
  if (probe !== undefined) return probe;
  const reason = ownProcessReason(fixture);
  if (reason !== undefined) return { fresh: reason, ...(mayFollowDiscover(fixture) ? { beforeInitialize: true as const } : {}) };
  const need = { shareKey: shareKey(fixture), ...(endsProcess(fixture) ? { endsProcess: true as const } : {}) };
  const asWritten = idsAsWrittenReason(fixture);
  if (asWritten === undefined) return need;
  // A later turn's ids are renamed to ids no fixture writes (process-pool.ts): one that does keeps a process of its own.
  if (!writtenIds(fixture).every(outsideRenamedIds))
    return { fresh: `${asWritten}, and they include ids the runner renames others to` };
  return { ...need, idsAsWritten: asWritten };
}

/**
 * A `protocol: none` fixture whose first message is the initialize a detection probe sent (the
 * same revision, capabilities and clientInfo; a plain id where the probe's is its own): the probe's
 * process has seen exactly that and nothing else, so the fixture can go on from there.
 */
function repeatedProbe(fixture: Fixture): { continuesProbe: string; initializeId: JsonValue } | undefined {
  const { steps } = fixture;
  if (!mayContinueProbe(fixture)) return undefined;
  const first = steps[0];
  const message = first?.kind === 'send-json' && first.messages.length === 1 ? first.messages[0]?.value : undefined;
  if (!isJsonObject(message) || !isPlainId(message.id) || !isJsonObject(message.params)) return undefined;
  const version = message.params.protocolVersion;
  if (typeof version !== 'string' || !HANDSHAKE_VERSIONS.includes(version)) return undefined;
  const asProbe = { ...message, id: PROBE_REQUEST_ID };
  if (!isDeepStrictEqual(asProbe, initializeRequest(PROBE_REQUEST_ID, version))) return undefined;
  return { continuesProbe: version, initializeId: message.id ?? null };
}

/**
 * A `protocol: none` fixture that opens with a message (not raw bytes, which may test the
 * stream's start): on a legacy server it may continue the server/discover probe's process, which
 * has seen only that refused request and a ping, both answered; a failure there is played again
 * on a process of its own (run-fixture.ts).
 */
function mayFollowDiscover(fixture: Fixture): boolean {
  return mayContinueProbe(fixture) && fixture.steps[0]?.kind === 'send-json';
}

/**
 * A probe's process serves one `protocol: none` fixture, started as written (no `process: fresh`,
 * no `server-args`), that leaves it running: a turn that closes stdin or waits for an exit never
 * ends clean, so it is played again on a process of its own (run-fixture.ts), and the probe's
 * process, used up, serves no fixture that could have kept it.
 */
function mayContinueProbe(fixture: Fixture): boolean {
  const { header } = fixture;
  if (header.protocol.kind !== 'none' || header.freshProcess !== undefined || header.serverArgs !== undefined) return false;
  return !endsProcess(fixture);
}

/** It closes stdin or waits for the server to exit: nothing can follow it on its process. */
function endsProcess(fixture: Fixture): boolean {
  return fixture.steps.some((step) => step.kind === 'close-stdin' || step.kind === 'exit');
}

function shareKey(fixture: Fixture): string {
  const mode = fixture.header.protocol;
  if (mode.kind === 'stateless') return `stateless ${mode.version}`;
  // `protocol: any` sends the same initialize as `protocol: <newest>`, so both continue one session.
  return `handshake ${mode.kind === 'handshake' ? mode.version : NEWEST_HANDSHAKE_VERSION}`;
}

/** Why the fixture's process can serve no other fixture: it changes the process or the session. */
function ownProcessReason(fixture: Fixture): string | undefined {
  const { header, steps } = fixture;
  if (header.freshProcess !== undefined) return header.freshProcess;
  if (header.protocol.kind === 'none') return 'protocol: none (it drives the lifecycle itself)';
  if (header.serverArgs !== undefined) return `server-args: ${header.serverArgs} (the server starts in a mode of its own)`;
  // Reading the requests out of megabytes (oversized-line: 33 MiB) would cost seconds each time.
  if (rawByteCount(fixture) > LARGE_RAW_BYTES) return 'it writes megabytes of raw bytes, whose ids are not read';
  const lastChunk = steps.flatMap((step) => (step.kind === 'send-raw' ? step.chunks : [])).findLast((chunk) => chunk.length > 0);
  const midLine = lastChunk !== undefined && lastChunk[lastChunk.length - 1] !== NEWLINE;
  if (midLine && !endsProcess(fixture)) return 'its raw bytes leave the stream mid-line';
  if (sentMessages(fixture).some(isLifecycleMessage)) return 'it sends initialize or initialized itself';
  return undefined;
}

/** Why some of the fixture's request ids must reach the server as written (asWrittenIds); undefined when all are labels the runner may rename. */
function idsAsWrittenReason(fixture: Fixture): string | undefined {
  if (fixture.steps.some((step) => step.kind === 'send-raw')) return 'raw bytes cannot be given other ids';
  if (fixture.header.protocol.kind === 'stateless') return undefined;
  if (!sentMessages(fixture).every(hasPlainIds)) return 'its request ids are under test';
  if (alikeIds(writtenIds(fixture)).length > 0) return 'its request ids differ only in JSON type';
  return undefined;
}

/**
 * The ids (JSON text) that reach the server as written when the fixture shares a process: those
 * in its raw bytes, those under test (not plain), and those alike but for their JSON type. Its
 * other ids are labels, renamed like any fixture's (a ping after raw bytes, the 2 after a null id).
 */
export function asWrittenIds(fixture: Fixture): string[] {
  const written = writtenIds(fixture);
  const raw = new Set(
    fixture.steps.flatMap((step) => (step.kind === 'send-raw' ? sentRequestsInRaw(step.chunks) : [])).flatMap(requestIds),
  );
  const alike = new Set(alikeIds(written));
  const asWritten = written.filter((id) => raw.has(id) || alike.has(id) || !isPlainId(JSON.parse(id) as JsonValue));
  return [...new Set(asWritten)];
}

/** 7 and "7" are two ids: renamed they would no longer look alike, which is what such a fixture tests (the same id twice is one). */
function alikeIds(ids: string[]): string[] {
  const looks = (id: string) => String(JSON.parse(id));
  return ids.filter((id) => ids.some((other) => other !== id && looks(other) === looks(id)));
}

/** The ids of the requests a fixture sends (in batches too), as JSON text. */
function writtenIds(fixture: Fixture): string[] {
  return sentMessages(fixture).flatMap(requestIds);
}

/** The ids of the requests in one message (a batch's too), as JSON text. */
function requestIds(message: JsonValue): string[] {
  return (Array.isArray(message) ? message : [message]).flatMap((value) =>
    isJsonObject(value) && typeof value.method === 'string' && 'id' in value ? [JSON.stringify(value.id)] : [],
  );
}

/** Renamed numbers lie between a million and a million turns of a million ids; renamed strings hold `#`. */
function outsideRenamedIds(idText: string): boolean {
  const id = JSON.parse(idText) as JsonValue;
  if (typeof id === 'number') return id < PLAIN_NUMBER_LIMIT || id >= PLAIN_NUMBER_LIMIT * PLAIN_NUMBER_LIMIT;
  return typeof id !== 'string' || !id.includes('#');
}

const NEWLINE = 0x0a;
/** Raw sections larger than this are not read for requests (and start first: run-command.ts). */
export const LARGE_RAW_BYTES = 1024 * 1024;

/** How many bytes a fixture's raw sections write. */
export function rawByteCount(fixture: Fixture): number {
  return fixture.steps.reduce(
    (sum, step) => sum + (step.kind === 'send-raw' ? step.chunks.reduce((total, chunk) => total + chunk.length, 0) : 0),
    0,
  );
}

/** The client messages a fixture sends: its JSON sections, and the lines of its raw ones that parse. */
export function sentMessages(fixture: Fixture): JsonValue[] {
  return fixture.steps.flatMap((step) =>
    step.kind === 'send-json'
      ? step.messages.map((message) => message.value)
      : step.kind === 'send-raw'
        ? sentRequestsInRaw(step.chunks)
        : [],
  );
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

/**
 * A positive integer below a million or a short printable ASCII string without `#`: ids a fixture
 * uses as labels, not as the subject, and never one a later turn's id is renamed to.
 */
export function isPlainId(id: JsonValue | undefined): boolean {
  if (typeof id === 'number') return Number.isSafeInteger(id) && id >= 1 && id < PLAIN_NUMBER_LIMIT;
  return typeof id === 'string' && /^[\x20-\x22\x24-\x7e]{1,64}$/.test(id);
}

export const PLAIN_NUMBER_LIMIT = 1_000_000;
