// --update rewrites expectations from a live run; record turns a proxied session into a
// fixture that replays.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mergeExpectation } from '../runner/fixture-update.js';
import { runCommand } from '../runner/run-command.js';
import type { RunArguments } from '../runner/cli-args.js';
import { runInline, scratchDir, tinyServer } from '../test-support/tiny-servers.js';
import { SchemaValidator } from '../runner/schema-validator.js';
import { builtinSchemas } from '../runner/builtin.js';
import { Transcript } from '../runner/transcript.js';
import { parseFixture } from '../runner/fixture-parser.js';
import type { JsonObject, JsonValue } from '../runner/json-types.js';

test('merging keeps matchers that still match and the keys the author left out', () => {
  const expected = { jsonrpc: '2.0', id: 1, error: { code: -32600, message: '<<string>>' } };
  const actual = { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found', data: { x: 1 } } };
  assert.equal(mergeExpectation(expected, actual), { jsonrpc: '2.0', id: 1, error: { code: -32601, message: '<<string>>' } });
  assert.is(
    mergeExpectation(expected, { ...actual, error: { code: -32600, message: 'x' } }),
    expected,
    'an expectation that still matches is returned as is',
  );
});

test('merging replaces matchers that no longer match, drops keys that disappeared, keeps <<absent>>', () => {
  const merged = mergeExpectation(
    { id: 1, result: { n: '<<string>>', gone: 1, err: '<<absent>>' } },
    { id: 1, result: { n: 5 } },
  );
  assert.equal(merged, { id: 1, result: { n: 5, err: '<<absent>>' } });
  const exact = mergeExpectation({ id: 1, result: { '<<exact>>': true, a: 1 } }, { id: 1, result: { a: 2, b: 3 } });
  assert.equal(exact, { id: 1, result: { '<<exact>>': true, a: 2, b: 3 } });
});

function runArguments(path: string, server: string, update: boolean): RunArguments {
  return {
    command: 'run',
    server,
    schema: false,
    schemaDir: undefined,
    reporter: 'text',
    filters: [],
    update,
    expectedFailures: undefined,
    timeoutMs: 600,
    startupTimeoutMs: 10_000,
    failOn: ['must'],
    jobs: 1,
    paths: [path],
  };
}

async function run(path: string, server: string, update: boolean): Promise<{ code: number; text: string }> {
  let text = '';
  const code = await runCommand(runArguments(path, server, update), {
    write: (chunk) => (text += chunk),
    isTerminal: false,
    env: {},
  });
  return { code, text };
}

test('--update rewrites a failing server section and leaves passing ones untouched', async () => {
  const path = join(scratchDir, 'update-me.txtar');
  const original = `Update me.
protocol: any

-- client --
{"jsonrpc":"2.0","id":1,"method":"ping"}
-- server --
{  "jsonrpc": "2.0", "id": 1, "result": {} }
-- client --
{"jsonrpc":"2.0","id":2,"method":"nope"}
{"jsonrpc":"2.0","id":3,"method":"ping"}
-- server --
{"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"<<string>>"}}
{"jsonrpc":"2.0","id":4,"result":{}}
`;
  writeFileSync(path, original);
  const server = tinyServer('update-target');
  assert.is((await run(path, server, false)).code, 1);
  const updated = await run(path, server, true);
  assert.match(updated.text, '[updated]');
  const rewritten = readFileSync(path, 'utf8');
  assert.ok(
    rewritten.startsWith(original.slice(0, original.indexOf('-- client --\n{"jsonrpc":"2.0","id":2'))),
    'the untouched part is byte for byte the same',
  );
  assert.match(
    rewritten,
    '{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"<<string>>"}}\n{"jsonrpc":"2.0","id":3,"result":{}}\n',
  );
  assert.not.match(rewritten, '"id":4');
  const rerun = await run(path, server, false);
  assert.is(rerun.code, 0, rerun.text);
  await run(path, server, true);
  assert.is(readFileSync(path, 'utf8'), rewritten, 'a passing fixture is not rewritten');
});

/** `server` is the server's argv, or record's own options, then `--`, then the argv. */
function record(out: string, server: string[], input: string[]): Promise<{ stdout: string; code: number | null }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'spec-tests/runner/main.ts', 'record', '--out', out, ...(server.includes('--') ? [] : ['--']), ...server],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stdout = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text: string) => (stdout += text));
  return new Promise((resolve) => {
    child.on('close', (code) => resolve({ stdout, code }));
    const writeNext = (index: number): void => {
      if (index >= input.length) return void child.stdin.end();
      child.stdin.write(input[index]);
      setTimeout(() => writeNext(index + 1), 60);
    };
    writeNext(0);
  });
}

test('record proxies a session byte for byte and writes a fixture that replays', async () => {
  const out = join(scratchDir, 'recorded.txtar');
  const server = tinyServer('recorded', {
    onMessage:
      'if (msg.method === "tools/list") return send({ jsonrpc: "2.0", id: msg.id, result: { tools: [], _meta: { at: new Date().toISOString() } } });',
  });
  const serverArgv = server.split('" "').map((part) => part.replaceAll('"', ''));
  const input = [
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"host","version":"1"}}}\n',
    '{"jsonrpc":"2.0","method":"notifications/initialized"}\n',
    '{"jsonrpc":"2.0","id":2,"method":"tools/list"}\r\n',
    'not json\n',
  ];
  const { stdout, code } = await record(out, serverArgv, input);
  assert.is(code, 0);
  const lines = stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { id: unknown });
  assert.equal(
    lines.map((line) => line.id),
    [1, 2, null],
    "the host got the server's answers unchanged",
  );
  const fixture = readFileSync(out, 'utf8');
  assert.match(fixture, 'protocol: none');
  assert.match(fixture, '-- client raw --\n{"jsonrpc":"2.0","id":2,"method":"tools/list"}\\r\\n\nnot json\\n\n');
  assert.match(fixture, '"_meta":{"at":"<<timestamp>>"}');
  assert.match(fixture, '\n-- eof --\n');
  assert.ok(fixture.endsWith('-- exit --\ncode: 0\n'), fixture);
  const replay = await runInline(fixture, server);
  assert.is(replay.outcome, 'passed', replay.failures.map((failure) => failure.summary).join(' | '));
});

/** What a host does through the recorder: send lines, and wait for what the server says. */
interface Host {
  send(message: JsonValue): void;
  until(condition: (message: JsonObject) => boolean): Promise<JsonObject>;
}

/** Records a conversation in which the host's next line depends on the server's answers. */
function recordConversation(
  out: string,
  options: string[],
  server: string[],
  converse: (host: Host) => Promise<void>,
): Promise<number | null> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'spec-tests/runner/main.ts', 'record', '--out', out, ...options, '--', ...server],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const received: JsonObject[] = [];
  const waiters = new Set<() => void>();
  let pending = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text: string) => {
    const lines = (pending + text).split('\n');
    pending = lines.pop() ?? '';
    lines.forEach((line) => received.push(JSON.parse(line) as JsonObject));
    waiters.forEach((wake) => wake());
  });
  const host: Host = {
    send: (message) => child.stdin.write(`${JSON.stringify(message)}\n`),
    until: (condition) =>
      new Promise((resolve) => {
        const wake = (): void => {
          const found = received.find(condition);
          if (found) (resolve(found), waiters.delete(wake));
        };
        waiters.add(wake);
        wake();
      }),
  };
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  return converse(host).then(() => (child.stdin.end(), closed));
}

/** The JSON messages of a fixture's client and server sections, in order. */
function fixtureMessages(text: string): JsonObject[] {
  return parseFixture(text, 'recorded.txtar', 'recorded').steps.flatMap((step) =>
    step.kind === 'send-json' || step.kind === 'expect' ? step.messages.map((message) => message.value as JsonObject) : [],
  );
}

/** The result of the `index`th message with this id (0: the client's request, 1: the server's answer). */
function resultOf(messages: JsonObject[], id: JsonValue, index = 1): JsonObject {
  return messages.filter((message) => message.id === id)[index]?.result as JsonObject;
}

const TRACKER = [process.execPath, 'dist/mcp-tracker.mjs', '--ephemeral'];

function stateless(capabilities: JsonObject = {}): JsonObject {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'host', version: '1' },
  };
}

test('record turns a 2026-07-28 session with an input_required retry and a listen stream into a fixture that replays', async () => {
  const out = join(scratchDir, 'recorded-2026.txtar');
  const form = { elicitation: { form: {} } };
  const code = await recordConversation(out, [], TRACKER, async (host) => {
    host.send({
      jsonrpc: '2.0',
      id: 'listen',
      method: 'subscriptions/listen',
      params: { notifications: { resourcesListChanged: true }, _meta: stateless() },
    });
    await host.until((message) => message.method === 'notifications/subscriptions/acknowledged');
    const call = { name: 'create_issue', arguments: { project: 'PROJ' }, _meta: stateless(form) };
    host.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: call });
    const asked = await host.until((message) => message.id === 1);
    const requestState = (asked.result as JsonObject).requestState as string;
    const inputResponses = { missing_arguments: { action: 'accept', content: { title: 'Recorded retry' } } };
    host.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { ...call, requestState, inputResponses } });
    await host.until((message) => message.id === 2);
    await host.until((message) => message.method === 'notifications/resources/list_changed');
    // A write whose answer holds a time: add_comment's comment (create_issue answers with a line, no times).
    const comment = { name: 'add_comment', arguments: { key: 'PROJ-101', body: 'Recorded.' }, _meta: stateless() };
    host.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: comment });
    await host.until((message) => message.id === 3);
  });
  assert.is(code, 0);
  const fixture = readFileSync(out, 'utf8');
  assert.match(fixture, 'protocol: 2026-07-28\n');
  const messages = fixtureMessages(fixture);
  const asked = resultOf(messages, 1);
  assert.is(asked.requestState, '<<capture:requestState1>>', 'the server-issued state is captured');
  const retry = messages.filter((message) => message.id === 2)[0]?.params as JsonObject;
  assert.is(retry.requestState, '<<echo:requestState1>>', "the client's retry sends it back");
  assert.equal((asked._meta as JsonObject)['io.modelcontextprotocol/serverInfo'], {
    name: 'mcp-tracker',
    version: '<<string>>',
    title: 'Sprint Tracker (mcp-by-hand)',
  });
  const closing = resultOf(messages, 'listen');
  assert.is((closing._meta as JsonObject)['io.modelcontextprotocol/subscriptionId'], 'listen', "the listen request's id stays");
  const commented = resultOf(messages, 3);
  assert.is(((commented.structuredContent as JsonObject).comment as JsonObject).created_at, '<<timestamp>>');
  const text = ((commented.content as JsonObject[])[0]?.text ?? '') as string;
  assert.ok(
    text.startsWith('<<regex:^') && text.includes('"created_at":"\\d{4}-'),
    `timestamps quoted in a text are holes: ${text}`,
  );
  const replay = await runInline(fixture, TRACKER.join(' '), {
    schema: await SchemaValidator.load(builtinSchemas()),
    stepTimeoutMs: 10_000,
  });
  assert.is(replay.outcome, 'passed', replay.failures.map((failure) => failure.summary).join(' | '));
});

test('record --redact keeps the named fields out of the fixture, also where a message quotes them', async () => {
  const out = join(scratchDir, 'redacted.txtar');
  const server = tinyServer('echoes-token', {
    onMessage: `if (msg.method === "tools/call") { const token = msg.params.arguments.token;
      return send({ jsonrpc: "2.0", id: msg.id, result: { content: [{ type: "text", text: "token " + token + " accepted" }], structuredContent: { token } } }); }`,
  });
  const serverArgv = server.split('" "').map((part) => part.replaceAll('"', ''));
  const secret = 's3cret-token';
  const input = [
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"host","version":"1"}}}\n',
    '{"jsonrpc":"2.0","method":"notifications/initialized"}\n',
    `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"login","arguments":{"token":"${secret}"}}}\n`,
    `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"_meta":{"note":"${secret}"}}}\r\n`,
  ];
  const { code } = await record(out, ['--redact', 'token', '--', ...serverArgv], input);
  assert.is(code, 0);
  const fixture = readFileSync(out, 'utf8');
  assert.not.match(fixture, secret);
  const messages = fixtureMessages(fixture);
  assert.equal(messages[2]?.params, { name: 'login', arguments: { token: '<<redacted>>' } }, 'the client line sends a string');
  assert.equal(resultOf(messages, 2), {
    content: [{ type: 'text', text: '<<regex:^token [\\s\\S]* accepted$>>' }],
    structuredContent: { token: '<<any>>' },
  });
  assert.match(fixture, '{"note":"<<redacted>>"}}}\\r\\n', 'a raw line is scrubbed too');
  const replay = await runInline(fixture, server);
  assert.is(replay.outcome, 'passed', replay.failures.map((failure) => failure.summary).join(' | '));
});

test('recorded server values: serverInfo versions, subscription ids the server made up, text that looks like a matcher', () => {
  const transcript = new Transcript();
  const line = (value: JsonValue) => Buffer.from(JSON.stringify(value));
  transcript.add('client', line({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } }));
  transcript.add(
    'server',
    line({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-11-25', serverInfo: { name: 's', version: '1.2.3' } } }),
  );
  transcript.add('client', line({ jsonrpc: '2.0', id: 2, method: 'subscriptions/listen', params: {} }));
  const tagged = (id: JsonValue) => ({ _meta: { 'io.modelcontextprotocol/subscriptionId': id } });
  transcript.add('server', line({ jsonrpc: '2.0', method: 'notifications/a', params: tagged('srv-7f3a') }));
  transcript.add('server', line({ jsonrpc: '2.0', method: 'notifications/b', params: tagged(2) }));
  transcript.add('server', line({ jsonrpc: '2.0', id: 2, result: { text: '<<any>>', requestState: 'never echoed' } }));
  const fixture = transcript.toFixture('s', new Date(0), 0);
  assert.match(fixture, 'protocol: none\n');
  const messages = fixtureMessages(fixture);
  assert.equal(resultOf(messages, 1).serverInfo, { name: 's', version: '<<string>>' });
  const subscriptionIds = messages
    .filter((message) => message.method?.toString().startsWith('notifications/'))
    .map((message) => ((message.params as JsonObject)._meta as JsonObject)['io.modelcontextprotocol/subscriptionId']);
  assert.equal(subscriptionIds, ['<<string>>', 2], 'an id the server made up is a type; the listen id stays');
  assert.equal(resultOf(messages, 2), { text: '<<literal:<<any>>>>', requestState: '<<string>>' });
});

test('a client line that echoes a value no server message captured fails and is not sent', async () => {
  const fixture = `Echo without capture.
protocol: any

-- client --
{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"state":"<<echo:missing>>"}}}
-- server --
{"jsonrpc":"2.0","id":1,"result":{}}
`;
  const result = await runInline(fixture, tinyServer('echo-missing'));
  assert.is(result.outcome, 'failed');
  assert.match(result.failures[0]?.summary ?? '', 'no server message matched <<capture:missing>>');
});

test.run();
