// One rule, one level: the grade of a failure is the fixture's, the level the spec's keyword
// gives that behaviour, whatever way the server gets it wrong: silent, exiting, or answering in
// a form that cannot pair. Each test breaks a tiny server one way and reads the verdict.
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PING_FIXTURE, runInline, tinyServer } from '../test-support/tiny-servers.js';
import { unmetRequirement } from '../runner/requirements-check.js';
import { parseFixture } from '../runner/fixture-parser.js';
import { SchemaValidator } from '../runner/schema-validator.js';
import { builtinSchemas } from '../runner/builtin.js';

const summaries = (result: { failures: { summary: string }[] }): string =>
  result.failures.map((failure) => failure.summary).join(' | ');

const STRICT_PARSE_ERROR = `A line that is not JSON gets -32700, and the session goes on.
level: jsonrpc-strict
protocol: any

-- client raw --
not json\\n
-- server --
{"jsonrpc":"2.0","id":"<<one-of:null|absent>>","error":{"code":-32700}}
-- client --
{"jsonrpc":"2.0","id":2,"method":"ping"}
-- server --
{"jsonrpc":"2.0","id":2,"result":{}}
`;

test('a server that exits instead of answering gets the fixture level, not must, and the message says it exited', async () => {
  const exits = tinyServer('exits-on-garbage', { onParseError: 'process.exit(4);' });
  const result = await runInline(STRICT_PARSE_ERROR, exits, { stepTimeoutMs: 3000 });
  assert.is(result.outcome, 'failed');
  assert.is(result.level, 'jsonrpc-strict', summaries(result));
  assert.is(result.failures.length, 1, summaries(result));
  assert.match(summaries(result), 'the server exited (code 4)');
  assert.is(result.failures[0]?.behaviour, 'the server exited where error -32700 was owed');
  // The same server staying silent gets the same grade.
  const silent = await runInline(STRICT_PARSE_ERROR, tinyServer('silent-on-garbage', { onParseError: '' }));
  assert.is(silent.level, 'jsonrpc-strict', summaries(silent));
});

test('a server that exits once it owes nothing passes: the lifecycle page lets it initiate shutdown', async () => {
  const exitsAfterPing = tinyServer('exits-after-ping', {
    onMessage: 'if (msg.method === "ping") { send({ jsonrpc: "2.0", id: msg.id, result: {} }); process.exit(0); }',
  });
  const result = await runInline(PING_FIXTURE, exitsAfterPing);
  assert.is(result.outcome, 'passed', summaries(result));
});

test('an exit section is graded at the fixture level', async () => {
  const fixture = `level: should\nprotocol: any\n\n-- eof --\n-- exit --\ncode: 0\nwithin: 500ms\n`;
  const result = await runInline(fixture, tinyServer('lingers', { onEnd: 'setInterval(() => {}, 1000);' }));
  assert.is(result.outcome, 'failed');
  assert.is(result.level, 'should', summaries(result));
});

const ID_SEVEN = `protocol: any

-- client --
{"jsonrpc":"2.0","id":7,"method":"ping"}
-- server --
{"jsonrpc":"2.0","id":7,"result":{}}
`;

test('an id echoed with another JSON type is named as such, once, not as a dropped message', async () => {
  const stringifies = tinyServer('stringifies-ids', {
    onMessage: 'if (msg.method === "ping") return send({ jsonrpc: "2.0", id: String(msg.id), result: {} });',
  });
  const result = await runInline(ID_SEVEN, stringifies);
  assert.is(result.outcome, 'failed');
  assert.is(result.failures.length, 1, summaries(result));
  assert.match(summaries(result), 'expected id 7, got "7": the id\'s type changed');
  assert.not.match(summaries(result), 'dropped');
});

test('an error without the id of a readable request is named as such, at the fixture level', async () => {
  const nullIds = tinyServer('null-id-errors', {
    onMessage: 'if (msg.method === "ping") return send({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "no" } });',
  });
  const result = await runInline(ID_SEVEN.replace('protocol: any', 'level: jsonrpc-strict\nprotocol: any'), nullIds);
  assert.is(result.outcome, 'failed');
  assert.is(result.level, 'jsonrpc-strict', summaries(result));
  assert.is(result.failures.length, 1, summaries(result));
  assert.match(summaries(result), 'got an error without it (id null)');
});

test('a server that echoes an unknown version fails on the version, not on a missing schema', async () => {
  const schema = await SchemaValidator.load(builtinSchemas());
  const fixture = readFileSync('spec-tests/fixtures/generic/lifecycle/initialize-unknown-version.txtar', 'utf8');
  const result = await runInline(fixture, tinyServer('echoes-any-version'), { schema });
  assert.is(result.outcome, 'failed');
  assert.is(result.failures.length, 1, summaries(result));
  assert.is(result.failures[0]?.mismatch?.path, '$.result.protocolVersion');
});

test('an error without an id passes the 2025-03-26 schema (A-3), as one with id null does', async () => {
  const schema = await SchemaValidator.load(builtinSchemas());
  const fixture = readFileSync('spec-tests/fixtures/generic/batch/j11-empty-array-2025-03-26.txtar', 'utf8');
  const noId = tinyServer('error-without-id', {
    onMessage: 'if (Array.isArray(msg)) return send({ jsonrpc: "2.0", error: { code: -32600, message: "Invalid Request" } });',
  });
  const result = await runInline(fixture, noId, { schema });
  assert.is(result.outcome, 'passed', summaries(result));
});

const STRICT_BATCH = `An invalid batch in 2025-03-26 gets an array of errors.
level: jsonrpc-strict
protocol: 2025-03-26

-- client --
[1,2]
-- server --
[{"jsonrpc":"2.0","id":null,"error":{"code":-32600}},{"jsonrpc":"2.0","id":null,"error":{"code":-32600}}]
`;

test('a batch answered with separate responses gets the fixture level, like a batch dropped silently', async () => {
  const separate = tinyServer('separate-batch-answers', {
    onMessage:
      'if (Array.isArray(msg)) { for (const _ of msg) send({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request" } }); return; }',
  });
  const result = await runInline(STRICT_BATCH, separate);
  assert.is(result.outcome, 'failed');
  assert.is(result.level, 'jsonrpc-strict', summaries(result));
  assert.is(result.failures.length, 1, summaries(result));
  assert.match(summaries(result), 'the server sent separate responses');
  const dropped = await runInline(STRICT_BATCH, tinyServer('drops-batches', { onMessage: 'if (Array.isArray(msg)) return;' }));
  assert.is(dropped.level, result.level, summaries(dropped));
});

test('a batch refused whole with one error is named as such, at the fixture level', async () => {
  const refuses = tinyServer('refuses-batches', {
    onMessage:
      'if (Array.isArray(msg)) return send({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });',
  });
  const result = await runInline(STRICT_BATCH, refuses);
  assert.is(result.outcome, 'failed');
  assert.is(result.level, 'jsonrpc-strict', summaries(result));
  assert.match(summaries(result), 'the server refused the whole batch with one error');
});

const batchFixture = (name: string): string => readFileSync(`spec-tests/fixtures/generic/batch/${name}.txtar`, 'utf8');

test('a server without 2025-03-26 batches fails valid-batch at must, once: j15 does not count it again', async () => {
  const servers = {
    refuses: tinyServer('refuses-all-batches', {
      onMessage:
        'if (Array.isArray(msg)) return send({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });',
    }),
    drops: tinyServer('drops-all-batches', { onMessage: 'if (Array.isArray(msg)) return;' }),
    exits: tinyServer('exits-on-batches', { onMessage: 'if (Array.isArray(msg)) process.exit(0);' }),
  };
  for (const [how, server] of Object.entries(servers)) {
    const valid = await runInline(batchFixture('valid-batch-2025-03-26'), server);
    assert.is(`${how}: ${valid.outcome} ${valid.level}`, `${how}: failed must`, summaries(valid));
    const j15 = await runInline(batchFixture('j15-all-notifications-batch-2025-03-26'), server);
    assert.is(`${how}: ${j15.outcome}`, `${how}: passed`, summaries(j15));
  }
  // What j15 grades: an empty array for a batch of notifications.
  const emptyArray = tinyServer('answers-empty-array', {
    onMessage: 'if (Array.isArray(msg)) return process.stdout.write("[]\\n");',
  });
  const j15 = await runInline(batchFixture('j15-all-notifications-batch-2025-03-26'), emptyArray);
  assert.is(j15.outcome, 'failed', summaries(j15));
  assert.is(j15.level, 'must', summaries(j15));
});

test('a legitimate notification is not shown as the missing answer', async () => {
  const announces = tinyServer('announces-instead', {
    onMessage: 'if (msg.method === "ping") return send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });',
  });
  const result = await runInline(ID_SEVEN, announces, { stepTimeoutMs: 400 });
  assert.is(result.outcome, 'failed');
  assert.is(result.failures.length, 1, summaries(result));
  assert.is(result.failures[0]?.mismatch?.actual, 'nothing');
  assert.not.match(JSON.stringify(result.failures), 'purity');
});

const requires = (line: string) =>
  parseFixture(`protocol: any\nrequires: ${line}\n\n-- client --\n{"jsonrpc":"2.0","id":1,"method":"ping"}\n`, 'x', 'x').header
    .requires;

test('a capability declared false is not declared', () => {
  const result = { capabilities: { tools: { listChanged: false }, resources: { subscribe: false, listChanged: false } } };
  assert.ok(unmetRequirement(requires('capabilities.tools.listChanged'), result));
  assert.is(unmetRequirement(requires('!capabilities.tools.listChanged'), result), undefined);
  assert.ok(unmetRequirement(requires('capabilities.resources.subscribe | capabilities.resources.listChanged'), result));
  assert.is(unmetRequirement(requires('capabilities.resources'), result), undefined);
  assert.is(
    unmetRequirement(requires('capabilities.tools.listChanged'), { capabilities: { tools: { listChanged: true } } }),
    undefined,
  );
});

const robustness = (name: string): string => readFileSync(`spec-tests/fixtures/generic/robustness/${name}.txtar`, 'utf8');

test('robustness: a server that serves invalid requests gets a jsonrpc-strict advisory, not a must failure', async () => {
  // The tiny server serves any ping, whatever its envelope, id or params.
  const lax = tinyServer('serves-anything');
  for (const name of ['jsonrpc-version-1-0', 'null-and-fractional-ids', 'string-params']) {
    const result = await runInline(robustness(name), lax);
    assert.is(result.outcome, 'failed', name);
    assert.is(result.level, 'jsonrpc-strict', `${name}: ${summaries(result)}`);
    assert.match(result.failures[0]?.mismatch?.path ?? '', '$', name);
  }
  const strict = tinyServer('refuses-invalid-requests', {
    onMessage:
      'if (msg.jsonrpc !== "2.0" || (msg.id !== undefined && !(typeof msg.id === "string" || Number.isInteger(msg.id))) || (msg.params !== undefined && typeof msg.params !== "object")) return send({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request" } });',
  });
  for (const name of ['jsonrpc-version-1-0', 'null-and-fractional-ids', 'string-params']) {
    const result = await runInline(robustness(name), strict);
    assert.is(result.outcome, 'passed', `${name}: ${summaries(result)}`);
  }
});

test('robustness: a server that crashes on a reused id gets a should advisory saying it exited', async () => {
  const crashes = tinyServer('crashes-on-reused-id', {
    atStart: 'const seen = new Set();',
    onMessage: 'if (msg.method === "ping") { if (seen.has(msg.id)) process.exit(5); seen.add(msg.id); }',
  });
  const result = await runInline(robustness('reused-in-flight-id'), crashes, { stepTimeoutMs: 3000 });
  assert.is(result.outcome, 'failed');
  assert.is(result.level, 'should', summaries(result));
  assert.match(summaries(result), 'the server exited (code 5)');
  assert.is((await runInline(robustness('reused-in-flight-id'), tinyServer('answers-reused-id'))).outcome, 'passed');
});

test('robustness: a server that drops an oversized line silently gets a should advisory', async () => {
  const drops = tinyServer('drops-long-lines', { onMessage: 'if (line.length > 1000000) return;' });
  const result = await runInline(robustness('oversized-line'), drops, { stepTimeoutMs: 15_000 });
  assert.is(result.outcome, 'failed');
  assert.is(result.level, 'should', summaries(result));
  assert.match(summaries(result), 'the message was dropped');
  assert.is(
    (await runInline(robustness('oversized-line'), tinyServer('reads-long-lines'), { stepTimeoutMs: 15_000 })).outcome,
    'passed',
  );
});

const FRACTIONAL_ID = `A request with a fractional id is answered with an error, its id echoed or null.
level: jsonrpc-strict
protocol: any

-- client --
{"jsonrpc":"2.0","id":1.5,"method":"ping"}
-- server --
{"jsonrpc":"2.0","id":"<<one-of:1.5|null|absent>>","error":{"code":-32600}}
`;

test('a stray response to a fixture that sent an invalid id (1.5 echoed as 1) is graded at the fixture level', async () => {
  const truncates = tinyServer('truncates-ids', {
    onMessage: 'if (msg.id === 1.5) return send({ jsonrpc: "2.0", id: 1, result: {} });',
  });
  const result = await runInline(FRACTIONAL_ID, truncates);
  assert.is(result.outcome, 'failed');
  assert.is(result.level, 'jsonrpc-strict', summaries(result));
  assert.match(summaries(result), 'unexpected response to id 1');
});

test('a server that exits on a ping before initialize gets a should advisory (A-6): the client broke the lifecycle MUST first', async () => {
  const fixture = readFileSync('spec-tests/fixtures/generic/ping/ping-before-initialize.txtar', 'utf8');
  const exits = tinyServer('exits-on-early-ping', { onMessage: 'if (msg.method === "ping") process.exit(0);' });
  const result = await runInline(fixture, exits, { stepTimeoutMs: 3000 });
  assert.is(result.outcome, 'failed');
  assert.is(result.level, 'should', summaries(result));
  assert.match(summaries(result), 'the server exited (code 0)');
});

test.run();
