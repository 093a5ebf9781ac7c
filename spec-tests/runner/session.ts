// Plays one fixture against one running server: sends the client sections, waits for and
// pairs the server's messages, applies the always-on checks (stdout purity, JSON-RPC envelope,
// optional schema) and stops at the first failing step so that the report stays short.
import type { Fixture, Step } from './fixture-types.js';
import { revisionOf, strictestLevel, type Level } from './fixture-types.js';
import type { Failure, FixtureResult, Observation } from './fixture-result.js';
import type { JsonObject, JsonValue } from './json-types.js';
import { isJsonObject } from './json-types.js';
import type { ServerConnection } from './server-connection.js';
import type { SchemaValidator } from './schema-validator.js';
import { checkEnvelope, isValidRequestId } from './envelope-rules.js';
import { describeMessage, idKey, messageKind } from './message-kinds.js';
import { compareMessage, couldPair, isMethodMessage, wrongFormOf } from './pairing.js';
import { describe, matchValue, parseMarker } from './matchers.js';
import { PURITY_RULE } from './stdout-reader.js';
import { unmetRequirement } from './requirements-check.js';
import { HANDSHAKE_RULE, NEWEST_HANDSHAKE_VERSION, handshakeRequirements, handshakeSteps } from './handshake.js';
import { sentRequestsInRaw } from './raw-requests.js';
import { collectCaptures, fillEchoes, missingCapture, type Captures } from './captures.js';
import { type HttpOutcome, type HttpResponseSpec, judgeHttpOutcome } from './http-exchange.js';
import { type Refusal, refusalCovers, useRefusal } from './http-refusals.js';

export interface SessionOptions {
  stepTimeoutMs: number;
  startupTimeoutMs: number;
  schema: SchemaValidator | undefined;
  update: boolean;
  /** The initialize result of the session this fixture continues on a shared process (process-pool.ts): no handshake is played. */
  openedWith?: JsonObject;
}

interface PlannedStep {
  step: Step;
  where: string;
  rule: string[];
}

interface Received {
  value: JsonValue;
  seq: number;
  stepIndex: number;
  consumed: boolean;
}

interface Expectation {
  value: JsonValue;
  line: number;
  optional: boolean;
  sectionIndex: number;
  planned: PlannedStep;
  paired: boolean;
}

// Pipes merge writes that follow each other closely; a pause makes each raw chunk its own read.
const RAW_CHUNK_GAP_MS = 25;
const EXIT_GRACE_MS = 2000;
const STOP_GRACE_MS = 500;
// A fence is a ping the runner sends after requests whose answers need no handler (see
// `answersAtOnce`): once the fence is answered, those answers get this long, or twice what the
// fence took if that is longer, then are missing. A server that handles requests concurrently
// may answer the fence first, and on a loaded machine everything is slower: the grace grows
// with the delay the server shows, so that the verdict does not depend on the load.
const FENCE_PREFIX = 'mcp-conform:fence:';
const FENCE_GRACE_MS = 250;
const AT_ONCE_ERROR_CODES: ReadonlySet<JsonValue> = new Set([-32700, -32600, -32601, -32602]);

const UNEXPECTED_RULE = [
  'https://modelcontextprotocol.io/specification/2025-06-18/basic: every request gets exactly one response and notifications MUST NOT be answered (rule 1.3, 1.4)',
];
const SERVER_REQUEST_RULE = [
  'https://modelcontextprotocol.io/specification/2025-06-18/basic/lifecycle: the server MUST NOT send requests for client features the client did not declare (rule 8)',
];
const REQUEST_BODY_RULE =
  'https://modelcontextprotocol.io/specification/2025-11-25/basic/transports: If the input is a JSON-RPC request, the server MUST either return Content-Type: text/event-stream, to initiate an SSE stream, or Content-Type: application/json, to return one JSON object';
const EXIT_RULE = [
  'https://modelcontextprotocol.io/specification/2025-06-18/basic/lifecycle: on stdin EOF the server SHOULD exit promptly (rule 2.7, M18)',
];

export class Session {
  private readonly plan: PlannedStep[];
  private readonly received: Received[] = [];
  private readonly expectations: Expectation[] = [];
  private readonly sentRequests = new Map<string, JsonObject>();
  private readonly failures: Failure[] = [];
  private readonly observations: Observation[] = [];
  private eventCursor = 0;
  private stepIndex = 0;
  private stdinClosed = false;
  private negotiatedVersion: string | undefined;
  private requirementsChecked = false;
  private skipReason: string | undefined;
  private readonly lastMethodSeq = new Map<number, number>();
  private fencesSent = 0;
  private fencesAnswered = 0;
  private readonly captures: Captures = new Map();
  /** The answer to the last `-- http request --`, for the `-- http response --` after it. */
  private httpOutcome: HttpOutcome | undefined;
  /** POSTs an HTTP server refused without a JSON-RPC body, not yet matched with what they stand for. */
  private readonly refusals: Refusal[] = [];

  constructor(
    private readonly fixture: Fixture,
    private readonly server: ServerConnection,
    private readonly options: SessionOptions,
  ) {
    this.plan = planSteps(fixture, options.openedWith === undefined);
    // A stateless fixture has no initialize to learn the version from: its header names it.
    if (fixture.header.protocol.kind === 'stateless') this.negotiatedVersion = fixture.header.protocol.version;
  }

  async run(): Promise<Omit<FixtureResult, 'durationMs'>> {
    let completed = true;
    if (this.options.openedWith !== undefined) this.continueSession(this.options.openedWith);
    for (const [index, planned] of (this.skipReason === undefined ? this.plan : []).entries()) {
      this.stepIndex = index;
      await this.runStep(planned);
      if (this.skipReason !== undefined || this.failures.length > 0) {
        completed = false;
        break;
      }
    }
    if (this.skipReason === undefined) await this.finish(completed);
    await this.server.stop(STOP_GRACE_MS);
    return this.result(completed);
  }

  private result(completed: boolean): Omit<FixtureResult, 'durationMs'> {
    const outcome = this.skipReason !== undefined ? 'skipped' : this.failures.length > 0 ? 'failed' : 'passed';
    const base = {
      name: this.fixture.name,
      path: this.fixture.path,
      revision: revisionOf(this.fixture.header.protocol),
      level: strictestLevel(this.failures),
      outcome,
      failures: this.failures,
      stderr: this.server.stderrText,
    } as const;
    return {
      ...base,
      ...(this.skipReason !== undefined ? { skipReason: this.skipReason } : {}),
      observations: this.observations,
      completed,
    };
  }

  private async runStep(planned: PlannedStep): Promise<void> {
    const step = planned.step;
    if (step.kind === 'send-json') await this.sendJson(step.messages.map((message) => message.value));
    if (step.kind === 'send-raw') await this.sendRaw(step.chunks);
    if (step.kind === 'expect') await this.expect(planned, step);
    if (step.kind === 'silence') await this.expectSilence(planned, step.ms);
    if (step.kind === 'close-stdin') this.closeStdin();
    if (step.kind === 'exit') await this.expectExit(planned, step.code, step.withinMs);
    if (step.kind === 'http-request') await this.sendHttp(step.request);
    if (step.kind === 'http-response') this.checkHttp(planned, step.response);
  }

  private async sendHttp(request: Extract<Step, { kind: 'http-request' }>['request']): Promise<void> {
    if (this.server.exchange === undefined) return this.fail('an http request section needs an HTTP server (--url)', []);
    const outcome = await this.server.exchange(request, this.timeoutMs());
    if ('skip' in outcome) this.skipReason = outcome.skip;
    else if ('problem' in outcome) this.fail(outcome.problem, this.plan[this.stepIndex]?.rule ?? []);
    else this.httpOutcome = outcome;
  }

  private checkHttp(planned: PlannedStep, response: HttpResponseSpec): void {
    if (this.httpOutcome === undefined) return;
    const verdict = judgeHttpOutcome(this.httpOutcome, response);
    if (verdict.kind === 'skip') this.skipReason = verdict.reason;
    if (verdict.kind !== 'fail') return;
    const { summary, behaviour } = verdict;
    this.failures.push({ level: this.levelOf(planned), behaviour, where: planned.where, summary, rule: planned.rule });
  }

  private async sendJson(messages: JsonValue[]): Promise<void> {
    for (const written of messages) {
      const missing = missingCapture(written, this.captures);
      if (missing !== undefined)
        return this.fail(
          `the client line sends <<echo:${missing}>>, but no server message matched <<capture:${missing}>> before it`,
          [],
        );
      const message = fillEchoes(written, this.captures);
      this.rememberRequests(message);
      await this.server.send(message);
    }
  }

  private async sendRaw(chunks: Buffer[]): Promise<void> {
    sentRequestsInRaw(chunks).forEach((message) => this.rememberRequests(message));
    for (const [index, chunk] of chunks.entries()) {
      if (index > 0) await sleep(RAW_CHUNK_GAP_MS);
      await this.server.write(chunk);
    }
  }

  private rememberRequests(message: JsonValue): void {
    const items = Array.isArray(message) ? message : [message];
    for (const item of items) {
      if (isJsonObject(item) && typeof item.method === 'string' && 'id' in item) this.sentRequests.set(idKey(item), item);
    }
  }

  private closeStdin(): void {
    this.stdinClosed = true;
    this.server.end();
  }

  private async expect(planned: PlannedStep, step: Extract<Step, { kind: 'expect' }>): Promise<void> {
    const section = step.messages.map((message) => this.register(message.value, message.line, step, planned));
    if (step.optional) return;
    const allPaired = () => section.every((expectation) => expectation.paired);
    const deadline = Date.now() + this.timeoutMs();
    // Silence is the slow answer to find: a server that drops a line says nothing. The fence
    // turns "wait out the timeout" into "the server answered what came after, not this".
    const fenceSent = Date.now();
    const fence = this.canFence(section) ? await this.sendFence() : undefined;
    const fenced = () => fence !== undefined && this.fencesAnswered >= fence && this.server.resumingStreams !== true;
    await this.waitUntil(() => allPaired() || fenced(), deadline);
    const grace = Math.max(FENCE_GRACE_MS, 2 * (Date.now() - fenceSent));
    if (!allPaired() && fenced()) await this.waitUntil(allPaired, Math.min(deadline, Date.now() + grace));
    if (!allPaired())
      this.reportUnpaired(
        planned,
        section.filter((expectation) => !expectation.paired),
        fenced(),
      );
    this.reportUnexpected(planned);
  }

  /**
   * A fence helps only where an answer cannot be slow: errors the JSON-RPC layer gives at once
   * (parse error, invalid request, unknown method, invalid params) and pings. A tool call may rightly be answered
   * after a later ping. Handshake-era sessions only (2026-07-28 has no ping), with stdin open.
   */
  private canFence(section: Expectation[]): boolean {
    if (this.fixture.header.protocol.kind === 'stateless' || this.stdinClosed || section.length === 0) return false;
    return section.every((expectation) => this.answersAtOnce(expectation.value));
  }

  private answersAtOnce(value: JsonValue): boolean {
    if (Array.isArray(value)) return value.every((item) => this.answersAtOnce(item));
    if (!isJsonObject(value)) return false;
    if (isJsonObject(value.error)) return expectedCodes(value.error.code).every((code) => AT_ONCE_ERROR_CODES.has(code));
    if ('result' in value) return this.sentRequest(value.id)?.method === 'ping';
    // Any answer at all (a result or an error, e.g. to an oversized ping): at once when every
    // request its id could belong to is a ping.
    const answered = [...this.sentRequests.values()].filter((sent) => matchValue(value.id ?? null, sent.id) === undefined);
    return answered.length > 0 && answered.every((sent) => sent.method === 'ping');
  }

  /** Sends a ping whose answer the session keeps to itself; returns how many fences must be answered. */
  private async sendFence(): Promise<number> {
    this.fencesSent += 1;
    const ping = { jsonrpc: '2.0', id: `${FENCE_PREFIX}${this.fencesSent}`, method: 'ping' };
    await this.server.send(ping);
    return this.fencesSent;
  }

  private register(value: JsonValue, line: number, step: Extract<Step, { kind: 'expect' }>, planned: PlannedStep): Expectation {
    const expectation = { value, line, optional: step.optional, sectionIndex: step.sectionIndex, planned, paired: false };
    this.expectations.push(expectation);
    return expectation;
  }

  private reportUnpaired(planned: PlannedStep, unpaired: Expectation[], fenced: boolean): void {
    if (this.options.update) {
      unpaired.forEach((expectation) =>
        this.observations.push({ sectionIndex: expectation.sectionIndex, expected: expectation.value, actual: undefined }),
      );
      return;
    }
    const first = unpaired[0];
    if (!first) return;
    if (this.reportWrongForm(planned, first, unpaired)) return;
    // Notifications are the server's to send at will (a list change, a log message): never the
    // answer that went missing, so they are not shown as if they were.
    const leftovers = this.received.filter((item) => !item.consumed && messageKind(item.value) !== 'notification');
    const owed = describeOwed(first.value);
    const exit = this.exitText();
    // A server that exits instead of answering is graded as one that stays silent: the lifecycle
    // page lets a server exit ("The server MAY initiate shutdown by closing its output stream to
    // the client and exiting"), so what counts is the answer it owed, at the fixture's level.
    const [waitedFor, behaviour] =
      exit !== undefined
        ? [`, but the server exited (${exit}) before the fixture finished`, `the server exited where ${owed} was owed`]
        : fenced
          ? [
              ' but it never came: the server answered a ping sent after it (the message was dropped)',
              `no reply where ${owed} is owed (dropped: a later ping was answered)`,
            ]
          : [` within ${this.timeoutMs()} ms`, `no reply within the step timeout where ${owed} is owed`];
    this.failures.push({
      level: this.levelOf(planned),
      behaviour,
      where: planned.where,
      summary: `expected ${describeMessage(first.value)} (line ${first.line})${waitedFor}${unpaired.length > 1 ? `, and ${unpaired.length - 1} more` : ''}`,
      mismatch: {
        path: '$',
        expected: describe(first.value),
        actual: leftovers.length > 0 ? `unmatched: ${describe(leftovers.map((item) => item.value))}` : 'nothing',
      },
      rule: planned.rule,
    });
  }

  /**
   * The server answered, but in a form that cannot pair: the id with another JSON type ("7" for
   * 7), or a batch answered with separate responses (or the reverse). That is a wrong answer to
   * the same expectation, graded at the fixture's level like a missing one, and named as what it
   * is; the messages it consists of are not reported again as unexpected.
   */
  private reportWrongForm(planned: PlannedStep, first: Expectation, unpaired: Expectation[]): boolean {
    let found: { problem: string; behaviour: string; value: JsonValue } | undefined;
    let answers = 0;
    for (const item of this.received) {
      if (item.consumed) continue;
      const wrong = unpaired.map((expectation) => wrongFormOf(expectation.value, item.value)).find((form) => form !== undefined);
      if (wrong === undefined) continue;
      item.consumed = true;
      answers += 1;
      found ??= { ...wrong, value: item.value };
    }
    if (found === undefined) return false;
    // One error for no request in particular, where a batch's array is owed: not separate
    // answers, but the whole batch refused (a server that does not take batches).
    if (answers === 1 && messageKind(first.value) === 'batch' && isErrorWithoutId(found.value))
      found = {
        ...found,
        problem: 'a batch (JSON array) of responses is owed and the server refused the whole batch with one error',
        behaviour: 'a batch refused whole with one error instead of answered with a JSON array',
      };
    this.failures.push({
      level: this.levelOf(planned),
      behaviour: found.behaviour,
      where: planned.where,
      summary: `${describeMessage(found.value)} answers the expectation at line ${first.line}, but ${found.problem}`,
      mismatch: { path: '$', expected: describe(first.value), actual: describe(found.value) },
      rule: planned.rule,
    });
    return true;
  }

  private async expectSilence(planned: PlannedStep, ms: number): Promise<void> {
    const firstSeq = this.received.length;
    await this.waitUntil(() => false, Date.now() + ms);
    const spoken = this.received.slice(firstSeq).filter((item) => !item.consumed && !isMethodMessage(item.value));
    for (const item of spoken) {
      item.consumed = true;
      this.failures.push({
        level: this.levelOf(planned),
        behaviour: 'a response where silence is owed (after a notification or a cancellation)',
        where: planned.where,
        summary: `expected no response within ${ms} ms, got ${describeMessage(item.value)}`,
        mismatch: { path: '$', expected: 'nothing', actual: describe(item.value) },
        rule: planned.rule,
      });
    }
  }

  private async expectExit(planned: PlannedStep, code: number | undefined, withinMs: number): Promise<void> {
    const exited = await this.waitUntil(() => this.server.hasExited, Date.now() + withinMs);
    const exit = this.exitEvent();
    if (!exited || !exit) {
      this.failures.push({
        level: this.levelOf(planned),
        where: planned.where,
        summary: `the server did not exit within ${withinMs} ms`,
        rule: [...planned.rule, ...EXIT_RULE],
      });
      return;
    }
    if (code !== undefined && exit.code !== code) {
      const actual = describeExit(exit);
      this.failures.push({
        level: this.levelOf(planned),
        where: planned.where,
        summary: `the server exited with ${actual}, expected code ${code}`,
        rule: [...planned.rule, ...EXIT_RULE],
      });
    }
  }

  private exitEvent(): { code: number | null; signal: string | null } | undefined {
    const event = this.server.events.find((item) => item.kind === 'exit');
    return event?.kind === 'exit' ? event : undefined;
  }

  /** "code 1" or "signal SIGSEGV" once the server has exited, else undefined. */
  private exitText(): string | undefined {
    const exit = this.server.hasExited ? this.exitEvent() : undefined;
    return exit === undefined ? undefined : describeExit(exit);
  }

  /**
   * After the last step: close stdin, let the server exit (on a shared process: let it answer
   * every request instead), and flag anything left unanswered. A fixture that failed has its
   * verdict: nothing is waited for (its process is not shared on with requests unanswered).
   */
  private async finish(completed: boolean): Promise<void> {
    const deadline = completed ? Date.now() + Math.min(EXIT_GRACE_MS, this.timeoutMs()) : Date.now();
    const turn = this.server.sharedTurn;
    if (turn !== undefined && !this.stdinClosed) await this.waitUntil(() => turn.allAnswered(), deadline);
    else {
      if (!this.stdinClosed) this.closeStdin();
      await this.waitUntil(() => this.server.hasExited, deadline);
    }
    if (completed) this.reportUnexpected({ step: { kind: 'close-stdin', line: 0 }, where: 'end of fixture', rule: [] });
  }

  /** Responses and server requests that no remaining expectation is waiting for. */
  private reportUnexpected(planned: PlannedStep): void {
    for (const item of this.received) {
      if (item.consumed || messageKind(item.value) === 'notification' || this.isAwaited(item.value)) continue;
      item.consumed = true;
      if (this.options.update) {
        this.observations.push({ sectionIndex: this.sectionIndexAt(item.stepIndex), expected: undefined, actual: item.value });
        continue;
      }
      const isRequest = messageKind(item.value) === 'request';
      this.failures.push({
        // A fixture that itself sent invalid ids (null, 1.5) tests how the server copes with a
        // client breaking the rules: a stray response then (1.5 echoed as 1) is graded at the
        // fixture's level, with the rest of what it checks, not at must.
        ...(!isRequest && this.sentInvalidId() ? { level: this.levelOf(planned) } : {}),
        behaviour: isRequest
          ? 'a request to the client that nothing in the fixture expects'
          : 'a response nothing asked for (to a notification, a second one, or to an unknown id)',
        where: planned.where,
        summary: `unexpected ${describeMessage(item.value)}`,
        mismatch: { path: '$', expected: 'nothing', actual: describe(item.value) },
        rule: [...planned.rule, ...(isRequest ? SERVER_REQUEST_RULE : UNEXPECTED_RULE)],
      });
    }
  }

  /** Whether an expectation already registered, or one in a later section, may pair with `value`. */
  private isAwaited(value: JsonValue): boolean {
    if (this.expectations.some((expectation) => !expectation.paired && couldPair(expectation.value, value))) return true;
    return this.plan
      .slice(this.stepIndex + 1)
      .some(({ step }) => step.kind === 'expect' && step.messages.some((message) => couldPair(message.value, value)));
  }

  /** The server section a message arrived in (or the last one before it), for --update. */
  private sectionIndexAt(stepIndex: number): number {
    for (let index = Math.min(stepIndex, this.plan.length - 1); index >= 0; index -= 1) {
      const step = this.plan[index]?.step;
      if (step?.kind === 'expect' && step.sectionIndex >= 0) return step.sectionIndex;
    }
    return -1;
  }

  /** Processes server events until `condition` holds, the deadline passes or the server is gone. */
  private async waitUntil(condition: () => boolean, deadline: number): Promise<boolean> {
    while (true) {
      this.processEvents();
      this.pairExpectations();
      if (condition()) return true;
      if (this.skipReason !== undefined || Date.now() >= deadline) return false;
      if (this.server.hasExited && this.eventCursor === this.server.events.length) return false;
      await this.server.waitForEvent(this.eventCursor, deadline);
    }
  }

  private processEvents(): void {
    while (this.eventCursor < this.server.events.length) {
      const event = this.server.events[this.eventCursor];
      this.eventCursor += 1;
      if (event?.kind === 'message') this.onMessage(event.value);
      if (event?.kind === 'impurity') this.fail(`stdout purity: ${event.reason}: ${event.text}`, [PURITY_RULE]);
      if (event?.kind === 'transport') this.fail(event.problem, [event.rule], event.level);
      if (event?.kind === 'refused') this.refusals.push({ ...event });
    }
  }

  private onMessage(value: JsonValue): void {
    if (isJsonObject(value) && typeof value.id === 'string' && value.id.startsWith(FENCE_PREFIX)) {
      this.fencesAnswered += 1;
      return;
    }
    this.received.push({ value, seq: this.received.length, stepIndex: this.stepIndex, consumed: false });
    this.noticeInitializeResult(value);
    // A response that echoes an invalid id the client itself sent (null, 1.5) shows that the
    // server served an invalid request: the fixture's expectation grades that, at its level,
    // not the envelope and schema checks at must.
    const echoesInvalidId = this.echoesInvalidId(value);
    for (const violation of checkEnvelope(value, this.negotiatedVersion))
      if (!(echoesInvalidId && violation.aboutId)) this.fail(`${describeMessage(value)}: ${violation.problem}`, [violation.rule]);
    // A server that answers initialize with a version no schema exists for (it echoed 1999-01-01)
    // is failed by the fixture that asked; its messages are checked against the newest schema.
    const negotiated = this.negotiatedVersion ?? NEWEST_HANDSHAKE_VERSION;
    const version = this.options.schema?.has(negotiated) === false ? NEWEST_HANDSHAKE_VERSION : negotiated;
    const schemaViolations = echoesInvalidId
      ? []
      : (this.options.schema?.validate(value, version, (id) => this.sentRequest(id)) ?? []);
    for (const violation of schemaViolations)
      this.fail(`schema: ${describeMessage(value)} ${violation.problem}`, [violation.rule]);
    this.answerServerPing(value);
  }

  private echoesInvalidId(value: JsonValue): boolean {
    if (!isJsonObject(value) || messageKind(value) !== 'response' || isValidRequestId(value.id)) return false;
    return this.sentRequest(value.id) !== undefined;
  }

  private sentInvalidId(): boolean {
    return [...this.sentRequests.values()].some((sent) => !isValidRequestId(sent.id));
  }

  private sentRequest(id: JsonValue | undefined): JsonObject | undefined {
    return id === undefined ? undefined : this.sentRequests.get(JSON.stringify(id));
  }

  /**
   * The first initialize result fixes the schema version and decides `requires:` lines; in a
   * stateless fixture the first server/discover result decides them (it lists the capabilities).
   */
  private noticeInitializeResult(value: JsonValue): void {
    if (!isJsonObject(value) || !isJsonObject(value.result)) return;
    const method = this.sentRequest(value.id)?.method;
    if (method !== 'initialize' && !(method === 'server/discover' && this.fixture.header.protocol.kind === 'stateless')) return;
    const version = value.result.protocolVersion;
    if (method === 'initialize' && typeof version === 'string') this.negotiatedVersion = version;
    if (this.requirementsChecked) return;
    this.requirementsChecked = true;
    const requirements = [...handshakeRequirements(this.fixture.header.protocol), ...this.fixture.header.requires];
    this.skipReason = unmetRequirement(requirements, value.result);
  }

  /** A fixture that continues a shared session takes the version and its `requires:` verdict from the session's initialize result. */
  private continueSession(initializeResult: JsonObject): void {
    const version = initializeResult.protocolVersion;
    if (typeof version === 'string') this.negotiatedVersion = version;
    this.requirementsChecked = true;
    const requirements = [...handshakeRequirements(this.fixture.header.protocol), ...this.fixture.header.requires];
    this.skipReason = unmetRequirement(requirements, initializeResult);
  }

  /** Either side may ping at any time (https://modelcontextprotocol.io/specification/2025-06-18/basic/utilities/ping); a client answers. */
  private answerServerPing(value: JsonValue): void {
    if (!isJsonObject(value) || value.method !== 'ping' || !('id' in value) || this.isAwaited(value)) return;
    const item = this.received[this.received.length - 1];
    if (item) item.consumed = true;
    void this.server.send({ jsonrpc: '2.0', id: value.id ?? null, result: {} });
  }

  private pairExpectations(): void {
    for (const expectation of this.expectations) {
      if (expectation.paired || this.pairWithRefusal(expectation)) continue;
      const partner = this.findPartner(expectation);
      if (!partner) continue;
      expectation.paired = true;
      partner.consumed = true;
      if (isMethodMessage(partner.value)) this.lastMethodSeq.set(expectation.sectionIndex, partner.seq);
      this.compare(expectation, partner.value);
    }
  }

  /** An HTTP refusal stands for the errors expected for its POST; where a result is owed it is the failure. */
  private pairWithRefusal(expectation: Expectation): boolean {
    const refusal = this.refusals.find((item) => refusalCovers(item, expectation.value) !== undefined);
    if (refusal === undefined) return false;
    const covered = refusalCovers(refusal, expectation.value);
    useRefusal(refusal, expectation.value);
    expectation.paired = true;
    if (covered === 'error' || this.options.update) return true;
    const owed = describeOwed(expectation.value);
    this.failures.push({
      level: this.levelOf(expectation.planned),
      behaviour: `an HTTP error status with no JSON-RPC body where ${covered === 'result' ? owed : `a request's ${owed} in a JSON or SSE body`} is owed`,
      where: expectation.planned.where,
      summary: `${refusal.problem}, where ${owed} is owed (line ${expectation.line})${covered === 'bare-request' ? ": a request's answer belongs in a JSON or SSE body" : ''}`,
      rule: [...expectation.planned.rule, ...(covered === 'bare-request' ? [REQUEST_BODY_RULE] : [])],
    });
    return true;
  }

  /** Notifications and server requests keep their order within a section; responses need not. */
  private findPartner(expectation: Expectation): Received | undefined {
    const after = isMethodMessage(expectation.value) ? (this.lastMethodSeq.get(expectation.sectionIndex) ?? -1) : -1;
    return this.received.find((item) => !item.consumed && item.seq > after && couldPair(expectation.value, item.value));
  }

  private compare(expectation: Expectation, actual: JsonValue): void {
    collectCaptures(expectation.value, actual, this.captures);
    const mismatch = compareMessage(expectation.value, actual);
    if (this.options.update) {
      this.observations.push({ sectionIndex: expectation.sectionIndex, expected: expectation.value, actual });
      return;
    }
    if (!mismatch) return;
    this.failures.push({
      level: this.levelOf(expectation.planned),
      behaviour: `${mismatch.path.replace(/\[\d+\]/g, '[]')}: ${mismatch.expected} expected, ${mismatch.actual.slice(0, 80)} sent`,
      where: expectation.planned.where,
      summary: `${describeMessage(actual)} differs from the expectation at line ${expectation.line}`,
      mismatch,
      received: describe(actual, 400),
      rule: expectation.planned.rule,
    });
  }

  /** The runner's own handshake is always `must`; the fixture's steps have the fixture's level. */
  private levelOf(planned: PlannedStep): Level {
    return planned.where === 'handshake' ? 'must' : this.fixture.header.level;
  }

  private fail(summary: string, rule: string[], level?: Level): void {
    const where = this.plan[this.stepIndex]?.where ?? 'end of fixture';
    this.failures.push({ where, summary, rule, ...(level ? { level } : {}) });
  }

  /** Until the server has said anything, it may still be starting: that wait has its own limit. */
  private timeoutMs(): number {
    const step = this.fixture.header.timeoutMs ?? this.options.stepTimeoutMs;
    return this.server.events.length === 0 ? Math.max(step, this.options.startupTimeoutMs) : step;
  }
}

function planSteps(fixture: Fixture, withHandshake: boolean): PlannedStep[] {
  const rule = fixtureRule(fixture);
  const handshake = (withHandshake ? handshakeSteps(fixture.header.protocol) : []).map((step) => ({
    step,
    where: 'handshake',
    rule: HANDSHAKE_RULE,
  }));
  const own = fixture.steps.map((step) => ({ step, where: describeStep(step), rule }));
  return [...handshake, ...own];
}

function fixtureRule(fixture: Fixture): string[] {
  const covers = fixture.header.covers.length > 0 ? [`covers: ${fixture.header.covers.join(', ')}`] : [];
  return [...fixture.header.spec, ...covers];
}

function describeStep(step: Step): string {
  const names: Record<Step['kind'], string> = {
    'send-json': 'client section',
    'send-raw': 'client raw section',
    expect: step.kind === 'expect' && step.optional ? 'server may section' : 'server section',
    silence: 'silence section',
    'close-stdin': 'eof section',
    exit: 'exit section',
    'http-request': 'http request section',
    'http-response': 'http response section',
  };
  return `${names[step.kind]} at line ${step.line}`;
}

function isErrorWithoutId(value: JsonValue): boolean {
  return isJsonObject(value) && 'error' in value && (value.id === null || !('id' in value));
}

function describeExit(exit: { code: number | null; signal: string | null }): string {
  return exit.code === null ? `signal ${exit.signal ?? '?'}` : `code ${exit.code}`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The codes an expected error accepts: its code, or each value of a `<<one-of:...>>`. */
function expectedCodes(code: JsonValue | undefined): JsonValue[] {
  const marker = typeof code === 'string' ? parseMarker(code) : undefined;
  return marker?.kind === 'one-of' ? marker.values : [code ?? null];
}

/** What an expected message asks of the server, without its id: "error -32700", "a result". */
function describeOwed(value: JsonValue): string {
  if (Array.isArray(value)) return 'a batch response';
  if (!isJsonObject(value)) return 'a message';
  if (isJsonObject(value.error))
    return `error ${expectedCodes(value.error.code)
      .map((code) => JSON.stringify(code))
      .join(' or ')}`;
  if ('result' in value) return 'a result';
  return typeof value.method === 'string' ? `${value.method}` : 'a message';
}
