// The text report's diff, the summary line, colours, and the JSON and JUnit formats.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { FixtureResult } from '../runner/fixture-result.js';
import type { JudgedFixture } from '../runner/verdicts.js';
import type { Reporter } from '../runner/reporter.js';
import { TextReporter } from '../runner/report-text.js';
import { JsonReporter } from '../runner/report-json.js';
import { JunitReporter, escapeXml } from '../runner/report-junit.js';
import { choosePalette } from '../runner/terminal-colors.js';
import { judge, summarize, summaryLine, unmatchedEntries } from '../runner/verdicts.js';
import { parseExpectedFailures } from '../runner/expected-failures.js';
import { groupFindings } from '../runner/findings.js';
import { MarkdownReporter } from '../runner/report-markdown.js';
import { parseArguments, type RunArguments } from '../runner/cli-args.js';

function result(name: string, outcome: FixtureResult['outcome'], extra: Partial<FixtureResult> = {}): FixtureResult {
  return {
    name,
    path: `spec-tests/fixtures/${name}.txtar`,
    revision: '2025-11-25',
    level: 'must',
    outcome,
    failures: [],
    stderr: '',
    durationMs: 120,
    observations: [],
    completed: true,
    ...extra,
  };
}

const FAILED = result('generic/ids/echo', 'failed', {
  failures: [
    {
      where: 'server section at line 14',
      summary: 'response to id 1 differs from the expectation at line 15',
      mismatch: { path: '$.id', expected: '"1"', actual: '1' },
      received: '{"jsonrpc":"2.0","id":1,"result":{}}',
      rule: ['https://modelcontextprotocol.io/specification/2025-06-18/basic: responses MUST include the same ID', 'covers: 1.2'],
    },
  ],
  stderr: 'line one\n<boom> & "quotes"\u0001\n',
});

const ENTRIES = parseExpectedFailures(
  '# known\ngeneric/known/broken: the server drops it\ngeneric/known/fixed: was broken once\nghost/entry: names nothing\n',
  'list',
);
const RESULTS = [
  result('generic/a/passes', 'passed'),
  FAILED,
  result('generic/b/skips', 'skipped', { skipReason: 'requires capabilities.prompts' }),
  result('generic/known/broken', 'failed', { failures: FAILED.failures }),
  result('generic/known/fixed', 'passed'),
];

function report(reporter: Reporter): void {
  const judged: JudgedFixture[] = RESULTS.map((item) => judge(item, ENTRIES));
  judged.forEach((item) => reporter.fixtureDone(item));
  reporter.finish(
    summarize(
      judged,
      unmatchedEntries(
        ENTRIES,
        RESULTS.map((item) => item.name),
      ),
    ),
  );
}

function textReport(isTerminal = false, env: NodeJS.ProcessEnv = {}): string {
  let text = '';
  report(new TextReporter((chunk) => (text += chunk), choosePalette(isTerminal, env)));
  return text;
}

test('a failure shows fixture, step, JSON path, expected vs actual, rule and stderr', () => {
  const text = textReport();
  const expectedBlock = [
    'FAIL  generic/ids/echo (120 ms)',
    '      fixture: spec-tests/fixtures/generic/ids/echo.txtar',
    '      step:    server section at line 14',
    '      problem: response to id 1 differs from the expectation at line 15',
    '      at $.id',
    '        expected: "1"',
    '        actual:   1',
    '      received: {"jsonrpc":"2.0","id":1,"result":{}}',
    '      rule:    https://modelcontextprotocol.io/specification/2025-06-18/basic: responses MUST include the same ID',
    '               covers: 1.2',
    '      stderr (last 2 lines):',
    '        | line one',
  ].join('\n');
  assert.ok(text.includes(expectedBlock), text);
});

test('verdicts: pass, skip, expected failure, stale entry, entry naming no fixture', () => {
  const text = textReport();
  assert.match(text, 'ok    generic/a/passes (120 ms)');
  assert.match(text, 'skip  generic/b/skips: requires capabilities.prompts');
  assert.match(text, 'xfail generic/known/broken: the server drops it');
  assert.match(text, 'STALE generic/known/fixed: listed as an expected failure but passed');
  assert.match(text, 'STALE expected-failure entry "ghost/entry" (line 4) names no fixture of this run');
});

test('the report ends with the summary line', () => {
  const lines = textReport().trimEnd().split('\n');
  assert.is(lines[lines.length - 1], '1 passed, 3 failed, 1 skipped, 1 expected failures');
  assert.is(
    summaryLine({
      passed: 4,
      failed: 0,
      skipped: 0,
      notApplicable: 0,
      advisory: 0,
      failedByLevel: { must: 0, should: 0, 'jsonrpc-strict': 0 },
      expectedFailures: 0,
      unmatchedEntries: [],
    }),
    '4 passed, 0 failed',
  );
});

test('colour only on a terminal without NO_COLOR', () => {
  assert.not.match(textReport(false, {}), '\u001b[');
  assert.not.match(textReport(true, { NO_COLOR: '1' }), '\u001b[');
  assert.match(textReport(true, {}), '\u001b[31m');
  assert.match(textReport(true, { NO_COLOR: '' }), '\u001b[31m');
});

test('json report: one document with verdicts and counts', () => {
  let text = '';
  report(new JsonReporter((chunk) => (text += chunk)));
  const document = JSON.parse(text) as {
    fixtures: { name: string; verdict: string }[];
    summary: Record<string, unknown>;
    unmatchedExpectedFailures: { name: string }[];
  };
  assert.equal(
    document.fixtures.map((item) => item.verdict),
    ['passed', 'failed', 'skipped', 'expected-failure', 'stale'],
  );
  assert.equal(document.summary, {
    passed: 1,
    failed: 3,
    skipped: 1,
    notApplicable: 0,
    advisory: 0,
    failedByLevel: { must: 1, should: 0, 'jsonrpc-strict': 0 },
    expectedFailures: 1,
  });
  assert.is(document.unmatchedExpectedFailures[0]?.name, 'ghost/entry');
});

test('one behaviour, one finding: fixtures failing the same way at one level group; at another level they are a finding of their own', () => {
  const dropped = (name: string, level: 'must' | 'jsonrpc-strict') =>
    result(name, 'failed', {
      level,
      failures: [
        { where: 'server section', summary: 'no', rule: ['r'], level, behaviour: 'no reply where error -32700 is owed' },
      ],
    });
  const judged = [
    dropped('generic/j08', 'jsonrpc-strict'),
    dropped('generic/j10', 'jsonrpc-strict'),
    FAILED,
    dropped('x/must', 'must'),
  ].map((item) => judge(item, [], ['must']));
  assert.equal(
    judged.map((item) => item.verdict),
    ['advisory', 'advisory', 'failed', 'failed'],
  );
  const findings = groupFindings(judged);
  // Folded into x/must's finding, j08 and j10 (a client sending unreadable input) would read as a MUST broken.
  assert.equal(
    findings.map((finding) => [finding.level, finding.fixtures]),
    [
      ['must', ['generic/ids/echo']],
      ['must', ['x/must']],
      ['jsonrpc-strict', ['generic/j08', 'generic/j10']],
    ],
  );
  let markdown = '';
  const reporter = new MarkdownReporter((chunk) => (markdown += chunk));
  judged.forEach((item) => reporter.fixtureDone(item));
  reporter.finish(summarize(judged, []));
  assert.match(markdown, '| jsonrpc-strict | no reply where error -32700 is owed | `generic/j08`, `generic/j10` | r |');
  assert.match(markdown, '| must | no reply where error -32700 is owed | `x/must` | r |');
  assert.match(markdown, '**0 passed, 2 failed, 2 advisory**');
});

test('json report: level and behaviour on every fixture and every failure', () => {
  let text = '';
  report(new JsonReporter((chunk) => (text += chunk)));
  const document = JSON.parse(text) as {
    fixtures: { level: string; behaviour: string | null; failures: { level: string; behaviour: string }[] }[];
  };
  for (const fixture of document.fixtures) {
    assert.ok(['must', 'should', 'jsonrpc-strict'].includes(fixture.level));
    assert.ok('behaviour' in fixture);
    for (const failure of fixture.failures) {
      assert.is(failure.level, 'must');
      assert.is(
        failure.behaviour,
        'https://modelcontextprotocol.io/specification/2025-06-18/basic: responses MUST include the same ID',
      );
    }
  }
  assert.equal(
    document.fixtures.map((fixture) => fixture.behaviour),
    [null, FAILED.failures[0]?.rule[0], null, FAILED.failures[0]?.rule[0], null],
  );
});

test('an advisory is a note of at most 5 lines; --verbose shows it in full', () => {
  const longStderr = Array.from({ length: 30 }, (_, index) => `stderr line ${index}`).join('\n');
  const advisory = judge(
    result('generic/strict', 'failed', { ...FAILED, name: 'generic/strict', level: 'jsonrpc-strict', stderr: longStderr }),
    [],
  );
  assert.is(advisory.verdict, 'advisory');
  const render = (verbose: boolean) => {
    let text = '';
    new TextReporter((chunk) => (text += chunk), choosePalette(false, {}), verbose).fixtureDone(advisory);
    return text.trimEnd().split('\n');
  };
  const note = render(false);
  assert.ok(note.length <= 5, note.join('\n'));
  assert.match(note.join('\n'), 'problem: response to id 1 differs');
  assert.match(note.join('\n'), '--verbose');
  assert.is((parseArguments(['run', '--server', 'x', '--verbose']) as RunArguments).verbose, true);
  const full = render(true);
  assert.ok(full.length > 15, full.join('\n'));
  assert.match(full.join('\n'), 'stderr line 29');
});

test('junit report: counts, one testcase per fixture, escaped text', () => {
  let xml = '';
  report(new JunitReporter((chunk) => (xml += chunk)));
  assert.ok(
    xml.startsWith(
      '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="mcp-conform" tests="6" failures="3" errors="0" skipped="2"',
    ),
    xml.slice(0, 200),
  );
  assert.is(xml.match(/<testcase /g)?.length, 6);
  assert.match(
    xml,
    '<testcase classname="generic.ids" name="echo" time="0.120"><failure message="response to id 1 differs from the expectation at line 15">',
  );
  assert.match(xml, '<skipped message="expected failure: the server drops it"/>');
  assert.match(xml, '<skipped message="requires capabilities.prompts"/>');
  assert.match(xml, '&lt;boom&gt; &amp; &quot;quotes&quot;\uFFFD');
  assert.not.match(xml, '\u0001');
  assert.is(xml.match(/<testsuite /g)?.length, 1);
  assert.match(xml.trimEnd(), /<\/testsuites>$/);
});

test('xml escaping', () => {
  assert.is(escapeXml('a<b>&"c"\u0000'), 'a&lt;b&gt;&amp;&quot;c&quot;\uFFFD');
});

test('expected-failures file: an entry needs a reason', () => {
  assert.throws(() => parseExpectedFailures('generic/x\n', 'list'), /list:1: expected "fixture-name: reason"/);
  const [entry] = parseExpectedFailures('j08-invalid-json: short name\n', 'list');
  assert.is(judge(result('generic/jsonrpc/j08-invalid-json', 'failed'), entry ? [entry] : []).verdict, 'expected-failure');
  assert.is(judge(result('generic/jsonrpc/xj08-invalid-json', 'failed'), entry ? [entry] : []).verdict, 'failed');
});

test.run();
