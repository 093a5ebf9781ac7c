// Reads a text/event-stream body into its events, as the HTML standard defines the format
// (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation):
// lines end in CRLF, LF or CR; `data:` lines accumulate, `event:` names the type, a line starting
// with `:` is a comment (a keep-alive), and a blank line dispatches the event. An event that is
// not finished when the stream ends is dropped, as the standard says. A `retry:` line of digits
// sets the reconnection time at once, whether or not an event follows.

export interface SseEvent {
  /** The event type; `message` when the server named none. */
  type: string;
  data: string;
  /** The event's own `id:` field, when it has one (a resumable stream). */
  id?: string;
}

export class SseReader {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private pending = '';
  private data: string[] = [];
  private dataChars = 0;
  private type = '';
  private id: string | undefined;
  /** A CR ended the last chunk: an LF starting the next one belongs to the same line end. */
  private afterCr = false;
  /** The reconnection time the server asked for (`retry:`), in milliseconds. */
  retryMs: number | undefined;

  /** `maxEventChars` bounds one event (and one unfinished line): past it `push` throws. */
  constructor(private readonly maxEventChars: number) {}

  /** The events completed by `chunk`; throws on bytes that are not UTF-8 or an event past the bound. */
  push(chunk: Uint8Array): SseEvent[] {
    let text = this.decoder.decode(chunk, { stream: true });
    if (this.afterCr && text.startsWith('\n')) text = text.slice(1);
    this.afterCr = text.endsWith('\r');
    const lines = (this.pending + text).split(/\r\n|\r|\n/);
    this.pending = lines.pop() ?? '';
    if (this.pending.length > this.maxEventChars) throw new Error(`an SSE line longer than ${this.maxEventChars} characters`);
    return lines.flatMap((line) => this.readLine(line));
  }

  private readLine(line: string): SseEvent[] {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return [];
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') {
      this.dataChars += value.length + 1;
      if (this.dataChars > this.maxEventChars) throw new Error(`an SSE event larger than ${this.maxEventChars} characters`);
      this.data.push(value);
    }
    if (field === 'event') this.type = value;
    if (field === 'id' && !value.includes('\0')) this.id = value;
    if (field === 'retry' && /^[0-9]+$/.test(value)) this.retryMs = Number(value);
    return [];
  }

  private dispatch(): SseEvent[] {
    const id = this.id;
    const event = {
      type: this.type === '' ? 'message' : this.type,
      data: this.data.join('\n'),
      ...(id !== undefined ? { id } : {}),
    };
    const hadData = this.data.length > 0 || id !== undefined;
    this.data = [];
    this.dataChars = 0;
    this.type = '';
    this.id = undefined;
    return hadData ? [event] : [];
  }
}
