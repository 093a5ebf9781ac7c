// A bounded, seeded slice of the wire fuzzer (spec-tests/fuzz/) against the bundled server:
// every (method, field, wrong type) combination, then random cases, full-size deep nesting and
// huge values included. Then the fuzzer's own checks are shown to work: against wrappers that
// inject one fault each (spec-tests/fuzz/mutant.mjs), it must find that fault. Longer runs:
// npm run fuzz -- --seconds 600.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFixture } from '../fuzz/fixture.js';
import { type FuzzReport, runFuzz } from '../fuzz/run.js';
import { SERVER, startServer } from '../fuzz/wire.js';

const SEED = 20250618;
const summary = (report: FuzzReport): string =>
  report.findings
    .map(
      (f) =>
        `${f.problems.join('\n')}\n  input: ${f.cases
          .map((c) => c.label)
          .join(' | ')
          .slice(0, 600)}`,
    )
    .join('\n\n');

test('the seeded slice holds every invariant (crash, stream, one answer per request, data, pollution)', async () => {
  const report = await runFuzz({
    seed: SEED,
    exhaustive: true,
    maxCases: 6500,
    bigScale: 1,
    casesPerRound: 50,
    roundsPerSession: 30,
  });
  assert.ok(report.inputs >= 6500, `only ${report.inputs} inputs`);
  assert.ok((report.byKind.get('wrong-type') ?? 0) >= 4000, 'every wrong-type combination was sent');
  for (const kind of ['mutated', 'random', 'deep', 'huge', 'invalid', 'proto', 'batch', 'framing', 'envelope']) {
    assert.ok((report.byKind.get(kind) ?? 0) > 0, `no ${kind} inputs in the slice`);
  }
  assert.is(report.findings.length, 0, summary(report));
});

const MUTANT = 'spec-tests/fuzz/mutant.mjs';
const MUTANTS: [mode: string, expected: RegExp][] = [
  ['crash-on-proto', /server exited|exited/],
  ['answer-notifications', /unexpected error\(s\) with id null/],
  ['double-answer', /responses for id/],
  ['garbage-line', /not UTF-8 JSON/],
  ['forget-deep', /timed out/],
  ['sneaky-write', /journal grew by/],
  ['pollute', /probe answer changed/],
];

for (const [mode, expected] of MUTANTS) {
  test(`the fuzzer finds an injected fault: ${mode}`, async () => {
    const report = await runFuzz({
      seed: SEED + 1,
      maxCases: 1200,
      maxFindings: 1,
      answerTimeoutMs: 1500,
      isolate: false,
      bigScale: 0.01,
      casesPerRound: 40,
      roundsPerSession: 10,
      script: [MUTANT, mode, SERVER],
    });
    assert.ok(report.findings.length > 0, `the ${mode} fault went unnoticed in ${report.inputs} inputs`);
    const problems = report.findings.flatMap((f) => f.problems).join('\n');
    assert.match(problems, expected);
  });
}

test('a finding is written as a fixture that mcp-conform replays (passing once fixed)', () => {
  const directory = mkdtempSync(join(tmpdir(), 'mcp-fuzz-fixture-'));
  try {
    const bytes = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":"a","method":"ping"}\n\xff\xfe\n', 'latin1'),
      Buffer.from('{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}\r\n#{"not json\n[1]\n', 'utf8'),
      Buffer.from(
        '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_issue","arguments":{"__proto__":{"key":"PROJ-101"}}}}\n',
        'utf8',
      ),
    ]);
    writeFixture(directory, 'sample', {
      title: 'sample',
      details: ['made by fuzz.test.ts'],
      protocol: '2025-11-25',
      bytes,
      oracle: { maxMessageBytes: 32 << 20, batches: false },
    });
    const run = spawnSync(
      process.execPath,
      ['dist/mcp-conform.mjs', 'run', '--server', `${process.execPath} ${SERVER} --ephemeral`, directory],
      { encoding: 'utf8' },
    );
    assert.is(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /1 passed, 0 failed/);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});

// Found by the two-writers test, fixed by queueing lock use within one process (lib/store/journal/lock.ts):
// pipelined mutations took their own server's live lock for a leftover and removed it.
test('pipelined mutations in one server never break its own live lock', async () => {
  const server = startServer(['--ephemeral']);
  try {
    let lines =
      '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"k","version":"1"}}}\n';
    for (let i = 1; i <= 30; i++)
      lines += `${JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'add_comment', arguments: { key: 'PROJ-101', body: `c${i}` } } })}\n`;
    await server.write(lines);
    await server.until(() => server.received.has('30'), 10_000, 'the 30 comments');
    assert.not.match(server.stderr(), /removed a stale lock/, 'the server broke a lock it held itself');
  } finally {
    await server.close(3000);
  }
});

test.run();
