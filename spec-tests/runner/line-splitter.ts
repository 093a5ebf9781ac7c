// Cuts a byte stream into LF-terminated lines. Bytes are kept until a whole line is there, so
// a UTF-8 character split across two reads is decoded intact; each chunk is scanned once.
export class LineSplitter {
  private pending: Buffer[] = [];

  /** Returns the complete lines in `chunk` (without their LF), keeping any unfinished tail. */
  push(chunk: Buffer): Buffer[] {
    const lines: Buffer[] = [];
    let start = 0;
    let newline = chunk.indexOf(0x0a, start);
    while (newline !== -1) {
      lines.push(Buffer.concat([...this.pending, chunk.subarray(start, newline)]));
      this.pending = [];
      start = newline + 1;
      newline = chunk.indexOf(0x0a, start);
    }
    if (start < chunk.length) this.pending.push(chunk.subarray(start));
    return lines;
  }

  /** The bytes after the last LF when the stream ends, if any. */
  finish(): Buffer | undefined {
    const rest = Buffer.concat(this.pending);
    this.pending = [];
    return rest.length > 0 ? rest : undefined;
  }
}
