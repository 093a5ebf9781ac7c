// An in-process client for session tests: write what the client sends, read what the server sent.
import type { AuthInfo } from '../context.js';
import { type OutgoingMessage, encodeLine } from '../json-rpc.js';
import type { ServerDefinition } from '../definition.js';
import { type Server, createServer } from '../server.js';
import type { Session } from '../session.js';
import type { Route } from '../transport.js';

export interface Transcript {
  /** The server all of this test's connections share. */
  engine: Server;
  /** This client's connection. */
  session: Session;
  /** The client writes a message (an object is encoded as one line; a string is sent as the line). */
  client(message: unknown): void;
  /** Everything the server wrote since the last call, once pending work has settled. */
  server(waitMs?: number): Promise<unknown[]>;
  /** Everything the server wrote since the last call, once `done` holds for it (or after `timeoutMs`). */
  until(done: (messages: any[]) => boolean, timeoutMs?: number): Promise<unknown[]>;
  /** Initializes with the given version and drains the answer. */
  initialize(version?: string, capabilities?: Record<string, unknown>): Promise<unknown>;
  /** The route each message was sent with, in order, since the start. */
  routes: Route[];
  /** Another client of the same server, on its own connection. */
  another(): Transcript;
}

/** `auth`: who the transport authenticated the connection as (RequestContext.auth), as HTTP's bearer check would. */
export function transcript(definition: ServerDefinition | Server, auth?: AuthInfo): Transcript {
  const server = 'connect' in definition ? definition : createServer(definition);
  let outbox: (OutgoingMessage | OutgoingMessage[])[] = [];
  const routes: Route[] = [];
  const session = server.connect({
    // Through encodeLine, so the tests see exactly the line that would be written.
    send: (message, route) => {
      outbox.push(JSON.parse(encodeLine(message)) as OutgoingMessage);
      routes.push(route);
    },
    report: () => {},
    settled: () => {},
    auth,
  });
  const self: Transcript = {
    engine: server,
    session,
    routes,
    client(message) {
      session.receive({ kind: 'message', text: typeof message === 'string' ? message : JSON.stringify(message) });
    },
    async server(waitMs = 0) {
      await new Promise((resolve) => setTimeout(resolve, waitMs));
      await new Promise((resolve) => setImmediate(resolve));
      const out = outbox;
      outbox = [];
      return out;
    },
    async until(done, timeoutMs = 15_000) {
      // A deadline, not a fixed wait: a loaded machine may take longer, a quick one need not wait.
      // Generous: a tracker's first query or write in a test process loads its module from source
      // (200-470 ms of CPU under tsx), which a loaded machine stretches several times over.
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
    another: () => transcript(server),
  };
  return self;
}
