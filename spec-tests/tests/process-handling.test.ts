// The runner against throwaway servers that hang, crash, print junk or answer what they must
// not: every one of them must end as a clear failure within its deadline.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PING_FIXTURE, runInline, tinyServer } from '../test-support/tiny-servers.js';
import { SchemaValidator } from '../runner/schema-validator.js';
import { builtinSchemas } from '../runner/builtin.js';

const summaries = (result: { failures: { summary: string }[] }): string =>
  result.failures.map((failure) => failure.summary).join(' | ');

test('a correct server passes', async () => {
  const result = await runInline(PING_FIXTURE, tinyServer('correct'));
  assert.is(result.outcome, 'passed', summaries(result));
});

test('a hung server fails the step at its timeout, and the runner returns', async () => {
  const started = Date.now();
  const result = await runInline(
    PING_FIXTURE,
    tinyServer('hung', { onMessage: 'if (msg.method === "ping") return;', onEnd: 'setInterval(() => {}, 1000);' }),
    { stepTimeoutMs: 400 },
  );
  assert.is(result.outcome, 'failed');
  assert.match(summaries(result), 'expected response to id 1 (line 7) within 400 ms');
  assert.ok(Date.now() - started < 4000, `took ${Date.now() - started} ms`);
});

test('a crashing server is reported with its exit code and stderr', async () => {
  const command = tinyServer('crash', {
    onMessage: 'if (msg.method === "ping") { process.stderr.write("boom: ping is broken\\n"); process.exit(3); }',
  });
  const result = await runInline(PING_FIXTURE, command, { stepTimeoutMs: 3000 });
  assert.is(result.outcome, 'failed');
  assert.match(summaries(result), 'exited (code 3) before the fixture finished');
  assert.match(result.stderr, 'boom: ping is broken');
  assert.ok(result.durationMs < 2500, `a crash must not wait for the step timeout (${result.durationMs} ms)`);
});

test('a server that cannot start fails cleanly', async () => {
  const result = await runInline(PING_FIXTURE, 'mcp-conform-no-such-command-xyz', { stepTimeoutMs: 2000 });
  assert.is(result.outcome, 'failed');
  assert.match(summaries(result), 'exited (code 127)');
});

test('a banner on stdout breaks stdout purity', async () => {
  const result = await runInline(PING_FIXTURE, tinyServer('banner', { atStart: 'process.stdout.write("Server ready!\\n");' }));
  assert.is(result.outcome, 'failed');
  assert.match(summaries(result), 'stdout purity: a line that is not JSON: Server ready!');
});

test('pretty-printed output breaks stdout purity', async () => {
  const result = await runInline(
    PING_FIXTURE,
    tinyServer('pretty', {
      onMessage:
        'if (msg.method === "ping") return process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: msg.id, result: {} }, null, 2) + "\\n");',
    }),
  );
  assert.is(result.outcome, 'failed');
  assert.match(summaries(result), 'stdout purity');
});

const NOTIFICATION_FIXTURE = `A notification must not be answered.
protocol: any

-- client --
{"jsonrpc":"2.0","method":"notifications/whatever"}
-- silence 300ms --
`;

test('answering a notification fails a silence section', async () => {
  const command = tinyServer('chatty', {
    onMessage: 'if (!("id" in msg)) return send({ jsonrpc: "2.0", id: null, error: { code: -32601, message: "no" } });',
  });
  const result = await runInline(NOTIFICATION_FIXTURE, command);
  assert.is(result.outcome, 'failed');
  assert.match(summaries(result), 'expected no response within 300 ms, got response to id null');
});

test('a correct server stays silent after a notification', async () => {
  const result = await runInline(NOTIFICATION_FIXTURE, tinyServer('quiet'));
  assert.is(result.outcome, 'passed', summaries(result));
});

test('a late answer to a notification is caught at the end of the fixture', async () => {
  const fixture = `protocol: any\n\n-- client --\n{"jsonrpc":"2.0","method":"notifications/x"}\n{"jsonrpc":"2.0","id":1,"method":"ping"}\n-- server --\n{"jsonrpc":"2.0","id":1,"result":{}}\n`;
  const command = tinyServer('late', {
    onMessage:
      'if (!("id" in msg)) { setTimeout(() => send({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "x" } }), 100); return; }',
    onEnd: 'setTimeout(() => process.exit(0), 300);',
  });
  const result = await runInline(fixture, command);
  assert.is(result.outcome, 'failed');
  assert.match(summaries(result), 'unexpected response to id null');
});

test('responses are paired by id whatever their order', async () => {
  const fixture = `protocol: any\n\n-- client --\n{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n-- server --\n{"jsonrpc":"2.0","id":1,"result":{}}\n{"jsonrpc":"2.0","id":2,"result":{}}\n`;
  const command = tinyServer('reversed', {
    onMessage:
      'if (msg.method === "ping" && msg.id === 1) { setTimeout(() => send({ jsonrpc: "2.0", id: 1, result: {} }), 150); return; }',
  });
  const result = await runInline(fixture, command);
  assert.is(result.outcome, 'passed', summaries(result));
});

const EXIT_FIXTURE = `protocol: any\n\n-- eof --\n-- exit --\ncode: 0\nwithin: 500ms\n`;

test('a server that ignores stdin EOF fails the exit section and is killed', async () => {
  const started = Date.now();
  const result = await runInline(EXIT_FIXTURE, tinyServer('immortal', { onEnd: 'setInterval(() => {}, 1000);' }));
  assert.is(result.outcome, 'failed');
  assert.match(summaries(result), 'did not exit within 500 ms');
  assert.ok(Date.now() - started < 3000);
});

test('the exit code is checked', async () => {
  const result = await runInline(EXIT_FIXTURE, tinyServer('exit-two', { onEnd: 'process.exit(2);' }));
  assert.match(summaries(result), 'exited with code 2, expected code 0');
  assert.is((await runInline(EXIT_FIXTURE, tinyServer('exit-zero'))).outcome, 'passed');
});

test('envelope rules apply to every message', async () => {
  const command = tinyServer('both', {
    onMessage:
      'if (msg.method === "ping") return send({ jsonrpc: "2.0", id: msg.id, result: {}, error: { code: 1, message: "x" } });',
  });
  const result = await runInline(PING_FIXTURE, command);
  assert.match(summaries(result), 'has both result and error');
});

test('--schema-dir validates results by the method they answer', async () => {
  const schema = await SchemaValidator.load(builtinSchemas());
  const fixture = `protocol: 2025-06-18\n\n-- client --\n{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n-- server --\n{"jsonrpc":"2.0","id":1,"result":{}}\n`;
  const bad = tinyServer('bad-tools', {
    onMessage:
      'if (msg.method === "tools/list") return send({ jsonrpc: "2.0", id: msg.id, result: { tools: [{ name: "x" }] } });',
  });
  const result = await runInline(fixture, bad, { schema });
  assert.match(summaries(result), 'does not match ListToolsResult');
  assert.match(result.failures[0]?.rule[0] ?? '', 'schema/2025-06-18/schema.json #/definitions/ListToolsResult');
  const good = tinyServer('good-tools', {
    onMessage:
      'if (msg.method === "tools/list") return send({ jsonrpc: "2.0", id: msg.id, result: { tools: [{ name: "x", inputSchema: { type: "object" } }] } });',
  });
  const passing = await runInline(fixture, good, { schema });
  assert.is(passing.outcome, 'passed', summaries(passing));
});

test('a fixture for a version the server does not speak is skipped', async () => {
  const command = tinyServer('old-only', {
    onMessage:
      'if (msg.method === "initialize") return send({ jsonrpc: "2.0", id: msg.id, result: { protocolVersion: "2024-11-05", capabilities: {}, serverInfo: { name: "old", version: "1" } } });',
  });
  const fixture = PING_FIXTURE.replace('protocol: any', 'protocol: 2025-06-18');
  const result = await runInline(fixture, command);
  assert.is(result.outcome, 'skipped');
  assert.match(result.skipReason ?? '', 'requires protocolVersion = 2025-06-18, but the initialize result has "2024-11-05"');
});

test('requires: skips by capability', async () => {
  const fixture = PING_FIXTURE.replace('protocol: any', 'protocol: any\nrequires: capabilities.prompts');
  const result = await runInline(fixture, tinyServer('no-prompts'));
  assert.is(result.outcome, 'skipped');
  const inverse = await runInline(
    PING_FIXTURE.replace('protocol: any', 'protocol: any\nrequires: !capabilities.prompts'),
    tinyServer('no-prompts-2'),
  );
  assert.is(inverse.outcome, 'passed');
});

test('a server ping is answered by the runner, not reported', async () => {
  const command = tinyServer('pinger', {
    onMessage: 'if (msg.method === "ping") { send({ jsonrpc: "2.0", id: "s1", method: "ping" }); }',
  });
  const result = await runInline(PING_FIXTURE, command);
  assert.is(result.outcome, 'passed', summaries(result));
});

test.run();
