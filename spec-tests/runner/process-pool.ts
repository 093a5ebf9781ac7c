// Server processes shared by the fixtures that can share one (process-sharing.ts says which).
//
// A fixture borrows a process for its turn through a ProcessLease, which looks to the Session
// like a process of its own: it sees only the events of its turn, and in the handshake era it
// continues the session the first fixture opened. Between turns the pool makes sure that the
// previous fixture is over:
// - every request it sent was answered (the Session waits for that instead of closing stdin);
// - a fence, a request of the runner's own (`ping`, or `server/discover` in 2026-07-28), is
//   answered with nothing but notifications before it: a server writes its answers in order on
//   one stdout, so what the previous fixture caused has arrived by then;
// - the process is alive and nothing arrived while it was idle.
// Otherwise the process is stopped. A fixture that failed, or whose turn did not end clean, is
// played again on a fresh process (run-fixture.ts); a process whose turn ended clean serves on.
//
// A client MUST NOT reuse a request id within a session
// (https://modelcontextprotocol.io/specification/2025-11-25/basic "Requests"), yet every fixture
// starts at id 1. So from the second turn of a handshake session on, the lease renames the ids
// of the fixture's requests on the way out (1 -> 1000001, "a" -> "a#1", turn by turn) and back
// on the way in; the Session never sees the difference. Ids that are the subject of a fixture
// (0, "", negative, huge, non-ASCII) are never renamed: such fixtures get a fresh process.
import type { JsonObject, JsonValue } from './json-types.js';
import { isJsonObject } from './json-types.js';
import { ServerProcess } from './server-process.js';
import type { ServerConnection, ServerEvent } from './server-connection.js';
import { isPlainId, PLAIN_NUMBER_LIMIT } from './process-sharing.js';

const HANDSHAKE_REQUEST_ID = 'mcp-conform:initialize';
const STOP_GRACE_MS = 500;

/** One running server and the session its fixtures continue. */
class SharedProcess {
  readonly process: ServerProcess;
  turns = 0;
  /** The initialize result of the session (handshake era), once the first turn has seen it. */
  initializeResult: JsonObject | undefined;
  initialized = false;
  /** The events up to here belong to finished turns. */
  settledAt = 0;

  constructor(
    command: string,
    readonly key: string,
  ) {
    this.process = new ServerProcess(command);
  }

  get stateless(): boolean {
    return this.key.startsWith('stateless ');
  }

  /** Ready for another turn: alive, its session open, and silent while idle (notifications aside). */
  get reusable(): boolean {
    if (this.process.hasExited || (!this.stateless && !this.initialized)) return false;
    return this.process.events.slice(this.settledAt).every(isNotification);
  }
}

export class ServerPool {
  private readonly idle: SharedProcess[] = [];
  private readonly running = new Set<SharedProcess>();

  constructor(
    private readonly command: string,
    private readonly stepTimeoutMs: number,
  ) {}

  /** A lease on an idle process of this key, or on a new one. */
  async acquire(key: string): Promise<ProcessLease> {
    for (let index = this.idle.findIndex((item) => item.key === key); index >= 0;) {
      const [candidate] = this.idle.splice(index, 1);
      if (candidate?.reusable) return new ProcessLease(candidate, this.stepTimeoutMs);
      if (candidate) await this.discard(candidate);
      index = this.idle.findIndex((item) => item.key === key);
    }
    return this.acquireNew(key);
  }

  /** A lease on a process started for it: its first turn, as on a fresh process. */
  acquireNew(key: string): ProcessLease {
    const started = new SharedProcess(this.command, key);
    this.running.add(started);
    return new ProcessLease(started, this.stepTimeoutMs);
  }

  /** Ends a turn: the process waits for the next fixture if the turn ended clean, else it is stopped. */
  async release(lease: ProcessLease): Promise<void> {
    lease.shared.settledAt = lease.shared.process.events.length;
    if (lease.endedClean && lease.shared.reusable) this.idle.push(lease.shared);
    else await this.discard(lease.shared);
  }

  /** Stops every process: each gets its stdin closed, then is killed with what it started. */
  async close(): Promise<void> {
    this.idle.splice(0);
    await Promise.all([...this.running].map((shared) => this.discard(shared)));
  }

  private async discard(shared: SharedProcess): Promise<void> {
    this.running.delete(shared);
    shared.process.end();
    await shared.process.stop(STOP_GRACE_MS);
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
  ) {
    this.shared = shared;
    this.firstTurn = shared.turns === 0;
    this.turn = shared.stateless ? 0 : shared.turns;
    shared.turns += 1;
    this.firstEvent = shared.process.events.length;
    this.firstStderr = shared.process.stderrText.length;
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
    const outbound = this.outbound(message);
    if (isJsonObject(message) && message.method === 'notifications/initialized') this.shared.initialized = true;
    return this.shared.process.send(outbound);
  }

  /** Raw bytes cannot be renamed or followed: the process is not shared after them. */
  write(chunk: Buffer): Promise<void> {
    this.clean = false;
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
    if (!this.sharedTurn.allAnswered() || this.hasExited) this.clean = false;
    if (this.clean) this.clean = await this.fenceAnswered();
  }

  /** Sends the fence and waits for its answer; false if anything but notifications comes first, or nothing. */
  private async fenceAnswered(): Promise<boolean> {
    const id = `mcp-conform:between-turns:${this.shared.turns}`;
    const process = this.shared.process;
    const from = process.events.length;
    await process.send(this.shared.stateless ? discoverRequest(id, this.shared.key) : { jsonrpc: '2.0', id, method: 'ping' });
    const deadline = Date.now() + this.stepTimeoutMs;
    for (let checked = from; Date.now() < deadline && !process.hasExited;) {
      for (; checked < process.events.length; checked++) {
        const event = process.events[checked] as ServerEvent;
        if (event.kind === 'message' && isJsonObject(event.value) && event.value.id === id) return true;
        if (!isNotification(event)) return false;
      }
      await process.waitForEvent(checked, deadline);
    }
    return false;
  }

  private outbound(message: JsonValue): JsonValue {
    if (Array.isArray(message)) return message.map((item) => this.outbound(item));
    if (!isJsonObject(message) || typeof message.method !== 'string') return message;
    if ('id' in message) {
      const id = this.rename(message.id ?? null);
      this.pending.add(JSON.stringify(id));
      return { ...message, id };
    }
    const params = message.params;
    if (message.method === 'notifications/cancelled' && isJsonObject(params) && 'requestId' in params) {
      // The receiver may leave a cancelled request unanswered.
      const requestId = this.rename(params.requestId ?? null);
      this.pending.delete(JSON.stringify(requestId));
      return { ...message, params: { ...params, requestId } };
    }
    return message;
  }

  private rename(id: JsonValue): JsonValue {
    if (this.turn === 0 || !isPlainId(id)) return id;
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
    if (key === JSON.stringify(HANDSHAKE_REQUEST_ID) && isJsonObject(value.result)) this.shared.initializeResult ??= value.result;
    return this.renamed.has(key) ? { ...value, id: this.renamed.get(key) ?? null } : value;
  }
}

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
