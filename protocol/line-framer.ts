// Layer 1: bytes -> lines.
//
// MCP's stdio transport sends one JSON-RPC message per line, delimited by "\n", and a
// message MUST NOT contain a raw newline (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports, "stdio").
// Messages MUST be UTF-8 (https://modelcontextprotocol.io/specification/2025-03-26/basic/transports onwards).
//
// The traps this file avoids (each seen in a widely used MCP implementation):
// - Concatenating the buffer on every chunk and rescanning it from the start is quadratic
//   in the size of a message (docs/performance.md has the official SDK's figure). We keep a
//   list of the chunks of the current line and scan only the new bytes for "\n".
// - Decoding each chunk to text separately corrupts a multi-byte character split across
//   two chunks. We decode once, per complete line.
// - Closing the session on one oversized line. We drop that line up to its newline, report
//   it, and carry on with the next.
// - Windows "\r\n", a leading byte-order mark and blank lines are tolerated, as the Rust SDK does.
// - Handing on every line of a chunk in one go: one chunk can hold thousands of requests, and a
//   limit on the work in flight can only hold between two lines. `pause()` stops there; the rest
//   of the chunk waits for `resume()`.

import type { Inbound } from './transport.js';

const NEWLINE = 0x0a;

/** A line is one message; a line longer than the limit is discarded up to the next newline. */
export type Frame = Inbound;

export interface LineFramer {
  /** Feeds the next chunk of bytes; calls `onFrame` for every line it completes, until paused. */
  push(chunk: Uint8Array): void;
  /** End of input: a last line without a final newline is still a line. */
  end(): void;
  /** Hands on no more lines: the rest of the input waits here, however many lines one chunk held. */
  pause(): void;
  /** Hands on the waiting lines, until paused again or they run out. */
  resume(): void;
  /** True while input that has arrived is waiting to be handed on. */
  readonly holding: boolean;
}

/** The bytes of the line being read, bounded by the limit: its parts, and what ends it. */
interface LineAssembler {
  /** The line ends with these bytes: hand it on (or its complaint). */
  finishLine(lastPart: Uint8Array): void;
  /** More of the line, its end not yet seen. */
  keepPartial(part: Uint8Array): void;
  /** End of input: a last line without a final newline is still a line. */
  finishInput(): void;
}

function createLineAssembler(maxLineBytes: number, onFrame: (frame: Frame) => void): LineAssembler {
  // `fatal` turns invalid UTF-8 into an exception instead of silent U+FFFD replacement;
  // the default `ignoreBOM: false` strips a leading byte-order mark.
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let parts: Uint8Array[] = [];
  let partsBytes = 0;
  // While true, we are inside an oversized line and drop bytes until its newline.
  let discarding = false;

  function finishLine(lastPart: Uint8Array): void {
    if (discarding) {
      discarding = false;
      return;
    }
    const tooLong = partsBytes + lastPart.length > maxLineBytes;
    const line = tooLong || parts.length === 0 ? lastPart : Buffer.concat([...parts, lastPart]);
    // Reset before handing the line on, so whatever the handler does, the next line starts clean.
    parts = [];
    partsBytes = 0;
    if (tooLong) onFrame({ kind: 'too-long', limitBytes: maxLineBytes });
    else emitLine(line);
  }

  function emitLine(bytes: Uint8Array): void {
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      onFrame({ kind: 'not-utf8' });
      return;
    }
    if (text.endsWith('\r')) text = text.slice(0, -1);
    // Blank lines carry no message; skipping them is what a line-oriented reader expects.
    if (text.trim() === '') return;
    onFrame({ kind: 'message', text });
  }

  function keepPartial(part: Uint8Array): void {
    if (discarding || part.length === 0) return;
    if (partsBytes + part.length > maxLineBytes) {
      // Report as soon as we know, and stop buffering: memory stays bounded by the limit.
      onFrame({ kind: 'too-long', limitBytes: maxLineBytes });
      parts = [];
      partsBytes = 0;
      discarding = true;
      return;
    }
    parts.push(part);
    partsBytes += part.length;
  }

  function finishInput(): void {
    if (partsBytes > 0 && !discarding) finishLine(new Uint8Array(0));
    parts = [];
    partsBytes = 0;
    discarding = false;
  }

  return { finishLine, keepPartial, finishInput };
}

export function createLineFramer(maxLineBytes: number, onFrame: (frame: Frame) => void): LineFramer {
  const { finishLine, keepPartial, finishInput } = createLineAssembler(maxLineBytes, onFrame);

  // Chunks not yet cut into lines, oldest first, and how far into the first one we are. Only a
  // pause leaves anything here: the reader stops reading while we hold input, so this stays
  // within a chunk or two.
  const input: Uint8Array[] = [];
  let offset = 0;
  let paused = false;
  let ended = false;
  // Handing on a line can pause, resume or push again; only the outermost call cuts lines.
  let cutting = false;

  function cutLines(): void {
    if (cutting) return;
    cutting = true;
    try {
      while (!paused && input.length > 0) {
        const chunk = input[0]!;
        const nl = chunk.indexOf(NEWLINE, offset);
        const start = offset;
        offset = nl + 1;
        if (nl === -1 || offset === chunk.length) {
          input.shift();
          offset = 0;
        }
        if (nl !== -1) finishLine(chunk.subarray(start, nl));
        // Copy a tail: a view would pin the whole chunk in memory while we wait for its line's end.
        else keepPartial(start === 0 ? chunk : Uint8Array.prototype.slice.call(chunk, start));
      }
      if (!paused && ended && input.length === 0) {
        finishInput();
        ended = false;
      }
    } finally {
      cutting = false;
    }
  }

  return {
    push(chunk) {
      input.push(chunk);
      cutLines();
    },
    end() {
      ended = true;
      cutLines();
    },
    pause() {
      paused = true;
    },
    resume() {
      paused = false;
      cutLines();
    },
    get holding() {
      return input.length > 0 || ended;
    },
  };
}
