// A tracker on fresh demo data with one in-process 2025-11-25 session, for tests that ask it
// questions: `ask` sends a request and returns its whole answer (result or error).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transcript } from '../../protocol/tests/harness.js';
import { openStore, silentLogger } from '../store/index.js';
import { type TrackerServerOptions, createTrackerServer } from '../tracker/server.js';

export type Json = Record<string, any>;

export interface TrackerSession {
  /** The answer, or undefined when none came (the server waits on a request of its own, say). */
  ask(method: string, params?: Json): Promise<{ result?: Json; error?: Json }>;
  /** Requests the server sent this client (sampling, elicitation), left unanswered. */
  readonly requests: Json[];
  close(): void;
}

/** `capabilities`: what the client declares in initialize; none by default. */
export async function trackerSession(options: TrackerServerOptions = {}, capabilities: Json = {}): Promise<TrackerSession> {
  const dir = mkdtempSync(join(tmpdir(), 'tracker-session-'));
  const store = await openStore({ path: join(dir, 'tracker.jsonl'), log: silentLogger, watch: false });
  const t = transcript(createTrackerServer(store, options).definition);
  await t.initialize('2025-11-25', capabilities);
  let id = 0;
  const requests: Json[] = [];
  return {
    requests,
    async ask(method, params) {
      id += 1;
      const mine = id;
      t.client({ jsonrpc: '2.0', id: mine, method, ...(params ? { params } : {}) });
      const answers = (await t.until((messages) => messages.some((message) => message.id === mine))) as Json[];
      requests.push(...answers.filter((message) => message.method !== undefined && message.id !== undefined));
      return answers.find((message) => message.id === mine)!;
    },
    close() {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
