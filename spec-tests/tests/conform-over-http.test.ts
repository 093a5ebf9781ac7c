// The same transcripts judge both transports: the generic and tracker fixtures, played with
// `run --url` against the bundled tracker over Streamable HTTP, give the stdio verdicts (every
// fixture passes there), except the stdio-only fixtures, which are not applicable with their
// reason.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { runCommand } from '../runner/run-command.js';
import type { RunArguments } from '../runner/cli-args.js';
import { type FixtureFile, findFixtureFiles } from '../runner/fixture-files.js';
import { parseFixture } from '../runner/fixture-parser.js';
import { isJsonObject } from '../runner/json-types.js';
import { runInOrder } from '../runner/ordered-pool.js';
import { startHttpTracker } from '../test-support/http-tracker.js';
import { runArguments } from '../test-support/run-arguments.js';

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
  'generic/robustness/oversized-line': RAW,
  'generic/shutdown/exit-on-stdin-eof': PROCESS,
  'generic/ping/ping-before-initialize': /no session/,
  'tracker-2026/listen-ended-on-stdin-eof': PROCESS,
};

/** The tracker over HTTP with a fixture's `server-args` (split on spaces, as the runner does). */
async function startTracker(serverArgs?: string): Promise<{ child: ChildProcess; url: string }> {
  const extra = serverArgs === undefined ? [] : serverArgs.split(' ');
  const { child, url } = await startHttpTracker(['--ephemeral', ...extra]);
  return { child, url: url.href };
}

async function runOverHttp(url: string, paths: string[], urlServerArgs?: string): Promise<JsonReport> {
  let text = '';
  // 15 s for an answer: on a machine starved of CPU (a CI box at a load of 20) the tracker's
  // answers come late; what is under test is what they say, not how soon.
  const failOn: RunArguments['failOn'] = ['must', 'should', 'jsonrpc-strict'];
  const args = runArguments({
    url,
    urlServerArgs,
    schema: true,
    timeoutMs: 15_000,
    startupTimeoutMs: 10_000,
    failOn,
    jobs: 4,
    paths,
  });
  await runCommand(args, { write: (chunk) => (text += chunk), isTerminal: false, env: {} });
  return JSON.parse(text) as JsonReport;
}

/**
 * Every fixture gets its stdio verdict (on stdio they all pass, but for m13, skipped there too:
 * the tracker has prompts), or does not apply over HTTP for its reason. The tracker puts no
 * event ids on its streams (it offers no resumption), so the resumption checks are skipped.
 */
function assertVerdicts(fixtures: JsonReport['fixtures']): void {
  for (const fixture of fixtures) {
    const stdioOnly = STDIO_ONLY[fixture.name];
    if (stdioOnly) {
      assert.is(fixture.verdict, 'not-applicable', fixture.name);
      assert.match(fixture.skipReason ?? '', stdioOnly);
    } else {
      const skipped =
        fixture.name === 'generic/mcp/m13-prompts-list-without-capability' ||
        fixture.name.startsWith('http/resume-after-last-event-');
      const verdicts = skipped ? ['skipped'] : ['passed'];
      assert.ok(verdicts.includes(fixture.verdict), `${fixture.name}: ${fixture.verdict} ${fixture.failures[0]?.summary ?? ''}`);
    }
  }
}

test('generic fixtures over HTTP: the stdio verdicts, stdio-only fixtures not applicable; the transport checks pass', async () => {
  const { child, url } = await startTracker();
  try {
    const report = await runOverHttp(url, ['spec-tests/fixtures/generic', 'spec-tests/fixtures/http']);
    assert.ok(report.fixtures.filter((fixture) => fixture.name.startsWith('http/')).length >= 25);
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
  'add_attachment',
  'manage_sprint',
  'delete_issue',
]);

const parsed = (file: FixtureFile) => parseFixture(readFileSync(file.path, 'utf8'), file.path, file.name);

/** Whether a fixture calls a tool that changes the tracker's data (later fixtures would see the change). */
function changesData(file: FixtureFile): boolean {
  return parsed(file).steps.some(
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

/** Runs fixtures against a fresh tracker, started with the server-args of the first (they share them). */
async function runWithFreshTracker(paths: string[]): Promise<JsonReport['fixtures']> {
  const serverArgs = parsed({ path: paths[0]!, name: '' }).header.serverArgs;
  const { child, url } = await startTracker(serverArgs);
  try {
    return (await runOverHttp(url, paths, serverArgs)).fixtures;
  } finally {
    child.kill();
  }
}

// On stdio every fixture has a fresh process, so fresh demo data. Over HTTP the fixtures share
// one server: those that only read share one tracker, each that changes data or needs a server
// started with arguments of its own (--read-only) gets its own.
test('tracker fixtures over HTTP: the stdio verdicts', async () => {
  const files = findFixtureFiles(['spec-tests/fixtures/tracker', 'spec-tests/fixtures/tracker-2026']);
  const writers = files.filter((file) => changesData(file) || parsed(file).header.serverArgs !== undefined);
  const readers = files.filter((file) => !writers.includes(file)).map((file) => file.path);
  const reports = await runInOrder([readers, ...writers.map((file) => [file.path])], 4, runWithFreshTracker, () => {});
  const fixtures = reports.flat();
  assert.is(fixtures.length, files.length);
  assertVerdicts(fixtures);
});

// The runner starts no server over HTTP: a fixture for a server started in a mode of its own
// (`server-args:`) applies only when the run says its server was started so, and the others
// only when it says none.
test('server-args fixtures over HTTP: not applicable unless the server was started with them', async () => {
  const readOnly = 'spec-tests/fixtures/tracker/toolsets/read-only-2025-11-25.txtar';
  const plain = 'spec-tests/fixtures/tracker/tools/unknown-tool.txtar';
  const { child, url } = await startTracker();
  try {
    const [fixture] = (await runOverHttp(url, [readOnly])).fixtures;
    assert.is(fixture?.verdict, 'not-applicable');
    assert.match(fixture?.skipReason ?? '', '--url-server-args "--read-only"');
    const [other] = (await runOverHttp(url, [plain], '--read-only')).fixtures;
    assert.is(other?.verdict, 'not-applicable');
    assert.match(other?.skipReason ?? '', 'started with --read-only');
  } finally {
    child.kill();
  }
});

test.run();
