// Subprocess tests of the bundled server as a process: stdout purity, EOF, signals, EPIPE,
// the message size limit. (The per-message behaviour is covered by the fixtures.)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnStdioClient } from '../../lib/demo/stdio-client.js';

const SERVER = 'dist/mcp-tracker.mjs';
const start = (...args: string[]) => spawnStdioClient(process.execPath, [SERVER, '--ephemeral', ...args]);
const exited = (client: ReturnType<typeof start>) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    if (client.child.exitCode !== null) resolve({ code: client.child.exitCode, signal: null });
    else client.child.once('exit', (code, signal) => resolve({ code, signal }));
  });

test('M17: every byte on stdout is part of one valid JSON-RPC message per line', async () => {
  const child = spawn(process.execPath, [SERVER, '--ephemeral'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text: string) => (stdout += text));
  const lines = [
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}',
    '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    'not json at all',
    '[1,2]',
    '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
    '{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"jira://sprint/current"}}',
    '{"jsonrpc":"2.0","id":4,"method":"logging/setLevel","params":{"level":"debug"}}',
    '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"update_issue","arguments":{"key":"PROJ-101","status":"in_review"}}}',
    '{"jsonrpc":"2.0","id":6,"method":"prompts/get","params":{"name":"triage_issue","arguments":{"issue_key":"PROJ-101"}}}',
  ];
  child.stdin.end(lines.join('\n') + '\n');
  const code = await new Promise((resolve) => child.on('exit', resolve));
  assert.is(code, 0);
  assert.ok(stdout.endsWith('\n'), 'the last message ends with a newline');
  const received = stdout.slice(0, -1).split('\n');
  assert.ok(received.length >= 8, `got ${received.length} lines`);
  for (const line of received) {
    const message = JSON.parse(line);
    assert.is(message.jsonrpc, '2.0', line);
    assert.ok('id' in message || 'method' in message, line);
  }
  const ids = received.map((line) => JSON.parse(line).id).filter((id) => id !== undefined);
  assert.equal(ids.filter((id) => id !== null).sort(), [1, 2, 3, 4, 5, 6]);
});

test('M18: closing stdin ends the process promptly with exit code 0', async () => {
  const client = start();
  await client.initialize();
  const began = Date.now();
  assert.is(await client.close(2000), 0);
  assert.ok(Date.now() - began < 1500, `took ${Date.now() - began} ms`);
});

test('a request written just before EOF is still answered before exit', async () => {
  const child = spawn(process.execPath, [SERVER, '--ephemeral'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stdin.end('{"jsonrpc":"2.0","id":"last","method":"ping"}');
  const code = await new Promise((resolve) => child.on('exit', resolve));
  assert.is(code, 0);
  assert.equal(JSON.parse(stdout), { jsonrpc: '2.0', id: 'last', result: {} }, 'no final newline needed on input');
});

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`${signal} ends the process with exit code 0 within 2 seconds`, async () => {
    const client = start();
    await client.initialize();
    const began = Date.now();
    client.child.kill(signal);
    const { code } = await exited(client);
    assert.is(code, 0);
    assert.ok(Date.now() - began < 2000, `took ${Date.now() - began} ms`);
    assert.not.match(client.stderr(), /\n\s+at /, 'no stack trace');
  });
}

test('EPIPE: a client that stops reading stdout makes the server exit 0, without a stack trace', async () => {
  const client = start();
  await client.initialize();
  client.child.stdout.destroy();
  for (let i = 0; i < 50; i++)
    client.writeRaw(`{"jsonrpc":"2.0","id":${100 + i},"method":"resources/read","params":{"uri":"jira://sprint/current"}}\n`);
  const { code } = await exited(client);
  assert.is(code, 0);
  assert.not.match(client.stderr(), /\n\s+at /, 'no stack trace');
});

test('a message over the size limit is answered with an error, and the session goes on', async () => {
  const client = start('--max-message-bytes', '1000');
  await client.initialize();
  client.writeRaw(`{"jsonrpc":"2.0","id":9,"method":"ping","params":{"pad":"${'x'.repeat(5000)}"}}\n`);
  const answer = await client.request('ping');
  assert.equal(answer.result, {});
  const tooLong = client.received.find((m: any) => m.id === null) as any;
  assert.is(tooLong.error.code, -32600);
  assert.match(tooLong.error.message, /1000 bytes/);
  assert.is(await client.close(), 0);
});

test('a client that closes our stderr: diagnostics are dropped, the server goes on and exits cleanly', async () => {
  const client = start();
  await client.initialize();
  client.child.stderr.destroy();
  for (let i = 0; i < 20; i++) client.writeRaw('{"jsonrpc":"1.0","method":"malformed/notification"}\n');
  assert.equal((await client.request('ping')).result, {});
  // A query and a write now: they load the companions (lib/main.ts loads them once stdin has been
  // quiet for 500 ms, which a loaded machine delays into the window measured below).
  const query = { name: 'search_issues', arguments: { query: 'status = "In Progress"' } };
  const write = { name: 'add_comment', arguments: { key: 'PROJ-101', body: 'Loads the writes.' } };
  for (const call of [query, write]) assert.not.ok(((await client.request('tools/call', call)) as any).result.isError);
  // V8 does some work of its own after a start (a memory-reducing collection once the process
  // goes quiet, background compilation): let it finish, then a busy loop is all that could spend.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const before = cpuTicks(client.child.pid!);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const spent = cpuTicks(client.child.pid!) - before;
  assert.ok(spent < 10, `the server used ${spent} CPU ticks while idle: a busy loop`);
  assert.equal((await client.request('ping')).result, {});
  assert.is(await client.close(), 0);
});

/** User + system CPU time of a process, in clock ticks (proc(5): fields 14 and 15 of /proc/PID/stat). */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** Index of the response with this id among everything the server sent. */
const indexOf = (received: unknown[], id: unknown) => received.findIndex((m: any) => m.id === id && !('method' in m));

for (const limit of [1, 64]) {
  test(`--max-in-flight ${limit}: ${limit === 1 ? 'a saturated server holds further requests back, but answers a ping' : 'below the limit requests run side by side'}`, async () => {
    const client = start('--max-in-flight', String(limit));
    try {
      await client.initialize();
      const keys = Array.from({ length: 300 }, (_, i) => `PROJ-${101 + (i % 14)}`);
      client.writeRaw(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 'bulk',
          method: 'tools/call',
          params: { name: 'bulk_update_status', arguments: { keys, status: 'todo' }, _meta: { progressToken: 1 } },
        }) + '\n',
      );
      await client.nextNotification('notifications/progress');
      const read = client.request('tools/call', { name: 'get_issue', arguments: { key: 'PROJ-101' } }, 20_000);
      const ping = await client.request('ping', undefined, 20_000);
      const readAt = indexOf(client.received, (await read).id);
      const pingAt = indexOf(client.received, ping.id);
      const bulkAt = indexOf(client.received, 'bulk');
      assert.ok(pingAt < bulkAt || bulkAt === -1, 'the ping is answered while the bulk update runs, at any limit');
      if (limit === 1) assert.ok(bulkAt !== -1 && bulkAt < readAt, 'the read waited until the bulk update finished');
      else assert.ok(bulkAt === -1 || readAt < bulkAt, 'the read ran beside the bulk update');
      assert.is(await client.close(), 0);
    } finally {
      client.child.kill('SIGKILL');
    }
  });
}

test.run();
