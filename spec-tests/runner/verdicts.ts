// Turns fixture results into verdicts with the expected-failures list applied, and counts
// them. A listed fixture that fails is an expected failure; one that passes is stale and
// fails the run, so the list can never silently hide a fixed bug. A failure at a level the run
// does not fail on (--fail-on) is advisory: reported with its level, not counted as failed.
import type { FixtureResult } from './fixture-result.js';
import type { ExpectedFailure } from './expected-failures.js';
import type { Level } from './fixture-types.js';
import { entryFor } from './expected-failures.js';

export type Verdict = 'passed' | 'failed' | 'advisory' | 'skipped' | 'not-applicable' | 'expected-failure' | 'stale';

export interface JudgedFixture {
  result: FixtureResult;
  verdict: Verdict;
  expectedFailureReason?: string;
  /** Set by --update when the fixture file was rewritten. */
  updated?: boolean;
}

export interface Summary {
  passed: number;
  failed: number;
  skipped: number;
  /** Fixtures for a revision the server does not offer. */
  notApplicable: number;
  /** Failures at levels the run does not fail on. */
  advisory: number;
  /** Failed and advisory fixtures by their level. */
  failedByLevel: Record<Level, number>;
  expectedFailures: number;
  /** Expected-failure entries that named no fixture of this run. */
  unmatchedEntries: ExpectedFailure[];
}

export function judge(result: FixtureResult, entries: ExpectedFailure[], failOn: readonly Level[] = ['must']): JudgedFixture {
  const entry = entryFor(entries, result.name);
  if (!entry && result.outcome === 'failed' && !failOn.includes(result.level)) return { result, verdict: 'advisory' };
  if (!entry || result.outcome === 'skipped' || result.outcome === 'not-applicable') return { result, verdict: result.outcome };
  const verdict = result.outcome === 'failed' ? 'expected-failure' : 'stale';
  return { result, verdict, expectedFailureReason: entry.reason };
}

export function summarize(judged: JudgedFixture[], unmatchedEntries: ExpectedFailure[]): Summary {
  const count = (verdict: Verdict): number => judged.filter((item) => item.verdict === verdict).length;
  return {
    passed: count('passed'),
    failed: count('failed') + count('stale') + unmatchedEntries.length,
    skipped: count('skipped'),
    notApplicable: count('not-applicable'),
    advisory: count('advisory'),
    failedByLevel: failedByLevel(judged),
    expectedFailures: count('expected-failure'),
    unmatchedEntries,
  };
}

function failedByLevel(judged: JudgedFixture[]): Record<Level, number> {
  const counts: Record<Level, number> = { must: 0, should: 0, 'jsonrpc-strict': 0 };
  for (const { verdict, result } of judged) if (verdict === 'failed' || verdict === 'advisory') counts[result.level] += 1;
  return counts;
}

export function unmatchedEntries(entries: ExpectedFailure[], fixtureNames: string[]): ExpectedFailure[] {
  return entries.filter((entry) => !fixtureNames.some((name) => entryFor([entry], name)));
}

/** The report's last line: exactly "N passed, N failed", then skipped / expected failures if any. */
export function summaryLine(summary: Summary): string {
  const parts = [`${summary.passed} passed`, `${summary.failed} failed`];
  if (summary.skipped > 0) parts.push(`${summary.skipped} skipped`);
  if (summary.notApplicable > 0) parts.push(`${summary.notApplicable} not applicable`);
  if (summary.advisory > 0) parts.push(`${summary.advisory} advisory`);
  if (summary.expectedFailures > 0) parts.push(`${summary.expectedFailures} expected failures`);
  return parts.join(', ');
}
