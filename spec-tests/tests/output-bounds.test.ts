// Subprocess tests of a client that writes faster than it reads: the requests running at once
// (--max-in-flight) and the output waiting for the client (--max-queued-bytes) stay within their
// limits however the input is cut into chunks, and no request goes unanswered.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type StdioClient, spawnStdioClient } from '../../lib/demo/stdio-client.js';
import { openStore } from '../../lib/store/index.js';

const SERVER = 'dist/mcp-tracker.mjs';
const MiB = 1024 * 1024;

/** A data file in which PROJ-101 reads as about 1 MB: 100 comments of 10,000 characters. */
async function dataWithBigIssue(): Promise<{ path: string; remove(): void }> {
  const folder = mkdtempSync(join(tmpdir(), 'mcp-output-bounds-'));
  const path = join(folder, 'tracker.jsonl');
  const store = await openStore({ path, log: () => {}, watch: false });
  for (let i = 0; i < 100; i++) await store.addComment('PROJ-101', { body: `${i} ${'c'.repeat(9_990)}` });
  store.close();
  return { path, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

/** A field of /proc/PID/status in KiB: VmRSS is resident memory now, VmHWM its peak so far (proc(5)). */
function memoryKiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1]);
}

const answerTo = (client: StdioClient, id: unknown) => client.received.find((m: any) => m.id === id && !('method' in m)) as any;

/** Resolves once every id has its answer; a generous deadline, so a loaded machine only runs slower. */
async function answered(client: StdioClient, ids: unknown[], timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (ids.some((id) => answerTo(client, id) === undefined)) {
    if (Date.now() > deadline || client.child.exitCode !== null) {
      const missing = ids.filter((id) => answerTo(client, id) === undefined);
      throw new Error(`${missing.length} of ${ids.length} unanswered (exit ${client.child.exitCode})\n${client.stderr()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('200 reads of a 1 MB resource in one write, from a client that stops reading for a while: each answered, in order, and the output held back stays near --max-queued-bytes', async () => {
  const data = await dataWithBigIssue();
  const client = spawnStdioClient(process.execPath, [SERVER, '--data', data.path, '--max-queued-bytes', String(4 * MiB)]);
  try {
    await client.initialize();
    const uri = 'jira://issue/PROJ-101';
    const first = (await client.request('resources/read', { uri })) as any;
    const text: string = first.result.contents[0].text;
    assert.ok(text.length > 1_000_000, `the resource is ${text.length} characters`);
    const residentBefore = memoryKiB(client.child.pid!, 'VmRSS');

    // The client writes every request at once, then reads nothing until the server must be stuck.
    client.child.stdout.pause();
    const ids = Array.from({ length: 200 }, (_, i) => `read-${i}`);
    client.writeRaw(
      ids.map((id) => JSON.stringify({ jsonrpc: '2.0', id, method: 'resources/read', params: { uri } }) + '\n').join(''),
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    client.child.stdout.resume();

    await answered(client, ids);
    const order = client.received.map((m: any) => m.id).filter((id) => ids.includes(id));
    assert.equal(order, ids, 'answered in the order asked');
    for (const id of ids) assert.is(answerTo(client, id).result?.contents[0].text, text, `${id} is the whole resource`);
    // Without the bound all 200 answers (over 200 MB) would wait in memory at once.
    const grewMiB = (memoryKiB(client.child.pid!, 'VmHWM') - residentBefore) / 1024;
    assert.ok(grewMiB < 64, `resident memory grew by ${grewMiB.toFixed(0)} MiB while 200 MB of answers were waiting to be read`);
    assert.is(client.child.exitCode, null, 'the server is still running');
    assert.is(await client.close(10_000), 0);
  } finally {
    client.child.kill('SIGKILL');
    data.remove();
  }
});

test('--max-in-flight 1 holds within one chunk: a request written together with a long one waits for it, a ping does not', async () => {
  const client = spawnStdioClient(process.execPath, [SERVER, '--ephemeral', '--max-in-flight', '1']);
  try {
    await client.initialize();
    const keys = Array.from({ length: 300 }, (_, i) => `PROJ-${101 + (i % 14)}`);
    const bulk = { name: 'bulk_update_status', arguments: { keys, status: 'blocked' } };
    const read = { name: 'get_issue', arguments: { key: 'PROJ-101' } };
    client.writeRaw(
      [
        { jsonrpc: '2.0', id: 'bulk', method: 'tools/call', params: bulk },
        { jsonrpc: '2.0', id: 'read', method: 'tools/call', params: read },
        { jsonrpc: '2.0', id: 'ping', method: 'ping' },
      ]
        .map((message) => JSON.stringify(message) + '\n')
        .join(''),
    );
    await answered(client, ['bulk', 'read', 'ping']);
    const order = client.received.map((m: any) => m.id).filter((id) => ['bulk', 'read', 'ping'].includes(id));
    assert.equal(order, ['ping', 'bulk', 'read'], 'the ping is answered at once; the read waits for the bulk update');
    const issue = (client.received.find((m: any) => m.id === 'read') as any).result.structuredContent.issue;
    assert.is(issue.status, 'blocked', 'the read ran after the update it was written after');
    assert.is(await client.close(), 0);
  } finally {
    client.child.kill('SIGKILL');
  }
});

test('a 30 MB URI that names nothing: the errors quote 200 characters of it and its size, not 60 MB', async () => {
  const client = spawnStdioClient(process.execPath, [SERVER, '--ephemeral']);
  try {
    await client.initialize();
    const uri = `jira://issue/${'X'.repeat(30_000_000)}`;
    const read = (await client.request('resources/read', { uri }, 30_000)) as any;
    const prompt = (await client.request('prompts/get', { name: 'triage_issue', arguments: { issue_key: uri } }, 30_000)) as any;
    for (const answer of [read, prompt]) {
      const line = JSON.stringify(answer);
      assert.ok(line.length < 2000, `the error is ${line.length} characters`);
      assert.ok(/… \(300000\d\d bytes\)/.test(line), `says how long the URI was: ${line.slice(0, 300)}`);
    }
    assert.is(read.error.code, -32002);
    assert.is(prompt.error.code, -32602);
    assert.is(await client.close(), 0);
  } finally {
    client.child.kill('SIGKILL');
  }
});

test('stdin closed right after 20 large reads, by a client that reads them only later: every answer arrives before exit', async () => {
  const data = await dataWithBigIssue();
  const client = spawnStdioClient(process.execPath, [SERVER, '--data', data.path]);
  try {
    await client.initialize();
    const uri = 'jira://issue/PROJ-101';
    const ids = Array.from({ length: 20 }, (_, i) => `read-${i}`);
    client.child.stdout.pause();
    client.writeRaw(
      ids.map((id) => JSON.stringify({ jsonrpc: '2.0', id, method: 'resources/read', params: { uri } }) + '\n').join(''),
    );
    const exit = client.close(60_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    client.child.stdout.resume();
    assert.is(await exit, 0);
    const missing = ids.filter((id) => answerTo(client, id) === undefined);
    assert.equal(missing, [], 'every request answered before exit');
  } finally {
    client.child.kill('SIGKILL');
    data.remove();
  }
});

test.run();
