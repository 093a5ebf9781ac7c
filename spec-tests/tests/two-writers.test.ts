// Two server processes on one data file, each driven by its own client with hundreds of
// interleaved, pipelined mutations: no update may be lost (every comment of both is there,
// every created issue has its own key), and each process's subscribers hear of the other's
// changes (notifications/resources/updated) within a second.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openStore } from '../../lib/store/store.js';
import { type WireServer, startServer } from '../fuzz/wire.js';

const COMMENTS = 200; // per writer, over two issues
const CREATES = 60; // per writer
const IN_FLIGHT = 16;

let counter = 0;
async function request(server: WireServer, method: string, params: unknown): Promise<Record<string, unknown>> {
  const id = `r${++counter}`;
  await server.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
  await server.until(() => server.received.has(JSON.stringify(id)), 20_000, `${method} ${id}`);
  return server.received.get(JSON.stringify(id))?.[0] as Record<string, unknown>;
}

async function startWriter(dataFile: string): Promise<WireServer> {
  const server = startServer(['--data', dataFile]);
  const init = await request(server, 'initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'writer', version: '1' },
  });
  assert.ok(init.result, JSON.stringify(init));
  await server.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  return server;
}

const call = (server: WireServer, name: string, args: Record<string, unknown>) =>
  request(server, 'tools/call', { name, arguments: args });

/** Runs `jobs` with at most IN_FLIGHT at once; returns their answers in order. */
async function pipelined<T>(jobs: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < jobs.length) {
      const index = next++;
      results[index] = await (jobs[index] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  return results;
}

function mutations(server: WireServer, name: string): (() => Promise<Record<string, unknown>>)[] {
  const jobs: (() => Promise<Record<string, unknown>>)[] = [];
  for (let i = 0; i < COMMENTS; i++) {
    jobs.push(() => call(server, 'add_comment', { key: i % 2 ? 'PROJ-101' : 'PROJ-102', body: `${name} comment ${i}` }));
    if (i % 3 === 0 && i / 3 < CREATES)
      jobs.push(() => call(server, 'create_issue', { project: 'WEB', title: `${name} issue ${i / 3}` }));
  }
  return jobs;
}

function succeeded(answer: Record<string, unknown>): Record<string, unknown> {
  const result = answer.result as { isError?: boolean; structuredContent?: Record<string, unknown> } | undefined;
  assert.ok(result && !result.isError, `a mutation failed: ${JSON.stringify(answer).slice(0, 500)}`);
  return result.structuredContent ?? {};
}

/** `writer` changes `uri`'s issue; `watcher` must be told within a second. */
async function notifiedWithinASecond(writer: WireServer, watcher: WireServer, key: string, round: number): Promise<number> {
  const uri = `jira://issue/${key}`;
  const seen = watcher.notifications.length;
  const sentAt = Date.now();
  succeeded(await call(writer, 'add_comment', { key, body: `watched change ${round}` }));
  const isUpdate = (n: { message: Record<string, unknown> }) =>
    n.message.method === 'notifications/resources/updated' && (n.message.params as { uri?: string } | undefined)?.uri === uri;
  await watcher.until(
    () => watcher.notifications.slice(seen).some(isUpdate),
    1000,
    `notifications/resources/updated for ${uri} from the other process`,
  );
  return (watcher.notifications.slice(seen).find(isUpdate)?.at ?? Date.now()) - sentAt;
}

test('two processes, one data file: no lost update, and each hears the other within a second', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'mcp-two-writers-'));
  const dataFile = join(directory, 'tracker.jsonl');
  const servers: WireServer[] = [];
  try {
    servers.push(await startWriter(dataFile), await startWriter(dataFile));
    const [a, b] = servers as [WireServer, WireServer];
    for (const [server, key] of [
      [a, 'PROJ-110'],
      [b, 'PROJ-111'],
    ] as const) {
      const subscribed = await request(server, 'resources/subscribe', { uri: `jira://issue/${key}` });
      assert.ok(subscribed.result, JSON.stringify(subscribed));
    }

    const [answersA, answersB] = await Promise.all([pipelined(mutations(a, 'A')), pipelined(mutations(b, 'B'))]);
    const created = [...answersA, ...answersB]
      .map(succeeded)
      .filter((s) => s.uri === undefined || (s.issue as { title: string }).title.includes(' issue '));
    const keys = created.filter((s) => !('changed' in s)).map((s) => (s.issue as { key: string }).key);
    assert.is(keys.length, 2 * CREATES, 'every create was acknowledged');
    assert.is(new Set(keys).size, keys.length, `duplicate issue keys: ${keys.join(' ')}`);

    const delays: number[] = [];
    for (let round = 0; round < 5; round++) {
      delays.push(await notifiedWithinASecond(a, b, 'PROJ-111', round), await notifiedWithinASecond(b, a, 'PROJ-110', round));
    }
    await checkNothingLost(dataFile, keys);
    console.log(
      `  two writers: ${2 * (COMMENTS + CREATES)} mutations, 0 lost; cross-process notification delay max ${Math.max(...delays)} ms`,
    );
  } finally {
    for (const server of servers) await server.close(3000);
    rmSync(directory, { recursive: true, force: true });
  }
});

async function checkNothingLost(dataFile: string, keys: readonly string[]): Promise<void> {
  const store = await openStore({ path: dataFile, log: () => {}, watch: false });
  try {
    const bodies = new Set(['PROJ-101', 'PROJ-102'].flatMap((key) => store.getIssue(key).comments.map((c) => c.body)));
    for (const name of ['A', 'B']) {
      for (let i = 0; i < COMMENTS; i++) assert.ok(bodies.has(`${name} comment ${i}`), `lost update: "${name} comment ${i}"`);
    }
    for (const key of keys) assert.match(store.getIssue(key).title, / issue \d+$/);
  } finally {
    store.close();
  }
}

test.run();
