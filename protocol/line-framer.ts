// Layer 1: bytes -> lines.
//
// MCP's stdio transport sends one JSON-RPC message per line, delimited by "\n", and a
// message MUST NOT contain a raw newline (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports, "stdio").
// Messages MUST be UTF-8 (https://modelcontextprotocol.io/specification/2025-03-26/basic/transports onwards).
//
// The traps this file avoids (each seen in a widely used MCP implementation):
// - Concatenating the buffer on every chunk and rescanning it from the start is quadratic:
//   an 8 MiB message in 4 KiB chunks took the official SDK 6 s. We keep a list of the
//   chunks of the current line and scan only the new bytes for "\n".
// - Decoding each chunk to text separately corrupts a multi-byte character split across
//   two chunks. We decode once, per complete line.
// - Closing the session on one oversized line. We drop that line up to its newline, report
//   it, and carry on with the next.
// - Windows "\r\n", a leading byte-order mark and blank lines are tolerated, as the Rust SDK does.

const NEWLINE = 0x0a;

export type Frame =
  | { kind: 'line'; text: string }
  /** A line longer than the limit; its bytes were discarded up to the next newline. */
  | { kind: 'too-long'; limitBytes: number }
  /** A line that is not valid UTF-8. */
  | { kind: 'not-utf8' };

export interface LineFramer {
  /** Feeds the next chunk of bytes; calls `onFrame` for every line it completes. */
  push(chunk: Uint8Array): void;
  /** End of input: a last line without a final newline is still a line. */
  end(): void;
}

export function createLineFramer(maxLineBytes: number, onFrame: (frame: Frame) => void): LineFramer {
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
    onFrame({ kind: 'line', text });
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

  return {
    push(chunk) {
      let start = 0;
      for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
        finishLine(chunk.subarray(start, nl));
        start = nl + 1;
      }
      if (start === 0) keepPartial(chunk);
      // Copy a tail: a view would pin the whole chunk in memory while we wait for its line's end.
      else if (start < chunk.length) keepPartial(Uint8Array.prototype.slice.call(chunk, start));
    },
    end() {
      if (partsBytes > 0 && !discarding) finishLine(new Uint8Array(0));
      parts = [];
      partsBytes = 0;
      discarding = false;
    },
  };
}
