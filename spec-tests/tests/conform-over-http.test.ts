// The same transcripts judge both transports: the generic and tracker fixtures, played with
// `run --url` against the bundled tracker over Streamable HTTP, give the stdio verdicts (every
// fixture passes there), except the stdio-only fixtures, which are not applicable with their
// reason.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { runCommand } from '../runner/run-command.js';
import type { RunArguments } from '../runner/cli-args.js';
import { type FixtureFile, findFixtureFiles } from '../runner/fixture-files.js';
import { parseFixture } from '../runner/fixture-parser.js';
import { isJsonObject } from '../runner/json-types.js';
import { runInOrder } from '../runner/ordered-pool.js';

interface JsonReport {
  fixtures: { name: string; verdict: string; skipReason?: string; failures: { summary: string }[] }[];
  run: { detection: { transport: string; offeredHandshake: string[]; offeredStateless: string[] } };
}

const RAW = /raw bytes/;
const PROCESS = /closes stdin/;
/** The fixtures that cannot be played over HTTP, and the words their reason must contain. */
const STDIO_ONLY: Record<string, RegExp> = {
  'generic/batch/j10-batch-with-invalid-json': RAW,
  'generic/framing/blank-lines': RAW,
  'generic/framing/bom-at-stream-start': RAW,
  'generic/framing/crlf-line-endings': RAW,
  'generic/framing/invalid-line-then-valid-line': RAW,
  'generic/framing/message-split-across-writes': RAW,
  'generic/framing/no-final-newline-at-eof': RAW,
  'generic/framing/several-messages-in-one-write': RAW,
  'generic/framing/utf8-split-across-writes': RAW,
  'generic/jsonrpc/j08-invalid-json': RAW,
  'generic/mcp/m17-stdout-purity': RAW,
  'generic/shutdown/exit-on-stdin-eof': PROCESS,
  'generic/ping/ping-before-initialize': /no session/,
  'tracker-2026/listen-ended-on-stdin-eof': PROCESS,
};

/** Starts `mcp-tracker --ephemeral --http 0` (fresh demo data) and reads its URL from stderr. */
async function startTracker(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['dist/mcp-tracker.mjs', '--ephemeral', '--http', '0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /listening on (\S+)/.exec(stderr);
      if (found) resolve(found[1]!);
    });
    child.on('exit', (code) => reject(new Error(`the tracker exited (${code}): ${stderr}`)));
  });
  return { child, url };
}

async function runOverHttp(url: string, paths: string[]): Promise<JsonReport> {
  let text = '';
  const args: RunArguments = {
    command: 'run',
    server: '',
    url,
    schema: true,
    schemaDir: undefined,
    reporter: 'json',
    filters: [],
    update: false,
    expectedFailures: undefined,
    timeoutMs: 5000,
    startupTimeoutMs: 10_000,
    failOn: ['must', 'should', 'jsonrpc-strict'],
    jobs: 4,
    paths,
  };
  await runCommand(args, { write: (chunk) => (text += chunk), isTerminal: false, env: {} });
  return JSON.parse(text) as JsonReport;
}

/**
 * Every fixture gets its stdio verdict (on stdio they all pass, but for m13, skipped there too:
 * the tracker has prompts), or does not apply over HTTP for its reason.
 */
function assertVerdicts(fixtures: JsonReport['fixtures']): void {
  for (const fixture of fixtures) {
    const stdioOnly = STDIO_ONLY[fixture.name];
    if (stdioOnly) {
      assert.is(fixture.verdict, 'not-applicable', fixture.name);
      assert.match(fixture.skipReason ?? '', stdioOnly);
    } else {
      const verdicts = fixture.name === 'generic/mcp/m13-prompts-list-without-capability' ? ['skipped'] : ['passed'];
      assert.ok(verdicts.includes(fixture.verdict), `${fixture.name}: ${fixture.verdict} ${fixture.failures[0]?.summary ?? ''}`);
    }
  }
}

test('generic fixtures over HTTP: the stdio verdicts, stdio-only fixtures not applicable', async () => {
  const { child, url } = await startTracker();
  try {
    const report = await runOverHttp(url, ['spec-tests/fixtures/generic']);
    assert.is(report.run.detection.transport, 'http');
    assert.equal(report.run.detection.offeredHandshake, ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']);
    assert.equal(report.run.detection.offeredStateless, ['2026-07-28']);
    assert.ok(report.fixtures.length > 50);
    assertVerdicts(report.fixtures);
  } finally {
    child.kill();
  }
});

const CHANGES_DATA = new Set([
  'create_issue',
  'update_issue',
  'bulk_update_status',
  'link_issues',
  'add_comment',
  'manage_sprint',
  'delete_issue',
]);

/** Whether a fixture calls a tool that changes the tracker's data (later fixtures would see the change). */
function changesData(file: FixtureFile): boolean {
  const fixture = parseFixture(readFileSync(file.path, 'utf8'), file.path, file.name);
  return fixture.steps.some(
    (step) =>
      step.kind === 'send-json' &&
      step.messages.some(
        ({ value }) =>
          isJsonObject(value) &&
          value.method === 'tools/call' &&
          isJsonObject(value.params) &&
          CHANGES_DATA.has(String(value.params.name)),
      ),
  );
}

async function runWithFreshTracker(paths: string[]): Promise<JsonReport['fixtures']> {
  const { child, url } = await startTracker();
  try {
    return (await runOverHttp(url, paths)).fixtures;
  } finally {
    child.kill();
  }
}

// On stdio every fixture has a fresh process, so fresh demo data. Over HTTP the fixtures share
// one server: those that only read share one tracker, each that changes data gets its own.
test('tracker fixtures over HTTP: the stdio verdicts', async () => {
  const files = findFixtureFiles(['spec-tests/fixtures/tracker', 'spec-tests/fixtures/tracker-2026']);
  const writers = files.filter(changesData);
  const readers = files.filter((file) => !writers.includes(file)).map((file) => file.path);
  const reports = await runInOrder([readers, ...writers.map((file) => [file.path])], 4, runWithFreshTracker, () => {});
  const fixtures = reports.flat();
  assert.is(fixtures.length, files.length);
  assertVerdicts(fixtures);
});

test.run();
