// First reading: skip this file. It is a detail of the HTTP transport; stdio is enough to learn MCP (reading path in README.md).
// One memory budget for every client of the HTTP endpoint, and each peer's fair share of it.
//
// What a client can make the process hold, and the bound on each (all clients together):
//   - output waiting for a client that reads slowly or not at all (JSON bodies and SSE
//     streams alike): `maxQueuedBytes`, counted in characters as on stdio (line-writer.ts);
//   - requests being served: `maxInFlight`, as on stdio;
//   - request bodies being received: `maxBodyBytes`.
// Past --max-in-flight a request waits for a slot, as on stdio (where reading pauses), the
// waiting peers taking turns, so the greediest cannot keep the others waiting; after
// `slotWaitMs` it gets 503. Output and bodies are shares: each peer address gets at most half
// of each (PEER_SHARE), so one greedy client never holds the whole budget: past its share it
// gets 429 (Too Many Requests: it is the one asking for too much); past the whole budget
// everyone gets 503 (Service Unavailable), both with `Retry-After` (RFC 9110 section 10.2.3,
// RFC 6585 section 4). A body past a share is not read at all. A request is refused before it
// runs, never cut off while running; a client whose output stops draining for `stallMs` is
// closed, which frees its share, and after 2 s while the whole budget is full (the slowest go
// first: a client that reads is never closed).
//
// So the output held stays under `maxQueuedBytes` plus one answer per request in flight, as
// on stdio (README, "held off"): admission stops at the bound, and the requests already
// running may each add their answer. The worst case the limits allow (README.md "Bounds over
// HTTP"; measured in docs/hardening.md), counting 2 bytes of memory per character held (the
// answer's string and its copy on its way to the socket) and 3 per body byte (the chunks, the
// text, the parsed value):
//   RSS <= the process with its data
//          + 2 x (maxQueuedBytes + maxInFlight x the largest answer)
//          + 3 x maxBodyBytes + maxConnections x 64 KiB (socket and parser state)
// With the defaults (64 MiB, 64, 64 MiB, 1000) and answers of at most 10.3 MB (a resources/read
// of an issue of 1,000 comments of 10,000 characters): 50 MB + 1,450 MB + 200 MB + 64 MB, about
// 1.8 GB; with --max-in-flight 4 --max-queued-bytes 1000000, about 400 MB. The largest answer is
// the term to watch: --max-in-flight multiplies it.
//
// A peer is the socket's remote address: behind a proxy every client is the proxy, and on
// one machine every local client is 127.0.0.1; shares then protect the process, not one
// local client from another.

import type { IncomingMessage, ServerResponse } from 'node:http';

/** How long a response may make no progress while the output budget is full. */
const PRESSED_STALL_MS = 2000;

/** A peer gets at most this part of each total. */
export const PEER_SHARE = 0.5;

export interface BudgetLimits {
  maxQueuedBytes: number;
  maxInFlight: number;
  maxBodyBytes: number;
  /** A response whose queued output has not shrunk for this long is closed (default 30 s). */
  stallMs: number;
  /** A request waits this long for a slot of maxInFlight, then gets 503 (default 10 s). */
  slotWaitMs: number;
}

/** Why a request cannot be taken now: its HTTP status (429 or 503) and what to tell the client. */
export interface Refusal {
  status: 429 | 503;
  message: string;
}

interface PeerUse {
  queued: number;
  inFlight: number;
  body: number;
}

interface Waiter {
  requests: number;
  grant(): void;
}

interface QueuedResponse {
  peer: string;
  /** What this response counts against the budget now (its queued output when last looked at). */
  counted: number;
  /** When its queued output last shrank (or was first counted). */
  progressAt: number;
}

export class HttpBudget {
  readonly limits: BudgetLimits;
  readonly #peers = new Map<string, PeerUse>();
  readonly #responses = new Map<ServerResponse, QueuedResponse>();
  readonly #total: PeerUse = { queued: 0, inFlight: 0, body: 0 };
  /** Requests waiting for a slot, by peer, in the order the peers take turns. */
  readonly #waiting = new Map<string, Waiter[]>();
  readonly #sweeper: NodeJS.Timeout;

  constructor(limits: BudgetLimits) {
    this.limits = limits;
    this.#sweeper = setInterval(() => this.#closeStalled(), Math.min(1000, limits.stallMs));
    this.#sweeper.unref();
  }

  /** What everyone holds now (for tests and the operator). */
  get total(): Readonly<PeerUse> {
    return this.#total;
  }

  /** Whether `peer` may start requests now, as far as output waiting for clients goes. */
  admitOutput(peer: string): Refusal | undefined {
    const queued = this.#peers.get(peer)?.queued ?? 0;
    const { maxQueuedBytes } = this.limits;
    if (queued >= share(maxQueuedBytes)) {
      return tooMany(`output for you waits unread (${queued} characters; a client's share is ${share(maxQueuedBytes)})`);
    }
    if (this.#total.queued >= maxQueuedBytes) return busy(`${this.#total.queued} characters of output wait for clients`);
    return undefined;
  }

  /**
   * Takes `requests` of the `maxInFlight` slots for `peer` until `res` closes: at once (true)
   * when they are free, else when they free up (the promise says true), peers taking turns so
   * the greediest cannot keep the others waiting; false after `slotWaitMs`, or when the client
   * left. Past --max-in-flight a request waits, as on stdio, where reading pauses.
   */
  takeSlots(peer: string, requests: number, res: ServerResponse): true | Promise<boolean> {
    if (this.#waiting.size === 0 && this.#fits(requests)) {
      this.#hold(peer, requests, res);
      return true;
    }
    return new Promise((resolve) => {
      let done = false;
      const finish = (granted: boolean) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        if (granted) this.#hold(peer, requests, res);
        else this.#unqueue(peer, waiter);
        resolve(granted);
      };
      const waiter: Waiter = { requests, grant: () => finish(true) };
      const timer = setTimeout(() => finish(false), this.limits.slotWaitMs);
      res.once('close', () => finish(false));
      const queue = this.#waiting.get(peer) ?? [];
      queue.push(waiter);
      this.#waiting.set(peer, queue);
    });
  }

  #fits(requests: number): boolean {
    // A batch larger than the whole limit runs alone rather than never.
    return this.#total.inFlight + requests <= this.limits.maxInFlight || this.#total.inFlight === 0;
  }

  #hold(peer: string, requests: number, res: ServerResponse): void {
    this.#add(peer, 'inFlight', requests);
    res.once('close', () => {
      this.#add(peer, 'inFlight', -requests);
      this.#grantWaiting();
    });
  }

  /** Freed slots go to the waiting peers in turn: the first waiter of each, then round again. */
  #grantWaiting(): void {
    while (this.#waiting.size > 0) {
      const [peer, queue] = this.#waiting.entries().next().value as [string, Waiter[]];
      if (!this.#fits(queue[0]!.requests)) return;
      const waiter = queue.shift()!;
      // The peer goes to the back of the rotation.
      this.#waiting.delete(peer);
      if (queue.length > 0) this.#waiting.set(peer, queue);
      waiter.grant();
    }
  }

  #unqueue(peer: string, waiter: Waiter): void {
    const queue = this.#waiting.get(peer);
    if (!queue) return;
    const at = queue.indexOf(waiter);
    if (at !== -1) queue.splice(at, 1);
    if (queue.length === 0) this.#waiting.delete(peer);
  }

  /** Takes `bytes` more of body for `peer`, or says why not; `release` gives them back. */
  reserveBody(peer: string, bytes: number): Refusal | undefined {
    const use = this.#peers.get(peer)?.body ?? 0;
    if (use + bytes > share(this.limits.maxBodyBytes)) {
      return tooMany(
        `your request bodies would hold ${use + bytes} bytes (a client's share is ${share(this.limits.maxBodyBytes)})`,
      );
    }
    if (this.#total.body + bytes > this.limits.maxBodyBytes)
      return busy(`${this.#total.body} bytes of request bodies are on their way`);
    this.#add(peer, 'body', bytes);
    return undefined;
  }

  releaseBody(peer: string, bytes: number): void {
    this.#add(peer, 'body', -bytes);
  }

  /**
   * Counts what `res` has queued for its client (call after each write): `res.writableLength`
   * is the response's own buffer plus its socket's, so it only shrinks as the client reads.
   */
  noteQueued(peer: string, res: ServerResponse): void {
    let entry = this.#responses.get(res);
    // Most answers are in the operating system's hands at once: nothing to count, nothing to watch.
    if (!entry && (res.writableFinished || res.writableLength === 0)) return;
    if (!entry) {
      entry = { peer, counted: 0, progressAt: Date.now() };
      this.#responses.set(res, entry);
      // 'finish': everything was handed to the operating system; 'close': the client went.
      const forget = () => this.#recount(res, 0);
      res.once('finish', forget);
      res.once('close', forget);
    }
    this.#recount(res, res.writableFinished || res.destroyed ? 0 : res.writableLength);
  }

  close(): void {
    clearInterval(this.#sweeper);
  }

  #recount(res: ServerResponse, queued: number): void {
    const entry = this.#responses.get(res);
    if (!entry) return;
    if (queued < entry.counted || entry.counted === 0) entry.progressAt = Date.now();
    this.#add(entry.peer, 'queued', queued - entry.counted);
    entry.counted = queued;
    if (queued === 0) this.#responses.delete(res);
  }

  /**
   * Every second: recount what each response still holds; one that has not shrunk for `stallMs`
   * is closed, or for PRESSED_STALL_MS while the whole budget is full, so that clients that
   * never read keep everyone else out for seconds, not for `stallMs`.
   */
  #closeStalled(): void {
    const now = Date.now();
    const full = this.#total.queued >= this.limits.maxQueuedBytes;
    const patience = full ? Math.min(PRESSED_STALL_MS, this.limits.stallMs) : this.limits.stallMs;
    for (const [res, entry] of [...this.#responses]) {
      this.#recount(res, res.writableFinished || res.destroyed ? 0 : res.writableLength);
      if (entry.counted > 0 && now - entry.progressAt >= patience) {
        this.#recount(res, 0);
        res.destroy();
      }
    }
  }

  #add(peer: string, field: keyof PeerUse, amount: number): void {
    if (amount === 0) return;
    let use = this.#peers.get(peer);
    if (!use) this.#peers.set(peer, (use = { queued: 0, inFlight: 0, body: 0 }));
    use[field] += amount;
    this.#total[field] += amount;
    if (use.queued === 0 && use.inFlight === 0 && use.body === 0) this.#peers.delete(peer);
  }
}

/** The client's address: what shares are counted by (the header of this file says what that means behind a proxy). */
export function peerOf(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? '';
}

/** A peer's share of a total: at least 1, so a small limit still lets everyone in. */
export function share(total: number): number {
  return Math.max(1, Math.floor(total * PEER_SHARE));
}

const tooMany = (why: string): Refusal => ({ status: 429, message: `Too Many Requests: ${why}; retry later` });
const busy = (why: string): Refusal => ({ status: 503, message: `Service Unavailable: ${why}; retry later` });
