// One fixture's conversation with an MCP endpoint over Streamable HTTP, seen by the Session
// the way stdio is: each client message is one POST, and what comes back (a JSON body, or the
// events of an SSE stream) becomes server messages in arrival order.
//
// - Handshake era (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports
//   "Streamable HTTP"): the initialize answer issues the session (`Mcp-Session-Id`), which every
//   later request carries; after `notifications/initialized` the client opens the session's GET
//   stream, where the server sends what belongs to no request (resource updates, list changes),
//   unless the server answers 405 (it offers none); at the end the client DELETEs the session.
// - 2026-07-28 (https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http):
//   no session; each request stands alone, with its body mirrored in headers
//   (http-request-headers.ts). A client cancels by closing the request's stream, not with
//   notifications/cancelled, so such a notification closes that stream instead of being sent.
//
// POSTs go out in the fixture's order: each waits until the server has begun answering the
// previous one (an initialize: until its answer is read, for the session id), but at most
// ORDER_WAIT_MS, so a request that runs long does not hold back the cancellation that follows it.
// A request whose id differs only in JSON type from one still in flight (7 and "7") waits until
// that one is answered: servers that key their response streams by the id's text (the Python
// SDK's streamable_http.py: `request_id = str(message.id)`) lose one of the two answers when
// both are in flight, and whether they are depends on timing. Sent one after the other, the
// pair tests what the fixtures grade, that each answer echoes its id with its type, the same in
// every run.
//
// A POST's event stream that ends before the response may be resumed: once the server has sent
// an event with an id, "the server MAY close the connection (without terminating the SSE stream)
// at any time ... The client SHOULD then "poll" the SSE stream by attempting to reconnect", with
// a GET carrying Last-Event-ID, after the stream's `retry` time ("The client MUST respect the
// retry field"). Only a stream that ends for good without the response is a finding, at should:
// "The SSE stream SHOULD eventually include a JSON-RPC response for the JSON-RPC request sent in
// the POST body"; the missing response itself is the fixture's expectation, graded at its level.
// The runner's own requests (the handshake, the fences that show a turn is over) are judged where
// they matter: the handshake's answer is a step of the fixture, and a fence left unanswered only
// leaves the fixture to its step timeout, as on stdio; their streams are no finding of the fixture.
import type { JsonObject, JsonValue } from './json-types.js';
import { isJsonObject } from './json-types.js';
import { idKey, messageKind } from './message-kinds.js';
import { type ServerConnection, type ServerEvent, untilWokenOr } from './server-connection.js';
import { type AnswerItem, causeOf, contentTypeOf, excerpt, isAbort, readAnswer } from './http-answers.js';
import { POST_HEADERS, sessionHeaders, statelessHeaders, statelessVersion } from './http-request-headers.js';
import { type HttpOutcome, type HttpRequestSpec, LAST_EVENT_ID, PROTOCOL_VERSION, SESSION_ID } from './http-exchange.js';
import { isWellFormedRequest } from './http-refusals.js';
import { isValidRequestId } from './envelope-rules.js';
import { fetchWithHost } from './http-host-request.js';
import type { Level } from './fixture-types.js';

const ORDER_WAIT_MS = 200;
/** How long the stream answering a resumption is read: what a server replays, it sends at once. */
const RESUMED_READ_MS = 1000;
const DELETE_WAIT_MS = 2000;
/** How many times one POST's stream is resumed (each time the server sent a new event id first). */
const MAX_RESUMPTIONS = 5;
const LOG_LIMIT = 64 * 1024;
/** The ids of the runner's own requests (handshake, fences) start so; fixtures' ids never do. */
const RUNNER_ID_PREFIX = 'mcp-conform:';

const HANDSHAKE_TRANSPORT = 'https://modelcontextprotocol.io/specification/2025-11-25/basic/transports';
const STATELESS_TRANSPORT = 'https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http';
const ANSWER_RULE = `a POST of requests is answered with Content-Type application/json or text/event-stream; of notifications or responses only, with 202 Accepted and no body`;
const JSON_ANSWER_RULE = `${HANDSHAKE_TRANSPORT}: If the input is a JSON-RPC request, the server MUST either return Content-Type: text/event-stream, to initiate an SSE stream, or Content-Type: application/json, to return one JSON object`;
const STREAM_ANSWER_RULE = `${HANDSHAKE_TRANSPORT}: The SSE stream SHOULD eventually include a JSON-RPC response for the JSON-RPC request sent in the POST body`;
const STATELESS_STREAM_ANSWER_RULE = `${STATELESS_TRANSPORT}: The final JSON-RPC response SHOULD terminate the stream`;
const GET_RESPONSE_RULE = `${HANDSHAKE_TRANSPORT}: on the GET stream the server MUST NOT send a JSON-RPC response unless resuming a stream of an earlier request`;
const EVENT_ID_RULE = `${HANDSHAKE_TRANSPORT}: Servers MAY attach an id field to their SSE events; if present, the ID MUST be globally unique across all streams within that session`;
const GET_RULE = `${HANDSHAKE_TRANSPORT}: a GET to the MCP endpoint returns Content-Type text/event-stream, or 405 Method Not Allowed when the server offers no such stream`;

export class HttpConnection implements ServerConnection {
  readonly events: ServerEvent[] = [];
  private log = '';
  private sessionId: string | undefined;
  private sessionVersion: string | undefined;
  private listenStreamAsked = false;
  /** The SSE event ids seen in this session, which must never repeat (no stream is resumed here). */
  private readonly eventIds = new Set<string>();
  /** The last SSE event id on a POST's stream: where a resumption (`Last-Event-ID`) would start. */
  private lastPostEventId: string | undefined;
  /** What the next POST waits for (see ORDER_WAIT_MS). */
  private previous: Promise<unknown> = Promise.resolve();
  /** Every response not yet read to its end, so that the end of the fixture can close them. */
  private readonly open = new Set<AbortController>();
  /** The requests not yet answered, by the text of their id (String(id)), with their POST's end. */
  private readonly inFlight = new Map<string, { key: string; done: Promise<void> }>();
  /** 2026-07-28 requests by id, with their stream while it is open. */
  private readonly statelessRequests = new Map<string, AbortController | undefined>();
  /** POST streams being resumed now (resumePostStream). */
  private resumptions = 0;
  private ending: Promise<void> | undefined;
  private ended = false;
  private wake: (() => void) | undefined;

  /**
   * `answerWaitMs`: how long a POST after initialize may wait for the initialize answer.
   * `listen`: whether to open the session's GET stream; a fixture with http request sections
   * makes its own requests, and a second GET stream may be refused (409) where one is allowed.
   */
  constructor(
    private readonly url: string,
    private readonly answerWaitMs: number,
    private readonly listen = true,
  ) {}

  get hasExited(): boolean {
    return this.ended && this.open.size === 0;
  }

  get resumingStreams(): boolean {
    return this.resumptions > 0;
  }

  get stderrText(): string {
    return this.log;
  }

  async send(message: JsonValue): Promise<void> {
    if (this.ending !== undefined || this.cancelStateless(message)) return;
    await this.previous;
    await this.typeTwinsAnswered(message);
    const { started, done } = this.post(message, this.reusesIdInFlight(message));
    this.trackInFlight(message, done);
    const method = isJsonObject(message) ? message.method : undefined;
    if (method === 'initialize' && statelessVersion(message) === undefined) this.previous = within(done, this.answerWaitMs);
    else if (method === 'notifications/initialized')
      this.previous = within(
        done.then(() => this.openListenStream()),
        this.answerWaitMs,
      );
    else this.previous = within(started, ORDER_WAIT_MS);
  }

  /** Waits (at most the answer wait) for the requests in flight whose id reads like one of this message's with another type. */
  private async typeTwinsAnswered(message: JsonValue): Promise<void> {
    const twins = requestObjects(message).flatMap((item) => {
      const flying = this.inFlight.get(String(item.id));
      return flying !== undefined && flying.key !== idKey(item) ? [flying.done] : [];
    });
    if (twins.length > 0) await within(Promise.all(twins), this.answerWaitMs);
  }

  /**
   * Whether the message repeats the id of a request still in flight: the client broke "The request
   * ID MUST NOT have been previously used by the requestor within the same session", and the spec
   * does not say which of the two POSTs the server answers.
   */
  private reusesIdInFlight(message: JsonValue): boolean {
    return requestObjects(message).some((item) => this.inFlight.get(String(item.id))?.key === idKey(item));
  }

  private trackInFlight(message: JsonValue, done: Promise<void>): void {
    for (const item of requestObjects(message)) {
      const entry = { key: idKey(item), done };
      this.inFlight.set(String(item.id), entry);
      void done.finally(() => {
        if (this.inFlight.get(String(item.id)) === entry) this.inFlight.delete(String(item.id));
      });
    }
  }

  /**
   * Sends a fixture's `-- http request --` as written, with the session's id and version in place
   * of their placeholders, once the POSTs before it have been answered. Reads a JSON body to its end;
   * an event stream is left unread (a GET stream stays open).
   */
  async exchange(request: HttpRequestSpec, timeoutMs: number): Promise<HttpOutcome | { skip: string } | { problem: string }> {
    await this.previous;
    if (request.needsSession && this.sessionId === undefined)
      return { skip: 'the server issued no Mcp-Session-Id: it keeps no sessions, which the transport allows' };
    if (request.needsEventId && this.lastPostEventId === undefined)
      return { skip: 'the server put no SSE event id on its answers: it offers no resumption, which the transport allows' };
    const headers = new Headers(
      request.method === 'GET' ? { Accept: 'text/event-stream' } : request.method === 'POST' ? POST_HEADERS : {},
    );
    const own: string[] = [];
    for (const [name, value] of request.headers) {
      const filled = value
        .replaceAll(SESSION_ID, this.sessionId ?? '')
        .replaceAll(PROTOCOL_VERSION, this.sessionVersion ?? '')
        .replaceAll(LAST_EVENT_ID, this.lastPostEventId ?? '');
      if (filled === '') headers.delete(name);
      else headers.set(name, filled);
      if (!value.includes('<<')) own.push(`${name}: ${filled}`);
    }
    const described = `${request.method} ${describeBody(request.body)}${own.length > 0 ? ` with ${own.join(', ')}` : ''}`;
    const controller = this.track();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const init = { method: request.method, headers, signal: controller.signal };
      const withBody = request.method === 'POST' ? { ...init, body: request.body } : init;
      const response = await (headers.has('host') ? fetchWithHost(this.url, withBody) : fetch(this.url, withBody));
      const contentType = contentTypeOf(response);
      this.note(`${described} -> ${response.status} ${contentType}`);
      const body = contentType === 'text/event-stream' ? undefined : await response.text();
      const events = body === undefined && headers.has('last-event-id') ? await resumedEvents(response) : undefined;
      if (body === undefined) controller.abort();
      return {
        request: described,
        status: response.status,
        contentType,
        headers: response.headers,
        body,
        ...(events ? { events } : {}),
      };
    } catch (error) {
      return { problem: `${described}: ${isAbort(error) ? `no answer within ${timeoutMs} ms` : causeOf(error)}` };
    } finally {
      clearTimeout(timer);
      this.release(controller);
    }
  }

  write(): Promise<void> {
    this.problem('raw bytes cannot be sent over HTTP: the fixture needs stdio', HANDSHAKE_TRANSPORT);
    return Promise.resolve();
  }

  end(): void {
    this.ending ??= this.closeSession();
  }

  async waitForEvent(seenCount: number, deadline: number): Promise<void> {
    if (this.events.length > seenCount || this.hasExited) return;
    await untilWokenOr(deadline, (wake) => (this.wake = wake));
  }

  async stop(graceMs: number): Promise<void> {
    this.end();
    await within(this.ending ?? Promise.resolve(), graceMs);
    for (const controller of this.open) controller.abort();
    this.ended = true;
  }

  /** POSTs one message; `started` settles when the status is known, `done` when the body is read. */
  private post(message: JsonValue, reusedId: boolean): { started: Promise<void>; done: Promise<void> } {
    const stateless = statelessVersion(message);
    const headers = {
      ...POST_HEADERS,
      ...(stateless !== undefined ? statelessHeaders(message, stateless) : sessionHeaders(this.sessionId, this.sessionVersion)),
    };
    const controller = this.track();
    if (stateless !== undefined) for (const id of requestIds(message)) this.statelessRequests.set(id, controller);
    let markStarted = () => {};
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    const done = (async () => {
      try {
        const response = await fetch(this.url, {
          method: 'POST',
          headers,
          body: JSON.stringify(message),
          signal: controller.signal,
        });
        markStarted();
        await this.readPostAnswer(message, response, stateless !== undefined, reusedId);
      } catch (error) {
        if (!isAbort(error))
          this.problem(`POST ${describe(message)} failed: ${causeOf(error)}`, `${HANDSHAKE_TRANSPORT}: ${ANSWER_RULE}`);
      } finally {
        markStarted();
        this.release(controller);
        for (const id of requestIds(message)) if (this.statelessRequests.has(id)) this.statelessRequests.set(id, undefined);
      }
    })();
    return { started, done };
  }

  private async readPostAnswer(message: JsonValue, response: Response, stateless: boolean, reusedId: boolean): Promise<void> {
    const type = contentTypeOf(response);
    this.note(`POST ${describe(message)} -> ${response.status} ${type}`);
    const where = `POST ${describe(message)} answered ${response.status}`;
    const rule = `${stateless ? STATELESS_TRANSPORT : HANDSHAKE_TRANSPORT}: ${ANSWER_RULE}`;
    // An HTTP error is judged by its JSON-RPC body; without one it is a refusal (http-refusals.ts).
    const failed = response.status >= 400;
    // Input without requests may be refused with an HTTP error whose body MAY be a JSON-RPC error
    // without an id: that body is part of the refusal, not a response to a notification.
    const refusedInput = failed && requestIds(message).length === 0;
    const gathered = this.gathersBatch(message) ? ([] as JsonValue[]) : undefined;
    const stream: PostStream = { answered: false, responded: new Set(), eventId: undefined, retryMs: undefined };
    const onItem = (item: AnswerItem): void => {
      if (item.kind === 'retry') stream.retryMs = item.ms;
      else if (item.kind === 'event-id') {
        stream.eventId = item.id;
        this.lastPostEventId = item.id;
        this.noticeEventId(item.id, stateless);
      } else if (item.kind === 'message' && (!failed || isJsonRpc(item.value)) && !refusedInput) {
        stream.answered = true;
        const value = failed ? this.refusalAnswer(message, item.value, where) : item.value;
        if (value === undefined) return;
        for (const response of Array.isArray(value) ? value : [value])
          if (messageKind(response) === 'response' && isJsonObject(response)) stream.responded.add(idKey(response));
        this.noticeSession(message, value, response);
        if (gathered !== undefined && answersRequestIn(message, value)) gathered.push(value);
        else this.push({ kind: 'message', value });
      } else if (item.kind === 'problem' && !failed) {
        stream.answered = true;
        this.problem(`${where} with ${item.problem}`, rule);
      }
    };
    await readAnswer(response, onItem);
    if (type === 'text/event-stream' && !failed && !stateless) await this.resumePostStream(message, stream, onItem);
    if (gathered !== undefined && gathered.length > 0) this.push({ kind: 'message', value: gathered });
    if (stream.answered) return;
    if (failed) this.refused(message, response);
    else if (requestIds(message).length === 0) {
      if (response.status !== 202) this.problem(`${where}, not 202 Accepted`, rule);
    } else if (reusedId) this.note(`${where} ${type || 'with no body'}, no answer: its id was in flight already`);
    else if (isRunnersOwn(message)) this.note(`${where} ${type || 'with no body'}, no answer to the runner's own request`);
    else if (type === 'text/event-stream')
      this.problem(
        `${where} ${type}: the stream ended without the response`,
        stateless ? STATELESS_STREAM_ANSWER_RULE : STREAM_ANSWER_RULE,
        'should',
      );
    else this.problem(`${where} ${type || 'with no body'}: the request got no answer`, JSON_ANSWER_RULE);
  }

  /**
   * The JSON-RPC body of an HTTP error that answers a POST of one well-formed request: an error
   * without an id (null or absent) is that request's answer. JSON-RPC gives an error id null
   * when the request's id could not be read (https://www.jsonrpc.org/specification#response_object),
   * and a server that refuses a POST at the HTTP layer (an unknown session's 404, an overload's
   * 429 or 503) may do so before it reads the body; over HTTP the POST it answers says which
   * request that was. So the answer is judged as the request's (an error where a result is
   * owed fails, at the fixture's level), not reported as a response nobody asked for. The
   * runner's own ping (a fence, sent to see a step is over) refused is no answer at all: it shows
   * nothing about the requests before it; undefined.
   */
  private refusalAnswer(message: JsonValue, answer: JsonValue, where: string): JsonValue | undefined {
    if (!isWellFormedRequest(message) || !isJsonObject(message) || !isErrorWithoutId(answer)) return answer;
    const fence = isRunnersOwn(message) && message.method === 'ping';
    this.note(`${where} with an error without an id: ${fence ? "the runner's own ping refused" : 'taken as its answer'}`);
    return fence ? undefined : { ...answer, id: message.id ?? null };
  }

  /**
   * Reconnects to a POST's stream that ended before the responses to its requests, from its last
   * event id (see the head of this file); what the resumed stream carries is read as the POST's.
   */
  private async resumePostStream(message: JsonValue, stream: PostStream, onItem: (item: AnswerItem) => void): Promise<void> {
    const unanswered = () => requestIds(message).some((id) => !stream.responded.has(id));
    if (stream.eventId === undefined || !unanswered()) return;
    this.resumptions += 1;
    try {
      const deadline = Date.now() + this.answerWaitMs;
      for (let attempt = 0; attempt < MAX_RESUMPTIONS && unanswered() && this.ending === undefined; attempt += 1) {
        const from = stream.eventId;
        const wait = stream.retryMs ?? 0;
        if (from === undefined || Date.now() + wait >= deadline) return;
        stream.eventId = undefined;
        await new Promise((resolve) => setTimeout(resolve, wait));
        if (!(await this.resumeFrom(from, message, onItem))) return;
      }
    } finally {
      this.resumptions -= 1;
      this.notify();
    }
  }

  /** One GET with Last-Event-ID, its stream read to the end; false when the server did not resume it. */
  private async resumeFrom(from: string, message: JsonValue, onItem: (item: AnswerItem) => void): Promise<boolean> {
    const controller = this.track();
    try {
      const headers = {
        Accept: 'text/event-stream',
        ...sessionHeaders(this.sessionId, this.sessionVersion),
        'Last-Event-ID': from,
      };
      const response = await fetch(this.url, { method: 'GET', headers, signal: controller.signal });
      const type = contentTypeOf(response);
      this.note(
        `GET with Last-Event-ID ${JSON.stringify(from)} (resuming POST ${describe(message)}) -> ${response.status} ${type}`,
      );
      if (response.status !== 200 || type !== 'text/event-stream') {
        await response.body?.cancel();
        return false;
      }
      await readAnswer(response, onItem);
      return true;
    } catch (error) {
      if (!isAbort(error)) this.note(`resuming POST ${describe(message)} failed: ${causeOf(error)}`);
      return false;
    } finally {
      this.release(controller);
    }
  }

  /**
   * In a 2025-03-26 session the responses to a POSTed batch may come one by one: "These
   * responses MAY be batched" (https://modelcontextprotocol.io/specification/2025-03-26/basic/transports).
   * They are gathered into the one batch response JSON-RPC describes, so that transcripts match.
   */
  private gathersBatch(message: JsonValue): boolean {
    return (
      Array.isArray(message) && message.length > 0 && (this.sessionVersion === undefined || this.sessionVersion < '2025-06-18')
    );
  }

  private refused(message: JsonValue, response: Response): void {
    const type = contentTypeOf(response);
    const problem = `the server answered POST ${describe(message)} with HTTP ${response.status}${type === '' ? '' : ` (${type})`} and no JSON-RPC body`;
    this.note(problem);
    const ids = requestIds(message);
    const items = Array.isArray(message) ? message : [message];
    const idless = Array.isArray(message) || items.length > ids.length;
    const wellFormed = items.filter(isWellFormedRequest).map((item) => idKey(item as JsonObject));
    this.push({ kind: 'refused', problem, ids, wellFormed, idless, batch: Array.isArray(message) });
  }

  /** Event ids identify where a stream resumes, so within a handshake-era session one never repeats. */
  private noticeEventId(id: string, stateless: boolean): void {
    if (stateless || this.sessionId === undefined) return;
    if (this.eventIds.has(id))
      this.problem(`the SSE event id ${JSON.stringify(id)} was sent twice in one session`, EVENT_ID_RULE);
    this.eventIds.add(id);
  }

  /** A result to our initialize opens the session: its id (if the server issued one) goes on every later request. */
  private noticeSession(sent: JsonValue, answer: JsonValue, response: Response): void {
    if (!isJsonObject(sent) || sent.method !== 'initialize' || !isJsonObject(answer) || !isJsonObject(answer.result)) return;
    if (JSON.stringify(answer.id) !== JSON.stringify(sent.id)) return;
    this.sessionId = response.headers.get('mcp-session-id') ?? this.sessionId;
    const version = answer.result.protocolVersion;
    if (typeof version === 'string') this.sessionVersion = version;
  }

  /** Opens the session's GET stream once; resolves when the server has said whether it offers one. */
  private async openListenStream(): Promise<void> {
    if (!this.listen || this.listenStreamAsked || this.sessionId === undefined || this.ending !== undefined) return;
    this.listenStreamAsked = true;
    const controller = this.track();
    try {
      const headers = { Accept: 'text/event-stream', ...sessionHeaders(this.sessionId, this.sessionVersion) };
      const response = await fetch(this.url, { method: 'GET', headers, signal: controller.signal });
      const type = contentTypeOf(response);
      this.note(`GET -> ${response.status} ${type}`);
      if (response.status === 405) return this.release(controller);
      if (response.status !== 200 || type !== 'text/event-stream') {
        this.problem(`GET (the session's stream) answered ${response.status} ${type}`, GET_RULE);
        return this.release(controller);
      }
      void this.readListenStream(response, controller);
    } catch (error) {
      if (!isAbort(error)) this.problem(`GET (the session's stream) failed: ${causeOf(error)}`, GET_RULE);
      this.release(controller);
    }
  }

  private async readListenStream(response: Response, controller: AbortController): Promise<void> {
    try {
      await readAnswer(response, (item) => {
        if (item.kind === 'event-id') return this.noticeEventId(item.id, false);
        if (item.kind === 'problem') return this.problem(`the session's GET stream sent ${item.problem}`, GET_RULE);
        if (item.kind === 'retry') return;
        if (messageKind(item.value) === 'response' || messageKind(item.value) === 'batch')
          this.problem(`the session's GET stream sent a response: ${excerpt(JSON.stringify(item.value))}`, GET_RESPONSE_RULE);
        this.push({ kind: 'message', value: item.value });
      });
    } catch (error) {
      if (!isAbort(error)) this.problem(`the session's GET stream failed: ${causeOf(error)}`, GET_RULE);
    } finally {
      this.release(controller);
    }
  }

  /** On 2026-07-28 HTTP, closing a request's stream is its cancellation: no notification goes out. */
  private cancelStateless(message: JsonValue): boolean {
    if (!isJsonObject(message) || message.method !== 'notifications/cancelled' || !isJsonObject(message.params)) return false;
    const key = JSON.stringify(message.params.requestId ?? null);
    if (!this.statelessRequests.has(key)) return false;
    const stream = this.statelessRequests.get(key);
    this.note(`cancel ${key}: ${stream ? 'closed its stream' : 'its stream had already ended'}`);
    stream?.abort();
    return true;
  }

  /** The end of the fixture: DELETE the session (405: the server keeps no such thing), then close what is open. */
  private async closeSession(): Promise<void> {
    await this.previous;
    if (this.sessionId !== undefined) {
      try {
        const headers = sessionHeaders(this.sessionId, this.sessionVersion);
        const response = await fetch(this.url, { method: 'DELETE', headers, signal: AbortSignal.timeout(DELETE_WAIT_MS) });
        this.note(`DELETE -> ${response.status}`);
        await response.body?.cancel();
      } catch (error) {
        this.note(`DELETE failed: ${causeOf(error)}`);
      }
    }
    for (const controller of this.open) controller.abort();
    this.ended = true;
    this.notify();
  }

  private track(): AbortController {
    const controller = new AbortController();
    this.open.add(controller);
    return controller;
  }

  private release(controller: AbortController): void {
    this.open.delete(controller);
    this.notify();
  }

  private problem(problem: string, rule: string, level?: Level): void {
    this.note(problem);
    this.push({ kind: 'transport', problem, rule, ...(level ? { level } : {}) });
  }

  private push(event: ServerEvent): void {
    this.events.push(event);
    this.notify();
  }

  private note(line: string): void {
    this.log = `${this.log}[http] ${line}\n`.slice(-LOG_LIMIT);
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

/** What one POST's stream has carried so far, across its resumptions. */
interface PostStream {
  /** Any message (or unreadable item) arrived. */
  answered: boolean;
  /** The ids (idKey) of the responses that arrived. */
  responded: Set<string>;
  /** The last event id not yet resumed from. */
  eventId: string | undefined;
  /** The reconnection time the server set (`retry:`). */
  retryMs: number | undefined;
}

/**
 * The ids of the requests a POST carried. A message whose id is null or fractional is no MCP
 * request ("the ID MUST NOT be null", https://modelcontextprotocol.io/specification/2025-11-25/basic
 * "Requests"): the transport's rule for requests does not bind its answer; the fixture's own
 * expectation grades it, at its level.
 */
function requestIds(message: JsonValue): string[] {
  return requestObjects(message).map(idKey);
}

/** Whether every request the message carries is one of the runner's own (its id starts with RUNNER_ID_PREFIX). */
function isRunnersOwn(message: JsonValue): boolean {
  const ids = requestObjects(message).map((item) => item.id);
  return ids.length > 0 && ids.every((id) => typeof id === 'string' && id.startsWith(RUNNER_ID_PREFIX));
}

/** The requests in a message or batch that carry a valid id. */
function requestObjects(message: JsonValue): JsonObject[] {
  const items = Array.isArray(message) ? message : [message];
  return items.filter(
    (item): item is JsonObject =>
      isJsonObject(item) && typeof item.method === 'string' && 'id' in item && isValidRequestId(item.id),
  );
}

/** Whether `answer` is a single response to one of the requests `message` carried (by id). */
function answersRequestIn(message: JsonValue, answer: JsonValue): boolean {
  return messageKind(answer) === 'response' && isJsonObject(answer) && requestIds(message).includes(idKey(answer));
}

/** A fixture's raw body in a few words: the method and id of the message it holds, or its start. */
function describeBody(body: string): string {
  try {
    return describe(JSON.parse(body) as JsonValue);
  } catch {
    return body === '' ? '(no body)' : `the body ${JSON.stringify(excerpt(body).slice(0, 60))}`;
  }
}

function isErrorWithoutId(value: JsonValue): value is JsonObject {
  return isJsonObject(value) && isJsonObject(value.error) && !('method' in value) && (value.id ?? null) === null;
}

function isJsonRpc(value: JsonValue): boolean {
  return Array.isArray(value) || (isJsonObject(value) && value.jsonrpc !== undefined);
}

function describe(message: JsonValue): string {
  if (Array.isArray(message)) return `a batch of ${message.length}`;
  if (!isJsonObject(message)) return 'a message';
  const method = typeof message.method === 'string' ? message.method : 'a response';
  return 'id' in message ? `${method} (id ${JSON.stringify(message.id)})` : method;
}

/** Settles when `promise` does or after `ms`, whichever comes first; never rejects. */
function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([promise.then(noop, noop), timeout]).finally(() => clearTimeout(timer));
}

function noop(): void {}

/** The messages a resumed stream (the answer to a GET with Last-Event-ID) carries within RESUMED_READ_MS. */
async function resumedEvents(response: Response): Promise<JsonValue[]> {
  const events: JsonValue[] = [];
  const reading = readAnswer(response, (item) => {
    if (item.kind === 'message') events.push(item.value);
  }).catch(() => undefined);
  await Promise.race([reading, new Promise((resolve) => setTimeout(resolve, RESUMED_READ_MS).unref())]);
  return events;
}
