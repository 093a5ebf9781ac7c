// First reading: skip this file. It is performance or flow-control code, the last step of the reading path in docs/reading-path.md.
// Read-ahead for a stdio connection at its limit of requests in flight, or with its output backed up.
//
// While `--max-in-flight` requests run, or the client has not read `--max-queued-bytes` of
// answers, more requests must wait: that is what bounds memory. But some messages must not wait
// behind them:
// - `ping`: "The receiver MUST respond promptly with an empty response"
//   (https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/ping); a host
//   that sees no answer takes the server for hung and restarts it;
// - `notifications/cancelled`: the work it stops may be what holds the others up
//   (https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/cancellation).
// - a cheap listing (session.ts QUICK_METHODS), which the session answers at once too.
// So at the limit we go on reading, a bounded amount: a ping or a listing is answered at once
// (while the output has room for answers sent first: line-writer.ts sendFirst), a cancellation
// is handed on at once and again in its place in line, and every other message waits, in
// order, until a request finishes. Handing a cancellation on twice is harmless (an
// unknown id is ignored) and keeps its meaning: at once it stops a request that runs now; in
// its place it stops a request it follows that had not started yet.

import { QUICK_METHODS } from './session.js';
import type { Inbound } from './transport.js';

/** Longest line looked into for a ping or a cancellation: both are small. */
const MAX_CONTROL_LINE = 1024;

export interface ReadAhead {
  /** A message read while the connection had no room: answered now, queued, or both. */
  hold(message: Inbound): void;
  /** Hands on the messages held, in order, while `hasRoom` says so. */
  drain(hasRoom: () => boolean): void;
  /** Bytes held beyond the limit: stop reading. */
  readonly full: boolean;
  readonly holding: boolean;
}

/** `answersNow`: whether an answer sent first has room in the output now. */
export function createReadAhead(
  deliver: (message: Inbound) => void,
  maxBytes: number,
  answersNow: () => boolean = () => true,
): ReadAhead {
  const held: Inbound[] = [];
  let first = 0;
  let bytes = 0;
  // Pings and listings read while the output had no room even for answers sent first: answered
  // as soon as it has, ahead of everything held (they would otherwise wait behind it all).
  let quick: Inbound[] = [];

  const count = (message: Inbound, sign: 1 | -1) => (bytes += message.kind === 'message' ? sign * message.text.length : 0);

  return {
    hold(message) {
      const control = controlKind(message);
      if (control === 'quick' && !answersNow()) {
        quick.push(message);
        count(message, 1);
        return;
      }
      if (control) deliver(message);
      if (control === 'quick') return;
      held.push(message);
      count(message, 1);
    },
    drain(hasRoom) {
      if (quick.length > 0 && answersNow()) {
        const waiting = quick;
        quick = [];
        for (const message of waiting) {
          count(message, -1);
          deliver(message);
        }
      }
      while (first < held.length && hasRoom()) {
        const message = held[first]!;
        held[first++] = undefined as never; // let it go: a held line may be megabytes
        count(message, -1);
        deliver(message);
      }
      // Forget the handed-on slots now and then, so the array does not grow with every message.
      if (first === held.length || first > 1024) {
        held.splice(0, first);
        first = 0;
      }
    },
    get full() {
      return bytes >= maxBytes;
    },
    get holding() {
      return first < held.length || quick.length > 0;
    },
  };
}

/** A ping or a listing (quick), or a cancellation, told from a short line without trusting it further. */
function controlKind(message: Inbound): 'quick' | 'cancel' | undefined {
  if (message.kind !== 'message' || message.text.length > MAX_CONTROL_LINE) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(message.text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { method, id } = value as { method?: unknown; id?: unknown };
  if (typeof method === 'string' && (method === 'ping' || QUICK_METHODS.has(method)) && id !== undefined) return 'quick';
  if (method === 'notifications/cancelled' && id === undefined) return 'cancel';
  return undefined;
}
