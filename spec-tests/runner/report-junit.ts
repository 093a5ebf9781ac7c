// A JUnit XML report for CI systems. Expected failures are <skipped> with their reason;
// stale expected failures and unmatched entries are <failure>s.
import type { Reporter, Write } from './reporter.js';
import type { JudgedFixture, Summary } from './verdicts.js';
import { formatFailureDetails } from './report-text.js';

export class JunitReporter implements Reporter {
  private readonly cases: string[] = [];
  /** The suite's time is the run's wall time (fixtures run several at a time). */
  private readonly startedAt = Date.now();

  constructor(private readonly write: Write) {}

  start(): void {}

  fixtureDone(fixture: JudgedFixture): void {
    this.cases.push(testCase(fixture));
  }

  finish(summary: Summary): void {
    const staleEntries = summary.unmatchedEntries.map((entry) =>
      element(
        'testcase',
        { classname: 'expected-failures', name: entry.name, time: '0' },
        failureElement(`entry on line ${entry.line} names no fixture of this run`, ''),
      ),
    );
    const cases = [...this.cases, ...staleEntries];
    const attributes = {
      name: 'mcp-conform',
      tests: String(cases.length),
      failures: String(summary.failed),
      errors: '0',
      skipped: String(summary.skipped + summary.notApplicable + summary.expectedFailures),
      time: seconds(Date.now() - this.startedAt),
    };
    const suite = element('testsuite', attributes, cases.join('\n'));
    this.write(`<?xml version="1.0" encoding="UTF-8"?>\n${element('testsuites', attributes, suite)}\n`);
  }
}

function testCase(fixture: JudgedFixture): string {
  const { result } = fixture;
  const slash = result.name.lastIndexOf('/');
  const attributes = {
    classname: slash === -1 ? 'mcp-conform' : result.name.slice(0, slash).replaceAll('/', '.'),
    name: result.name.slice(slash + 1),
    time: seconds(result.durationMs),
  };
  return element('testcase', attributes, testCaseBody(fixture));
}

function testCaseBody(fixture: JudgedFixture): string {
  const { result } = fixture;
  switch (fixture.verdict) {
    case 'passed':
      return '';
    case 'skipped':
      return element('skipped', { message: result.skipReason ?? '' }, '');
    case 'not-applicable':
      return element('skipped', { message: `not applicable: ${result.skipReason ?? ''}` }, '');
    case 'advisory':
      return element('skipped', { message: `advisory (${result.level}): ${result.failures[0]?.summary ?? ''}` }, '');
    case 'expected-failure':
      return element('skipped', { message: `expected failure: ${fixture.expectedFailureReason ?? ''}` }, '');
    case 'stale':
      return failureElement(`listed as an expected failure but passed: ${fixture.expectedFailureReason ?? ''}`, '');
    case 'failed':
      return `${failureElement(result.failures[0]?.summary ?? 'failed', formatFailureDetails(fixture))}\n${element('system-err', {}, escapeXml(result.stderr))}`;
  }
}

function failureElement(message: string, details: string): string {
  return element('failure', { message }, escapeXml(details));
}

function element(name: string, attributes: Record<string, string>, content: string): string {
  const attributeText = Object.entries(attributes)
    .map(([key, value]) => ` ${key}="${escapeXml(value)}"`)
    .join('');
  return content === '' ? `<${name}${attributeText}/>` : `<${name}${attributeText}>${content}</${name}>`;
}

// XML 1.0 cannot hold most control characters even escaped; server output may contain them.
export function escapeXml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '\uFFFD')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}
