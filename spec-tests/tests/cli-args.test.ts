import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { parseArguments, UsageError } from '../runner/cli-args.js';

test('run options in both spellings', () => {
  const args = parseArguments([
    'run',
    '--server',
    'node s.js',
    '--schema-dir=schemas',
    '--reporter',
    'junit',
    '--filter',
    'ping',
    '--filter=batch',
    '--update',
    '--expected-failures',
    'x.txt',
    '--timeout',
    '900',
    '--jobs=2',
    'a',
    'b',
  ]);
  assert.equal(args, {
    command: 'run',
    server: 'node s.js',
    schema: true,
    schemaDir: 'schemas',
    reporter: 'junit',
    filters: ['ping', 'batch'],
    update: true,
    expectedFailures: 'x.txt',
    timeoutMs: 900,
    startupTimeoutMs: 30_000,
    failOn: ['must'],
    jobs: 2,
    paths: ['a', 'b'],
  });
});

test('record takes the server argv after --', () => {
  assert.equal(parseArguments(['record', '--out', 'f.txtar', '--', 'node', 's.js', '--flag']), {
    command: 'record',
    out: 'f.txtar',
    redact: [],
    serverArgv: ['node', 's.js', '--flag'],
  });
  const redacting = parseArguments(['record', '--redact', 'token', '--out', 'f', '--redact=email', '--', 'node']);
  assert.equal(redacting.command === 'record' && redacting.redact, ['token', 'email'], '--redact repeats');
});

test('--no-schema turns validation off; list takes fixture paths', () => {
  const run = parseArguments(['run', '--server', 'x', '--no-schema']);
  assert.is(run.command === 'run' && run.schema, false);
  const overHttp = parseArguments(['run', '--url', 'http://127.0.0.1:3000/mcp', 'f.txtar']);
  assert.is(overHttp.command === 'run' && overHttp.url, 'http://127.0.0.1:3000/mcp');
  assert.equal(parseArguments(['list', 'a.txtar']), { command: 'list', paths: ['a.txtar'] });
  assert.equal(parseArguments(['--version']), { command: 'version' });
});

test('mistakes are usage errors', () => {
  for (const argv of [
    ['run'],
    ['run', '--server'],
    ['run', '--server', 'x', '--reporter', 'xml'],
    ['run', '--server', 'x', '--timeout', '0'],
    ['run', '--server', 'x', '--nope'],
    ['run', '--server', 'x', '--no-schema', '--schema-dir', 'd'],
    ['run', '--server', 'x', '--url', 'http://127.0.0.1:3000/mcp'],
    ['run', '--url', 'localhost:3000/mcp'],
    ['list', '--nope'],
    ['record', '--out', 'f'],
    ['record', '--', 'x'],
    ['frobnicate'],
  ]) {
    assert.throws(
      () => parseArguments(argv),
      (error: unknown) => error instanceof UsageError,
      argv.join(' '),
    );
  }
});

test('the command line exits 2 on a usage error, with the usage on stderr and nothing on stdout', () => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'spec-tests/runner/main.ts', 'run'], { encoding: 'utf8' });
  assert.is(run.status, 2);
  assert.is(run.stdout, '');
  assert.match(run.stderr, 'run needs either --server "CMD ARGS" or --url URL');
});

test.run();
