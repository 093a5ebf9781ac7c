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

function record(out: string, server: string[], input: string[]): Promise<{ stdout: string; code: number | null }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'spec-tests/runner/main.ts', 'record', '--out', out, '--', ...server],
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

test.run();
