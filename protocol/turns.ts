// First reading: skip this file. It is performance or flow-control code, the last chapter of the reading path in README.md.
// Turns: the work of every connection of a server, a slice of the event loop at a time.
//
// A ping "MUST" be answered "promptly"
// (https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/ping), and a
// cancellation must reach the request it stops. But Node runs one thing at a time: while a
// handler reads a 10 MB issue, nothing else is read. Handled as they arrive, 200 pipelined reads
// kept a ping waiting 12.8 s, 16 HTTP clients 1.2 s (issue 30). So the session hands each
// message that may be costly to `run`, which runs it at once while the current turn of the event
// loop has spent less than SLICE_MS on such work, and otherwise queues it, first in first out, for
// a later turn (setImmediate). Between two turns Node reads its input (stdin, sockets): a ping
// that arrives is answered there and then, behind one costly message at most, never behind all
// of them. Quick messages (ping, cancellations, listings) never come here (session.ts).
//
// The queue is bounded by what the transports let in: what waits here counts as in flight on its
// connection (stdio stops reading at --max-in-flight; HTTP has its own caps).

/** Costly work one turn may start; the message that crosses it still finishes, then the turn ends. */
export const SLICE_MS = 5;

export interface Turns {
  /** Runs `work` now if the turn has room, else in a later turn, in the order given. */
  run(work: () => void): void;
  /** Work waiting for a later turn. */
  readonly waiting: number;
}

export function createTurns(): Turns {
  const queue: (() => void)[] = [];
  let first = 0;
  let turnStarted: number | undefined;
  let scheduled = false;

  /** The first costly work of a turn starts its clock; the next turn (setImmediate) starts afresh. */
  function hasRoom(): boolean {
    const now = performance.now();
    if (turnStarted === undefined) {
      turnStarted = now;
      schedule();
      return true;
    }
    return now - turnStarted < SLICE_MS;
  }

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    setImmediate(nextTurn);
  }

  function nextTurn(): void {
    scheduled = false;
    turnStarted = undefined;
    while (first < queue.length && hasRoom()) {
      const work = queue[first]!;
      queue[first++] = undefined as never;
      work();
    }
    if (first === queue.length || first > 1024) {
      queue.splice(0, first);
      first = 0;
    }
    if (first < queue.length) schedule();
  }

  return {
    run(work) {
      if (first === queue.length && hasRoom()) return work();
      queue.push(work);
      schedule();
    },
    get waiting() {
      return queue.length - first;
    },
  };
}
