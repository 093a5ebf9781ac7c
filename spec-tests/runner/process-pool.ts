// Server processes shared by the fixtures that can share one (process-sharing.ts says which).
//
// A fixture borrows a process for its turn through a ProcessLease, which looks to the Session
// like a process of its own: it sees only the events of its turn, and in the handshake era it
// continues the session the first fixture opened. Between turns the pool makes sure that the
// previous fixture is over:
// - a fence, a request of the runner's own (`ping`, or `server/discover` in 2026-07-28), is
//   answered with nothing but notifications before it: a server writes its answers in order on
//   one stdout, so what the previous fixture caused has arrived by then, and a request of it
//   still unanswered was dropped (the Session waits up to 2 s for answers instead of closing
//   stdin, unless the fixture already failed). Were such an answer sent later still, it would
//   reach a later turn as a response nobody asked for: that turn fails and is played again on a
//   new process, so a late answer can cost a start but never make a fixture pass;
// - the process is alive and nothing arrived while it was idle.
// Otherwise the process is stopped (in the background: nobody waits for a process being
// stopped). A fixture that failed, or whose turn did not end clean, is played again on a fresh
// process (run-fixture.ts); a process whose turn ended clean serves on. A process the detection
// probe started (detect.ts) is adopted: its initialize is the session's, so its first fixture
// continues that session instead of starting a process of its own; or, when a fixture opens
// with that very initialize (process-sharing.ts), that fixture takes the probe's process as its
// first turn, which sees all the process did since it started: the probe's answer stands for
// the answer to the fixture's initialize, which is not sent again.
//
// A client MUST NOT reuse a request id within a session
// (https://modelcontextprotocol.io/specification/2025-11-25/basic "Requests"), yet every fixture
// starts at id 1. So from the second turn of a handshake session on, the lease renames the ids
// of the fixture's requests on the way out (1 -> 1000001, "a" -> "a#1", turn by turn) and back
// on the way in; the Session never sees the difference. Ids that are the subject of a fixture
// (0, "", negative, huge, non-ASCII, 7 beside "7"), and those in raw bytes, are never renamed:
// such a fixture takes its turn with those ids as written (its others renamed as usual) on a
// process that has not seen any of them yet (the pool keeps each process's ids), and the lease
// reads raw bytes line by line to know which requests they still wait for.
import type { JsonObject, JsonValue } from './json-types.js';
import { isJsonObject } from './json-types.js';
import { ServerProcess } from './server-process.js';
import type { ServerConnection, ServerEvent } from './server-connection.js';
import { isPlainId, PLAIN_NUMBER_LIMIT } from './process-sharing.js';
import { PROBE_REQUEST_ID } from './handshake.js';
import { sentRequestsInRaw } from './raw-requests.js';
import { notificationChangesServer, requestEffect } from './server-effects.js';

const HANDSHAKE_REQUEST_ID = 'mcp-conform:initialize';
/** The key of a process that has seen no initialize: the server/discover probe's (adoptUninitialized). */
const BEFORE_INITIALIZE = 'before initialize';
const STOP_GRACE_MS = 500;

/** One running server and the session its fixtures continue. */
class SharedProcess {
  readonly process: ServerProcess;
  turns = 0;
  /** The initialize result of the session (handshake era), once the first turn has seen it. */
  initializeResult: JsonObject | undefined;
  initialized = false;
  /** A probe's process whose initialize was answered and nothing sent since: a fixture that repeats the probe may continue it. */
  awaitingFirstTurn = false;
  /** The events up to here belong to finished turns. */
  settledAt = 0;
  /** Every request id sent on this process, as JSON text: no id is sent twice in a session. */
  readonly usedIds = new Set<string>();
  /**
   * A fixture sent something that may have changed the server (server-effects.ts): a request
   * other than a read that was not refused, or a notification MCP defines. Until then the
   * process serves as a fresh one would, and a verdict on it is as final as on a first turn.
   */
  changed = false;

  constructor(
    process: ServerProcess,
    readonly key: string,
  ) {
    this.process = process;
  }

  get stateless(): boolean {
    return this.key.startsWith('stateless ');
  }

  /** Only a 2025-03-26 session answers a batch element by element; elsewhere a batch may be refused whole, with no id to wait for. */
  get answersBatchElements(): boolean {
    return this.key === 'handshake 2025-03-26';
  }

  /** Ready for another turn: alive, its session open, and silent while idle (notifications aside); a process that was never initialized serves one turn. */
  get reusable(): boolean {
    if (this.process.hasExited || this.key === BEFORE_INITIALIZE || (!this.stateless && !this.initialized)) return false;
    return this.process.events.slice(this.settledAt).every(isNotification);
  }
}

export class ServerPool {
  private readonly idle: SharedProcess[] = [];
  private readonly running = new Set<SharedProcess>();
  private readonly stopping = new Set<Promise<void>>();

  constructor(
    private readonly command: string,
    private readonly stepTimeoutMs: number,
  ) {}

  /**
   * A lease on an idle process of this key, or on a new one. With `idsAsWritten` (the request ids
   * the fixture sends unrenamed, process-sharing.ts) only a process that has seen none of them will do.
   * With `lastTurn` (the fixture ends the process) one that no fixture changed comes first, on
   * which a failure is final (run-fixture.ts).
   */
  acquire(key: string, idsAsWritten?: readonly string[], lastTurn = false): ProcessLease {
    const fits = (item: SharedProcess) => item.key === key && !idsAsWritten?.some((id) => item.usedIds.has(id));
    const next = () => {
      const unchanged = lastTurn ? this.idle.findIndex((item) => fits(item) && !item.changed) : -1;
      return unchanged >= 0 ? unchanged : this.idle.findIndex(fits);
    };
    for (let index = next(); index >= 0; index = next()) {
      const [candidate] = this.idle.splice(index, 1);
      if (candidate?.awaitingFirstTurn) this.completeHandshake(candidate);
      if (candidate?.reusable)
        return new ProcessLease(candidate, this.stepTimeoutMs, idsAsWritten === undefined ? undefined : new Set(idsAsWritten));
      if (candidate) this.discard(candidate);
    }
    return this.acquireNew(key);
  }

  /**
   * The first turn on the probe's process of this revision, for a fixture that opens with the
   * probe's initialize (as `initializeId`); undefined when there is none (not adopted, taken, or
   * the server answered another version: that process serves `protocol: any` fixtures).
   */
  continueProbe(version: string, initializeId: JsonValue): ProcessLease | undefined {
    const repeats = (item: SharedProcess) =>
      item.key === `handshake ${version}` && item.awaitingFirstTurn && item.initializeResult?.protocolVersion === version;
    const index = this.idle.findIndex(repeats);
    const [probe] = index < 0 ? [] : this.idle.splice(index, 1);
    if (probe === undefined) return undefined;
    probe.awaitingFirstTurn = false;
    return new ProcessLease(probe, this.stepTimeoutMs, undefined, initializeId);
  }

  /** A lease on a process started for it: its first turn, as on a fresh process (ids as written). */
  acquireNew(key: string): ProcessLease {
    const started = new SharedProcess(new ServerProcess(this.command), key);
    this.running.add(started);
    return new ProcessLease(started, this.stepTimeoutMs, undefined);
  }

  /**
   * Takes over a process whose handshake the detection probe began (`initialize` answered with
   * `initializeResult`, which `handshake KEY` fixtures send the same way). It waits for a fixture
   * that repeats the probe (continueProbe); any other fixture gets the handshake completed with
   * `initialized` first, and continues the session as if a turn had opened it.
   */
  adopt(key: string, process: ServerProcess, initializeResult: JsonObject): void {
    const adopted = new SharedProcess(process, key);
    adopted.initializeResult = initializeResult;
    adopted.usedIds.add(JSON.stringify(PROBE_REQUEST_ID));
    adopted.awaitingFirstTurn = true;
    adopted.settledAt = process.events.length;
    this.running.add(adopted);
    this.idle.push(adopted);
  }

  /**
   * Takes over a legacy server's server/discover probe process (detect.ts): not initialized, it
   * waits for a fixture that drives the lifecycle itself (continueDiscover).
   */
  adoptUninitialized(process: ServerProcess): void {
    const adopted = new SharedProcess(process, BEFORE_INITIALIZE);
    adopted.usedIds.add(JSON.stringify('mcp-conform:discover')).add(JSON.stringify('mcp-conform:fence'));
    adopted.settledAt = process.events.length;
    this.running.add(adopted);
    this.idle.push(adopted);
  }

  /** A turn on the adopted server/discover probe process (adoptUninitialized) if there is one, still silent since. */
  continueDiscover(): ProcessLease | undefined {
    const index = this.idle.findIndex((item) => item.key === BEFORE_INITIALIZE);
    const [probe] = index < 0 ? [] : this.idle.splice(index, 1);
    if (probe === undefined) return undefined;
    if (!probe.process.hasExited && probe.process.events.slice(probe.settledAt).every(isNotification))
      return new ProcessLease(probe, this.stepTimeoutMs, undefined);
    this.discard(probe);
    return undefined;
  }

  private completeHandshake(adopted: SharedProcess): void {
    void adopted.process.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    adopted.awaitingFirstTurn = false;
    adopted.initialized = true;
    adopted.turns = 1;
  }

  /** Ends a turn: the process waits for the next fixture if the turn ended clean, else it is stopped. */
  release(lease: ProcessLease): void {
    lease.shared.settledAt = lease.shared.process.events.length;
    if (lease.endedClean && lease.shared.reusable) this.idle.push(lease.shared);
    else this.discard(lease.shared);
  }

  /** Stops every process, and waits for those being stopped: each gets its stdin closed, then is killed with what it started. */
  async close(): Promise<void> {
    this.idle.splice(0);
    [...this.running].forEach((shared) => this.discard(shared));
    await Promise.all(this.stopping);
  }

  private discard(shared: SharedProcess): void {
    this.running.delete(shared);
    shared.process.end();
    const stopped = shared.process.stop(STOP_GRACE_MS).finally(() => this.stopping.delete(stopped));
    this.stopping.add(stopped);
  }
}

/** One fixture's turn on a shared process; a ServerConnection like a process of its own. */
export class ProcessLease implements ServerConnection {
  readonly shared: SharedProcess;
  /** The process was started for this turn: the fixture plays as on a process of its own, handshake included. */
  readonly firstTurn: boolean;
  /** From the second turn of a handshake session on, the fixture's request ids are renamed with this. */
  private readonly turn: number;
  private readonly firstEvent: number;
  private readonly firstStderr: number;
  private readonly seen: ServerEvent[] = [];
  /** Ids as sent (JSON text) -> ids as the fixture wrote them. */
  private readonly renamed = new Map<string, JsonValue>();
  private readonly pending = new Set<string>();
  /** Every id this turn sent (as sent, JSON text): an answer to any other came from an earlier turn. */
  private readonly sentIds = new Set<string>();
  /** Requests that changed the server unless they are refused with an error (server-effects.ts). */
  private readonly effectUnlessRefused = new Set<string>();
  /** Requests that changed the server if they got a result (server-effects.ts). */
  private readonly effectIfResult = new Set<string>();
  /** The turn sent what may draw an answer with a null id (unreadable bytes, an invalid message, a batch). */
  private sentUnreadable = false;
  private answerOfAnotherTurn = false;
  /** The ids (as sent) answered so far: a second answer to one is no answer of this turn's. */
  private readonly answeredIds = new Set<string>();
  private readonly startedUnchanged: boolean;
  /** Raw bytes written after the last newline: the stream is mid-line until a newline comes. */
  private rawTail = Buffer.alloc(0);
  private clean = true;
  /** What the Session asks instead of closing stdin: whether every request of this turn has been answered. */
  readonly sharedTurn = {
    allAnswered: (): boolean => {
      this.follow();
      return this.pending.size === 0;
    },
  };

  constructor(
    shared: SharedProcess,
    private readonly stepTimeoutMs: number,
    /** The fixture's ids (JSON text) that go out unrenamed (the pool chose a process that has not seen them); its others and the runner's own are renamed still. */
    private readonly idsAsWritten: ReadonlySet<string> | undefined,
    /** The turn continues a probe's process: the fixture's initialize (with this id) is the probe's, already answered. */
    private probeInitializeId?: JsonValue,
  ) {
    this.shared = shared;
    this.firstTurn = shared.turns === 0;
    this.turn = shared.stateless ? 0 : shared.turns;
    shared.turns += 1;
    this.firstEvent = probeInitializeId === undefined ? shared.process.events.length : 0;
    this.firstStderr = probeInitializeId === undefined ? shared.process.stderrText.length : 0;
    this.startedUnchanged = !shared.changed;
    if (probeInitializeId === undefined) return;
    const probeId = JSON.stringify(PROBE_REQUEST_ID);
    this.renamed.set(probeId, probeInitializeId);
    this.sentIds.add(probeId);
    this.pending.add(probeId);
  }

  /**
   * The turn began on a process no earlier fixture had changed (every turn before it ended clean)
   * and saw answers only to what it sent itself: what it got, a fresh process would have given.
   */
  get onUnchangedServer(): boolean {
    this.follow();
    return this.startedUnchanged && !this.answerOfAnotherTurn;
  }

  /** The session this turn continues: the handshake is not played again. */
  get openedWith(): JsonObject | undefined {
    return this.turn > 0 ? this.shared.initializeResult : undefined;
  }

  get endedClean(): boolean {
    return this.clean;
  }

  get events(): ServerEvent[] {
    this.follow();
    return this.seen;
  }

  /** Takes in the process's new events: ids restored, answered requests no longer pending. */
  private follow(): void {
    const all = this.shared.process.events;
    for (let index = this.firstEvent + this.seen.length; index < all.length; index++)
      this.seen.push(this.inbound(all[index] as ServerEvent));
  }

  get hasExited(): boolean {
    return this.shared.process.hasExited;
  }

  get stderrText(): string {
    return this.shared.process.stderrText.slice(this.firstStderr);
  }

  send(message: JsonValue): Promise<void> {
    if (this.probeInitializeId !== undefined && isJsonObject(message) && message.method === 'initialize') {
      // The probe sent this initialize (process-sharing.ts checked it is the same); its answer is among the events.
      this.probeInitializeId = undefined;
      return Promise.resolve();
    }
    const outbound = this.outbound(message);
    if (isJsonObject(message) && message.method === 'notifications/initialized') this.shared.initialized = true;
    return this.shared.process.send(outbound);
  }

  /**
   * Raw bytes cannot be renamed: unless the turn sends ids as written, the process is not shared
   * after them. The requests of each line they complete are followed like sent ones, and the
   * turn ends clean only at a line's end.
   */
  write(chunk: Buffer): Promise<void> {
    if (this.turn > 0 && this.idsAsWritten === undefined) this.clean = false;
    this.sentUnreadable = true;
    const text = Buffer.concat([this.rawTail, chunk]);
    const lineEnd = text.lastIndexOf(NEWLINE) + 1;
    this.rawTail = text.subarray(lineEnd);
    for (const message of sentRequestsInRaw([text.subarray(0, lineEnd)])) this.outbound(message);
    return this.shared.process.write(chunk);
  }

  /** Closing stdin ends the process for everyone: it is not shared after that. */
  end(): void {
    this.clean = false;
    this.shared.process.end();
  }

  waitForEvent(seenCount: number, deadline: number): Promise<void> {
    return this.shared.process.waitForEvent(this.firstEvent + seenCount, deadline);
  }

  /** The end of the turn: checks that the fixture is over (see the top of the file); the pool decides the rest. */
  async stop(): Promise<void> {
    if (this.hasExited || this.rawTail.length > 0) this.clean = false;
    if (this.clean) this.clean = await this.fenceAnswered();
    // A request neither answered nor refused may have run.
    this.follow();
    if (this.effectUnlessRefused.size > 0) this.shared.changed = true;
  }

  /**
   * Sends the fence and waits for its answer; false if anything but notifications and the first
   * answers to this turn's own requests comes first (a fixture that failed early leaves the
   * answers still on their way, its fences among them: they end here, not in the next turn), or nothing.
   */
  private async fenceAnswered(): Promise<boolean> {
    const id = `mcp-conform:between-turns:${this.shared.turns}`;
    this.sentIds.add(JSON.stringify(id));
    const process = this.shared.process;
    const from = process.events.length;
    await process.send(this.shared.stateless ? discoverRequest(id, this.shared.key) : { jsonrpc: '2.0', id, method: 'ping' });
    const deadline = Date.now() + this.stepTimeoutMs;
    for (let checked = from; Date.now() < deadline && !process.hasExited;) {
      for (; checked < process.events.length; checked++) {
        const event = process.events[checked] as ServerEvent;
        if (event.kind === 'message' && isJsonObject(event.value) && event.value.id === id) return true;
        if (!isNotification(event) && !this.answersOwnRequest(event)) return false;
      }
      await process.waitForEvent(checked, deadline);
    }
    return false;
  }

  /** A response to a request of this turn that had no answer yet (read through follow(), which records it). */
  private answersOwnRequest(event: ServerEvent): boolean {
    if (event.kind !== 'message' || !isJsonObject(event.value) || typeof event.value.method === 'string') return false;
    const key = JSON.stringify(event.value.id ?? null);
    const unanswered = this.sentIds.has(key) && !this.answeredIds.has(key);
    this.follow();
    return unanswered;
  }

  private outbound(message: JsonValue, inBatch = false): JsonValue {
    if (Array.isArray(message)) {
      this.sentUnreadable = true;
      return message.map((item) => this.outbound(item, true));
    }
    if (!isJsonObject(message) || typeof message.method !== 'string') {
      this.sentUnreadable = true;
      return message;
    }
    if ('id' in message) {
      const id = this.rename(message.id ?? null);
      this.shared.usedIds.add(JSON.stringify(id));
      this.sentIds.add(JSON.stringify(id));
      const effect = requestEffect(message.method);
      if (effect === 'unless-refused') this.effectUnlessRefused.add(JSON.stringify(id));
      if (effect === 'if-answered') this.effectIfResult.add(JSON.stringify(id));
      // A batch refused whole leaves its ids unanswered: the fence at the turn's end (process-pool.ts top) shows it is over.
      if (!inBatch || this.shared.answersBatchElements) this.pending.add(JSON.stringify(id));
      return { ...message, id };
    }
    const params = message.params;
    if (message.method === 'notifications/cancelled' && isJsonObject(params) && 'requestId' in params) {
      // The receiver may leave a cancelled request unanswered.
      const requestId = this.rename(params.requestId ?? null);
      this.pending.delete(JSON.stringify(requestId));
      return { ...message, params: { ...params, requestId } };
    }
    if (notificationChangesServer(message.method)) this.shared.changed = true;
    return message;
  }

  private rename(id: JsonValue): JsonValue {
    if (this.turn === 0 || !isPlainId(id) || this.idsAsWritten?.has(JSON.stringify(id))) return id;
    const renamed = typeof id === 'number' ? id + this.turn * PLAIN_NUMBER_LIMIT : `${String(id)}#${this.turn}`;
    this.renamed.set(JSON.stringify(renamed), id);
    return renamed;
  }

  private inbound(event: ServerEvent): ServerEvent {
    if (event.kind !== 'message') return event;
    return { ...event, value: this.restore(event.value) };
  }

  private restore(value: JsonValue): JsonValue {
    if (Array.isArray(value)) return value.map((item) => this.restore(item));
    if (!isJsonObject(value) || typeof value.method === 'string' || !('id' in value)) return value;
    const key = JSON.stringify(value.id);
    this.pending.delete(key);
    const mayHaveRun = this.effectUnlessRefused.delete(key) || this.effectIfResult.delete(key);
    if (mayHaveRun && !('error' in value)) this.shared.changed = true;
    // An error with a null id answers unreadable input: this turn's only if it sent some (or a null id).
    const ours = (this.sentIds.has(key) && !this.answeredIds.has(key)) || (value.id === null && this.sentUnreadable);
    if (!ours) this.answerOfAnotherTurn = true;
    this.answeredIds.add(key);
    if (key === JSON.stringify(HANDSHAKE_REQUEST_ID) && isJsonObject(value.result)) this.shared.initializeResult ??= value.result;
    return this.renamed.has(key) ? { ...value, id: this.renamed.get(key) ?? null } : value;
  }
}

const NEWLINE = 0x0a;

function isNotification(event: ServerEvent): boolean {
  return (
    event.kind === 'message' && isJsonObject(event.value) && typeof event.value.method === 'string' && !('id' in event.value)
  );
}

function discoverRequest(id: string, key: string): JsonValue {
  const version = key.slice('stateless '.length);
  return {
    jsonrpc: '2.0',
    id,
    method: 'server/discover',
    params: { _meta: { 'io.modelcontextprotocol/protocolVersion': version, 'io.modelcontextprotocol/clientCapabilities': {} } },
  };
}
