// Detection (detect.ts) over Streamable HTTP: the same questions, asked the way an HTTP client
// tells the eras apart.
//
// - Handshake revisions: one `initialize` POST per revision, each opening a session of its own,
//   which is DELETEd once answered.
// - 2026-07-28: a `server/discover` POST with its headers. A modern server answers it, or refuses
//   it with 400 and a JSON-RPC error it recognises (-32022 with the versions it supports); a
//   legacy one answers an HTTP error without such a body (400, 404, 405)
//   (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http
//   "Backward Compatibility"). No ping fence is needed: every POST ends with its answer.
//
// A server that cannot be reached at all is one clear error (ServerStartError), not a failure
// per fixture.
import type { JsonObject, JsonValue } from './json-types.js';
import { isJsonObject } from './json-types.js';
import {
  type Answered,
  type Detection,
  type HandshakeProbe,
  ServerStartError,
  patienceAfter,
  askAgain,
  askEachAgain,
  assembleDetection,
  describeError,
} from './detect.js';
import { HANDSHAKE_VERSIONS, STATELESS_VERSIONS, initializeRequest } from './handshake.js';
import { causeOf, contentTypeOf, readAnswer } from './http-answers.js';
import { POST_HEADERS, sessionHeaders, statelessHeaders } from './http-request-headers.js';

const PROBE_ID = 'mcp-conform:probe';
const DELETE_WAIT_MS = 2000;

export async function detectHttpServer(url: string, startupTimeoutMs: number): Promise<Detection> {
  const askInitialize = (version: string) => probeInitialize(url, version, startupTimeoutMs);
  const initializing = HANDSHAKE_VERSIONS.map(askInitialize);
  const patience = Promise.all(initializing).then(patienceAfter);
  const [discover, ...handshake] = await Promise.all([probeDiscover(url, startupTimeoutMs, patience), ...initializing]);
  if (discover.silent && handshake.every((probe) => probe.silent))
    throw new ServerStartError(`the server at ${url} answered none of the probes: ${discover.problem ?? 'no answer'}`);
  const askDiscover = () => probeDiscover(url, patienceAfter(handshake) ?? startupTimeoutMs);
  return assembleDetection('http', await askAgain(discover, askDiscover), await askEachAgain(handshake, askInitialize));
}

async function probeInitialize(url: string, version: string, timeoutMs: number): Promise<Answered & { probe: HandshakeProbe }> {
  const exchange = await postProbe(url, initializeRequest(PROBE_ID, version), {}, timeoutMs);
  const result = isJsonObject(exchange.answer?.result) ? exchange.answer.result : undefined;
  const negotiated = typeof result?.protocolVersion === 'string' ? result.protocolVersion : undefined;
  const sessionId = exchange.response?.headers.get('mcp-session-id') ?? undefined;
  if (sessionId !== undefined) await deleteSession(url, sessionHeaders(sessionId, negotiated));
  const base = answeredBy(exchange);
  if (result !== undefined && negotiated !== undefined) return { ...base, probe: { requested: version, negotiated, result } };
  return { ...base, probe: { requested: version, problem: exchange.problem } };
}

async function probeDiscover(
  url: string,
  timeoutMs: number,
  patience?: Promise<number | undefined>,
): Promise<Answered & { result?: JsonObject; problem?: string }> {
  const version = STATELESS_VERSIONS[0] ?? '';
  const request = {
    jsonrpc: '2.0',
    id: PROBE_ID,
    method: 'server/discover',
    params: { _meta: { 'io.modelcontextprotocol/protocolVersion': version, 'io.modelcontextprotocol/clientCapabilities': {} } },
  };
  const exchange = await postProbe(url, request, statelessHeaders(request, version), timeoutMs, patience);
  const base = answeredBy(exchange);
  if (isJsonObject(exchange.answer?.result)) return { ...base, result: exchange.answer.result };
  return { ...base, problem: exchange.problem };
}

/** Statuses that ask the client to come back later rather than answer the question. */
const TRANSIENT_STATUSES = new Set([429, 502, 503, 504]);

function answeredBy(exchange: ProbeExchange): Answered {
  const status = exchange.response?.status;
  const transient = status !== undefined && TRANSIENT_STATUSES.has(status);
  return { silent: exchange.response === undefined, transient, stderr: '', waitedMs: exchange.waitedMs };
}

interface ProbeExchange {
  response?: Response;
  answer?: JsonObject;
  /** Why there is no result, for the header: the error, the HTTP status, or why nothing came. */
  problem: string;
  waitedMs: number;
}

/** POSTs one probe and reads its answer to the end (or until the timeout, or `patience` after it gives a number). */
async function postProbe(
  url: string,
  request: JsonValue,
  headers: Record<string, string>,
  timeoutMs: number,
  patience?: Promise<number | undefined>,
): Promise<ProbeExchange> {
  const started = Date.now();
  const controller = new AbortController();
  const { signal } = controller;
  const abortIn = (ms: number) => setTimeout(() => controller.abort(), ms).unref();
  abortIn(timeoutMs);
  void patience?.then((ms) => ms !== undefined && abortIn(ms));
  let response: Response | undefined;
  let answer: JsonObject | undefined;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { ...POST_HEADERS, ...headers },
      body: JSON.stringify(request),
      signal,
    });
    await readAnswer(response, (item) => {
      if (item.kind === 'message' && isJsonObject(item.value) && item.value.id === PROBE_ID) answer ??= item.value;
    });
  } catch (error) {
    const waited = `no answer within ${Date.now() - started} ms`;
    const problem = response === undefined ? (signal.aborted ? waited : `cannot reach it: ${causeOf(error)}`) : waited;
    return { ...(response ? { response } : {}), problem, waitedMs: Date.now() - started };
  }
  const status = `HTTP ${response.status}`;
  const problem = answer
    ? `${status}, ${describeError(answer)}`
    : `${status} ${contentTypeOf(response) || 'without a body'}, no JSON-RPC answer`;
  return { response, ...(answer ? { answer } : {}), problem, waitedMs: Date.now() - started };
}

async function deleteSession(url: string, headers: Record<string, string>): Promise<void> {
  try {
    const response = await fetch(url, {
      method: 'DELETE',
      headers,
      signal: AbortSignal.timeout(DELETE_WAIT_MS),
    });
    await response.body?.cancel();
  } catch {
    // The session ends on its own when the server expires it; detection goes on.
  }
}
