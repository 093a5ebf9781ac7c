// What a chapter of the tour (tour-chapters.ts) drives: one connection to the server, and the
// steps it shows. tour.ts makes it and runs the chapters; this interface sits below both, so
// the chapters need nothing from the file that runs them.
import type { StdioClient, WireEvent } from './stdio-client.js';

export interface TourSession {
  readonly client: StdioClient;
  /**
   * Says `say`, runs `action`, shows the messages it caused, then says what `conclude` reads
   * from them. Resolves with those messages.
   */
  step(say: string, action: () => Promise<unknown>, conclude?: (events: WireEvent[]) => string[]): Promise<WireEvent[]>;
  /** Writes a line to the server as it is (for input that is not a valid message), recorded as sent. */
  sendRaw(line: string): void;
  /** Waits until a message the server sent since `from` matches, or `timeoutMs` passes. */
  waitFor(from: number, match: (message: Record<string, unknown>) => boolean, timeoutMs: number): Promise<boolean>;
  /** How many lines crossed the wire so far. */
  readonly mark: number;
  /** The lines that crossed the wire since `from`. */
  wireSince(from: number): WireEvent[];
  /** The connection has a handshake-era session (chapters run alone open one first). */
  sessionOpen: boolean;
}
