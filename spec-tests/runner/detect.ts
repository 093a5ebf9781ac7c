// Before any fixture, the runner asks the server what it speaks, the way a client would, so that
// a revision the server does not offer is reported as not applicable instead of failed.
//
// - Handshake revisions: one `initialize` per revision, each in a fresh process (a server may
//   serve one era per process). A revision is offered when the server answers with that same
//   protocolVersion; a server that answers another one negotiates down, as the lifecycle page
//   allows (https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle).
// - 2026-07-28: `server/discover`, as the stdio transport page prescribes for telling the eras
//   apart (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/stdio): a
//   result lists the supported versions; an error, or silence, means the server is legacy. A
//   `ping` follows as a fence: a legacy server answers it before initialize, so silence after
//   that answer is a dropped request, not a slow one, and nobody waits out the timeout.
//
// The probes run at once. Once the initialize probes are answered the server is known to be up,
// and a server/discover still unanswered is waited for only a little longer (patienceAfter), each
// time it is asked: a server that never answers an unknown method, nor the ping after it, costs
// seconds instead of three startup timeouts, and 2026-07-28 is reported not offered with what the
// probe saw, never passed silently. A probe's process whose initialize was answered may be handed over
// (`adopt`) instead of stopped: the fixtures that open the session the same way continue it
// (process-pool.ts), one server start less each; so may a legacy server's that refused
// server/discover and answered the ping, for a fixture that drives the lifecycle itself. None answering at all (the command fails, exits, or stays silent for
// the startup timeout) is one clear error about starting the server, not a failure per fixture.
import type { JsonObject, JsonValue } from './json-types.js';
import { isJsonObject } from './json-types.js';
import { ServerProcess } from './server-process.js';
import { HANDSHAKE_VERSIONS, PROBE_REQUEST_ID, STATELESS_VERSIONS, initializeRequest } from './handshake.js';

/** After the fence is answered, how long a dropped request still gets to arrive (and the fence, after the answer). */
const FENCE_GRACE_MS = 300;
const STOP_GRACE_MS = 300;
/** How many more times a probe that got nothing is asked, one at a time, before its revision is called not offered. */
export const PROBE_RETRIES = 2;
/** The least a server/discover probe is waited for once initialize was answered (see patienceAfter). */
const PATIENCE_FLOOR_MS = 2000;
/** How often a probe's wait looks whether its patience was cut. */
const PATIENCE_CHECK_MS = 250;

export interface HandshakeProbe {
  requested: string;
  /** The protocolVersion the server answered with, when it answered with a result. */
  negotiated?: string;
  result?: JsonObject;
  /** Why there is no result: the error it answered with, silence, or an exit. */
  problem?: string;
}

export interface Detection {
  /** How the runner reached the server: a process on stdio, or an MCP endpoint over HTTP (detect-http.ts). */
  transport: 'stdio' | 'http';
  handshake: HandshakeProbe[];
  /** Handshake revisions the server negotiates when asked for them. */
  offeredHandshake: string[];
  /** Stateless revisions server/discover lists (empty for a legacy server). */
  offeredStateless: string[];
  discover?: JsonObject;
  /** Why server/discover gave nothing, for the header. */
  discoverProblem?: string;
  /** The longest any probe waited for its answer: how long this server takes to start. */
  startupMs: number;
}

export class ServerStartError extends Error {}

/**
 * Takes over a probe's process: one whose `initialize` for `version` was answered with `result`,
 * or (without `initialize`) a legacy server's that refused server/discover and answered the ping
 * after it; false leaves it to be stopped.
 */
export type AdoptProbe = (server: ServerProcess, initialize?: { version: string; result: JsonObject }) => boolean;

export async function detectServer(command: string, startupTimeoutMs: number, adopt?: AdoptProbe): Promise<Detection> {
  const askInitialize = (version: string) => probeInitialize(command, version, startupTimeoutMs, adopt);
  const initializing = HANDSHAKE_VERSIONS.map(askInitialize);
  const patience = Promise.all(initializing).then(patienceAfter);
  const firstDiscover = probeDiscover(command, startupTimeoutMs, patience, adopt);
  const [discover, ...handshake] = await Promise.all([firstDiscover, ...initializing]);
  if (discover.silent && handshake.every((probe) => probe.silent))
    throw new ServerStartError(
      `the server answered none of the probes within ${startupTimeoutMs} ms${stderrTail(discover.stderr)}`,
    );
  const askDiscover = () => probeDiscover(command, patienceAfter(handshake) ?? startupTimeoutMs);
  return assembleDetection('stdio', await askAgain(discover, askDiscover), await askEachAgain(handshake, askInitialize));
}

/**
 * How long server/discover is still waited for once every initialize probe has settled: at least
 * PATIENCE_FLOOR_MS, or three times the slowest initialize answer (what starting this server
 * takes on this machine now). Undefined when no initialize was answered: the server may be slow
 * to start, or modern only, and gets the whole startup timeout.
 */
export function patienceAfter(handshake: readonly Answered[]): number | undefined {
  const answered = handshake.filter((probe) => !probe.silent).map((probe) => probe.waitedMs);
  return answered.length === 0 ? undefined : Math.max(PATIENCE_FLOOR_MS, 3 * Math.max(...answered));
}

/**
 * A probe that got nothing while others were answered is asked again, one at a time: under load a
 * fresh process can be slow to start or lost, and one silent probe must not make a whole revision
 * not applicable in one run and applicable in the next.
 */
export async function askAgain<T extends Answered>(first: T, ask: () => Promise<T>): Promise<T> {
  let answer = first;
  for (let attempt = 0; attempt < PROBE_RETRIES && (answer.silent || answer.transient === true); attempt += 1)
    answer = await ask();
  return answer;
}

/** askAgain for the initialize probes, in order (HANDSHAKE_VERSIONS). */
export async function askEachAgain<T extends Answered>(probes: T[], ask: (version: string) => Promise<T>): Promise<T[]> {
  const answers: T[] = [];
  for (const [index, probe] of probes.entries()) answers.push(await askAgain(probe, () => ask(HANDSHAKE_VERSIONS[index] ?? '')));
  return answers;
}

/**
 * Nothing to test: the server offers none of the revisions the runner knows. That is an error
 * (exit 2) that shows what each probe saw, never a run of fixtures that are all not applicable.
 */
export function nothingOffered(detection: Detection): string | undefined {
  if (detection.offeredHandshake.length > 0 || detection.offeredStateless.length > 0) return undefined;
  const seen = [
    ...detection.handshake.map(
      (probe) =>
        `initialize ${probe.requested}: ${probe.negotiated !== undefined ? `answered ${probe.negotiated}` : (probe.problem ?? 'no answer')}`,
    ),
    `server/discover: ${detection.discoverProblem ?? 'lists no revision the runner knows'}`,
  ];
  const refusals = [...detection.handshake.map((probe) => probe.problem ?? ''), detection.discoverProblem ?? ''];
  const hint = refusals.every((problem) => /^HTTP (403|421)\b/.test(problem))
    ? '\nEvery probe was refused with 403 or 421: the server may accept only some Host (or Origin) values; try --url with the host name it expects (e.g. localhost instead of 127.0.0.1).'
    : '';
  return `the server offers no protocol revision the runner can test, so nothing would be tested; what the probes saw:\n  ${seen.join('\n  ')}${hint}`;
}

/** What the probes found, over either transport. */
export function assembleDetection(
  transport: Detection['transport'],
  discover: Answered & { result?: JsonObject; problem?: string },
  handshake: (Answered & { probe: HandshakeProbe })[],
): Detection {
  const supported = discover.result?.supportedVersions;
  return {
    transport,
    startupMs: Math.max(discover.waitedMs, ...handshake.map((probe) => probe.waitedMs)),
    handshake: handshake.map((probe) => probe.probe),
    offeredHandshake: handshake.filter((probe) => probe.probe.negotiated === probe.probe.requested).map((p) => p.probe.requested),
    offeredStateless: Array.isArray(supported) ? STATELESS_VERSIONS.filter((version) => supported.includes(version)) : [],
    ...(discover.result ? { discover: discover.result } : { discoverProblem: discover.problem }),
  };
}

export interface Answered {
  silent: boolean;
  /** An answer that says "try again" (HTTP 429, 502, 503, 504): asked again like silence. */
  transient?: boolean;
  stderr: string;
  /** From start to the answer (or to giving up). */
  waitedMs: number;
}

async function probeInitialize(
  command: string,
  version: string,
  timeoutMs: number,
  adopt: AdoptProbe | undefined,
): Promise<Answered & { probe: HandshakeProbe }> {
  const request = initializeRequest(PROBE_REQUEST_ID, version);
  const handOver = (answer: JsonObject, server: ServerProcess) =>
    isJsonObject(answer.result) && adopt !== undefined && adopt(server, { version, result: answer.result });
  const { answer, stderr, waitedMs } = await exchange(command, [request], PROBE_REQUEST_ID, undefined, timeoutMs, handOver);
  if (answer === undefined) return { silent: true, stderr, waitedMs, probe: { requested: version, problem: 'no answer' } };
  const result = isJsonObject(answer.result) ? answer.result : undefined;
  const negotiated = typeof result?.protocolVersion === 'string' ? result.protocolVersion : undefined;
  if (result !== undefined && negotiated !== undefined)
    return { silent: false, stderr, waitedMs, probe: { requested: version, negotiated, result } };
  return { silent: false, stderr, waitedMs, probe: { requested: version, problem: describeError(answer) } };
}

async function probeDiscover(
  command: string,
  timeoutMs: number,
  patience?: Promise<number | undefined>,
  adopt?: AdoptProbe,
): Promise<Answered & { result?: JsonObject; problem?: string }> {
  const discover = {
    jsonrpc: '2.0',
    id: 'mcp-conform:discover',
    method: 'server/discover',
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': STATELESS_VERSIONS[0],
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  };
  const fence = { jsonrpc: '2.0', id: 'mcp-conform:fence', method: 'ping' };
  // A legacy server's process that refused the probe and answered the ping has seen nothing else: it may serve on.
  const handOver = (answer: JsonObject, server: ServerProcess, fenced: boolean) =>
    fenced && isJsonObject(answer.error) && adopt !== undefined && adopt(server);
  const { answer, fenced, stderr, waitedMs } = await exchange(
    command,
    [discover, fence],
    'mcp-conform:discover',
    'mcp-conform:fence',
    timeoutMs,
    handOver,
    patience,
  );
  const base = { silent: answer === undefined && !fenced, stderr, waitedMs };
  if (answer === undefined)
    return { ...base, problem: fenced ? 'no answer (the ping after it was answered)' : `no answer within ${waitedMs} ms` };
  if (isJsonObject(answer.result)) return { ...base, result: answer.result };
  return { ...base, problem: describeError(answer) };
}

/**
 * Sends the requests, waits for the answer to `id` and the fence's (the second a grace at most after the first), stops the
 * server unless `handOver` takes it. When `patience` gives a number, the wait ends at most that
 * long after it does.
 */
async function exchange(
  command: string,
  requests: JsonValue[],
  id: string,
  fenceId: string | undefined,
  timeoutMs: number,
  handOver?: (answer: JsonObject, server: ServerProcess, fenced: boolean) => boolean,
  patience?: Promise<number | undefined>,
): Promise<{ answer?: JsonObject; fenced: boolean; stderr: string; waitedMs: number }> {
  const started = Date.now();
  const server = new ServerProcess(command);
  await server.write(Buffer.from(requests.map((request) => `${JSON.stringify(request)}\n`).join('')));
  let deadline = Date.now() + timeoutMs;
  void patience?.then((ms) => {
    if (ms !== undefined) deadline = Math.min(deadline, Date.now() + ms);
  });
  let seen = 0;
  let answer: JsonObject | undefined;
  let fenced = false;
  // Whichever of the answer and the fence's comes first, the other gets a grace at most.
  const settled = () => answer !== undefined && (fenced || fenceId === undefined);
  while (!settled() && !server.hasExited && Date.now() < deadline) {
    await server.waitForEvent(seen, patience ? Math.min(deadline, Date.now() + PATIENCE_CHECK_MS) : deadline);
    for (; seen < server.events.length; seen++) {
      const event = server.events[seen];
      if (event?.kind !== 'message' || !isJsonObject(event.value)) continue;
      const first = (event.value.id === id && answer === undefined) || (event.value.id === fenceId && !fenced);
      if (event.value.id === id) answer = event.value;
      if (fenceId !== undefined && event.value.id === fenceId) fenced = true;
      if (first && fenceId !== undefined) deadline = Math.min(deadline, Date.now() + FENCE_GRACE_MS);
    }
  }
  const waitedMs = Date.now() - started;
  const handedOver = answer !== undefined && !server.hasExited && handOver?.(answer, server, fenced) === true;
  if (!handedOver) await server.stop(STOP_GRACE_MS);
  return { ...(answer ? { answer } : {}), fenced, stderr: server.stderrText, waitedMs };
}

export function describeError(answer: JsonObject): string {
  const error = isJsonObject(answer.error) ? answer.error : undefined;
  if (error === undefined) return `an answer without a usable result: ${JSON.stringify(answer).slice(0, 200)}`;
  return `error ${String(error.code)}: ${String(error.message).slice(0, 200)}`;
}

function stderrTail(stderr: string): string {
  const tail = stderr.trimEnd().split('\n').slice(-15).join('\n');
  return tail === '' ? ' (its stderr is empty)' : `; its stderr ends:\n${tail}`;
}
