// An in-process client for session tests: write what the client sends, read what the server sent.
import { type OutgoingMessage, encodeLine } from '../json-rpc.js';
import { type ServerDefinition, type Session, createSession } from '../session.js';

export interface Transcript {
  session: Session;
  /** The client writes a message (an object is encoded as one line; a string is sent as the line). */
  client(message: unknown): void;
  /** Everything the server wrote since the last call, once pending work has settled. */
  server(waitMs?: number): Promise<unknown[]>;
  /** Everything the server wrote since the last call, once `done` holds for it (or after `timeoutMs`). */
  until(done: (messages: any[]) => boolean, timeoutMs?: number): Promise<unknown[]>;
  /** Initializes with the given version and drains the answer. */
  initialize(version?: string, capabilities?: Record<string, unknown>): Promise<unknown>;
}

export function transcript(definition: ServerDefinition): Transcript {
  let outbox: (OutgoingMessage | OutgoingMessage[])[] = [];
  const session = createSession(definition, {
    // Through encodeLine, so the tests see exactly the line that would be written.
    send: (message) => outbox.push(JSON.parse(encodeLine(message)) as OutgoingMessage),
    report: () => {},
    settled: () => {},
  });
  const self: Transcript = {
    session,
    client(message) {
      session.receive({ kind: 'line', text: typeof message === 'string' ? message : JSON.stringify(message) });
    },
    async server(waitMs = 0) {
      await new Promise((resolve) => setTimeout(resolve, waitMs));
      await new Promise((resolve) => setImmediate(resolve));
      const out = outbox;
      outbox = [];
      return out;
    },
    async until(done, timeoutMs = 3000) {
      // A deadline, not a fixed wait: a loaded machine may take longer, a quick one need not wait.
      const deadline = Date.now() + timeoutMs;
      while (!done(outbox) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
      return self.server();
    },
    async initialize(version = '2025-11-25', capabilities = {}) {
      self.client({
        jsonrpc: '2.0',
        id: 'init',
        method: 'initialize',
        params: { protocolVersion: version, capabilities, clientInfo: { name: 'test', version: '1' } },
      });
      self.client({ jsonrpc: '2.0', method: 'notifications/initialized' });
      const [answer] = await self.server();
      return answer;
    },
  };
  return self;
}
