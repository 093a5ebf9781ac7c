// Crash safety through the bundled server: SIGKILL at random moments while a client streams
// mutations over MCP (create_issue, add_comment, update_issue), at least 100 kills per run,
// seeded. After every kill the next server must open the same file without help; at the end
// every mutation the client saw acknowledged (a response received) must be in the data, and
// every line of the journal must be whole. Workers on separate data files run in parallel.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openStore } from '../../lib/store/store.js';
import { type Rng, createRng } from '../fuzz/prng.js';
import { type WireServer, startServer } from '../fuzz/wire.js';

const SEED = 4242;
const WORKERS = 4;
const KILLS_PER_WORKER = 26; // 104 kills in all
// Any status: the workflow refuses some moves (a tool error, acknowledged as no change).
const STATUSES = ['todo', 'in_progress', 'in_review', 'blocked', 'done', 'reopened'];
const ISSUES = ['PROJ-101', 'PROJ-102', 'PROJ-103', 'WEB-1'];

type Ack =
  | { kind: 'created'; title: string; key: string }
  | { kind: 'commented'; key: string; body: string }
  | { kind: 'status'; key: string; status: string; changed: boolean };

interface Sent {
  id: string;
  ack: (result: Record<string, unknown>) => Ack;
}

function nextMutation(rng: Rng, tag: string): { method: string; params: unknown; ack: Sent['ack'] } {
  const key = rng.pick(ISSUES);
  const roll = rng.int(3);
  const structured = (result: Record<string, unknown>) =>
    result.structuredContent as { issue: { key: string }; changed?: boolean };
  if (roll === 0) {
    const title = `crash ${tag}`;
    return {
      method: 'tools/call',
      params: { name: 'create_issue', arguments: { project: 'PROJ', title } },
      ack: (r) => ({ kind: 'created', title, key: structured(r).issue.key }),
    };
  }
  if (roll === 1) {
    const body = `comment ${tag}`;
    return {
      method: 'tools/call',
      params: { name: 'add_comment', arguments: { key, body } },
      ack: () => ({ kind: 'commented', key, body }),
    };
  }
  const status = rng.pick(STATUSES);
  return {
    method: 'tools/call',
    params: { name: 'update_issue', arguments: { key, status } },
    ack: (r) => ({ kind: 'status', key, status, changed: structured(r).changed === true }),
  };
}

/** One life of a server: start, initialize, stream mutations, SIGKILL after a random delay. */
async function oneLife(dataFile: string, rng: Rng, life: string): Promise<{ acks: Ack[]; sent: number }> {
  const server = startServer(['--data', dataFile]);
  try {
    await server.write(
      '{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"crash","version":"1"}}}\n',
    );
    await server.until(() => server.received.has('"init"'), 10_000, `initialize (${life})`);
    const sent = await streamUntilKilled(server, rng, life, { answers: 2 + rng.int(4), thenMs: rng.int(60) });
    return { acks: collectAcks(server, sent), sent: sent.length };
  } finally {
    server.kill();
  }
}

/**
 * Keeps up to 8 mutations in flight until `kill.answers` have been answered and `kill.thenMs`
 * more have passed, then kills the server mid-stream. Counting answers first, not time, keeps a
 * slow machine from killing lives before they acknowledge enough for the test to prove
 * anything; a server that never answers fails here.
 */
async function streamUntilKilled(
  server: WireServer,
  rng: Rng,
  life: string,
  kill: { answers: number; thenMs: number },
): Promise<Sent[]> {
  const sent: Sent[] = [];
  const started = Date.now();
  let deadline = Infinity;
  while (Date.now() < deadline && !server.exit) {
    const answered = sent.filter((s) => server.received.has(JSON.stringify(s.id))).length;
    if (answered >= kill.answers && deadline === Infinity) deadline = Date.now() + kill.thenMs;
    assert.ok(Date.now() - started < 15_000, `${life}: no mutation answered within 15 s: ${server.stderr()}`);
    for (let i = sent.length - answered; i < 8; i++) {
      const id = `${life}-${sent.length}`;
      const mutation = nextMutation(rng, id);
      sent.push({ id, ack: mutation.ack });
      await server.write(`${JSON.stringify({ jsonrpc: '2.0', id, method: mutation.method, params: mutation.params })}\n`);
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  server.kill();
  await server.until(() => server.exit !== null, 5000, 'death by SIGKILL');
  assert.is(server.exit?.signal, 'SIGKILL', `${life} ended by itself: ${server.stderr()}`);
  return sent;
}

function collectAcks(server: WireServer, sent: readonly Sent[]): Ack[] {
  const acks: Ack[] = [];
  for (const s of sent) {
    const answer = server.received.get(JSON.stringify(s.id))?.[0] as
      { result?: Record<string, unknown> & { isError?: boolean } } | undefined;
    if (answer === undefined) continue;
    // A move the workflow refuses is answered, not acknowledged: nothing was written.
    if (answer.result?.isError === true && /cannot move from/.test(JSON.stringify(answer.result))) continue;
    assert.ok(answer.result && !answer.result.isError, `mutation ${s.id} failed: ${JSON.stringify(answer)}`);
    acks.push(s.ack(answer.result));
  }
  return acks;
}

async function assertAllAcknowledgedPresent(dataFile: string, acks: readonly Ack[]): Promise<void> {
  const store = await openStore({ path: dataFile, log: () => {}, watch: false });
  try {
    for (const ack of acks) {
      if (ack.kind === 'created') assert.is(store.getIssue(ack.key).title, ack.title, `acknowledged ${ack.key} is missing`);
      if (ack.kind === 'commented')
        assert.ok(
          store.getIssue(ack.key).comments.some((c) => c.body === ack.body),
          `acknowledged comment "${ack.body}" is missing`,
        );
    }
  } finally {
    store.close();
  }
  assertStatusChangesPresent(dataFile, acks);
}

/** Each acknowledged status change has its own journal record (the same change may repeat). */
function assertStatusChangesPresent(dataFile: string, acks: readonly Ack[]): void {
  const records = readFileSync(dataFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { type?: string; key?: string; to?: string });
  const inJournal = new Map<string, number>();
  for (const r of records)
    if (r.type === 'issue.status_changed') inJournal.set(`${r.key} ${r.to}`, (inJournal.get(`${r.key} ${r.to}`) ?? 0) + 1);
  const acked = new Map<string, number>();
  for (const a of acks)
    if (a.kind === 'status' && a.changed) acked.set(`${a.key} ${a.status}`, (acked.get(`${a.key} ${a.status}`) ?? 0) + 1);
  for (const [change, n] of acked)
    assert.ok(
      (inJournal.get(change) ?? 0) >= n,
      `${n} acknowledged "${change}" but ${inJournal.get(change) ?? 0} in the journal`,
    );
}

async function worker(index: number): Promise<{ kills: number; acks: number; torn: number }> {
  const directory = mkdtempSync(join(tmpdir(), 'mcp-crash-'));
  const dataFile = join(directory, 'tracker.jsonl');
  const rng = createRng(SEED + index);
  const acks: Ack[] = [];
  try {
    for (let life = 0; life < KILLS_PER_WORKER; life++) acks.push(...(await oneLife(dataFile, rng, `w${index}l${life}`)).acks);
    await assertAllAcknowledgedPresent(dataFile, acks);
    // Whole lines only: a torn tail would have been moved aside by a reopen, never left in place.
    const text = readFileSync(dataFile, 'utf8');
    assert.ok(text.endsWith('\n'), 'the journal ends with a whole line');
    const torn = readdirSync(directory).filter((f) => f.includes('.torn-')).length;
    return { kills: KILLS_PER_WORKER, acks: acks.length, torn };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

test(`SIGKILL ${WORKERS * KILLS_PER_WORKER} times mid-stream: every acknowledged mutation survives, the store reopens unaided`, async () => {
  const results = await Promise.all(Array.from({ length: WORKERS }, (_, i) => worker(i)));
  const kills = results.reduce((n, r) => n + r.kills, 0);
  const acks = results.reduce((n, r) => n + r.acks, 0);
  assert.ok(kills >= 100, `only ${kills} kills`);
  assert.ok(acks >= 200, `only ${acks} acknowledged mutations: the test would prove little`);
  console.log(
    `  crash: ${kills} kills survived, ${acks} acknowledged mutations all present, ${results.reduce((n, r) => n + r.torn, 0)} torn tails set aside`,
  );
});

test.run();
