// One behaviour, one finding: a server that never answers unreadable input fails j08, j09, j10
// and more, and a report that lists five failures for it buries everything else. Fixtures whose
// first failure shows the same behaviour (fixture-result.ts `behaviour`, else the rule it broke)
// at the same level are grouped, most binding level first, then most fixtures first. The same
// words at two levels are two findings, each at its fixtures' level: a fixture's level is the
// spec's grade for what it sends, and the words name what the server did, not what made it do it
// ("the server exited where a result was owed" after a BOM, a should, and after a batch, a must).
// Folded to the strictest, a robustness advisory would read as a MUST the server broke.
import type { Failure } from './fixture-result.js';
import { LEVELS, type Level } from './fixture-types.js';
import type { JudgedFixture } from './verdicts.js';

export interface Finding {
  level: Level;
  behaviour: string;
  /** The spec rules the fixtures' failures cite (a page and what it asks), each once. */
  rule: string[];
  fixtures: string[];
  /** True when every fixture in it is listed as an expected failure. */
  expected: boolean;
}

const REPORTED = new Set(['failed', 'advisory', 'expected-failure']);

/** What a failure shows the server doing, in words shared by every fixture that shows it. */
export function behaviourOf(failure: Failure): string {
  return failure.behaviour ?? failure.rule[0] ?? failure.summary;
}

export function groupFindings(judged: readonly JudgedFixture[]): Finding[] {
  const byBehaviour = new Map<string, Finding>();
  for (const { result, verdict } of judged) {
    const failure = result.failures[0];
    if (!REPORTED.has(verdict) || failure === undefined) continue;
    const behaviour = behaviourOf(failure);
    const key = `${result.level} ${behaviour}`;
    const finding = byBehaviour.get(key) ?? { level: result.level, behaviour, rule: [], fixtures: [], expected: true };
    finding.fixtures.push(result.name);
    // Fixtures that fail the same way may do so against different rules (m05 and m10 both get no
    // -32602: one from the tools page, one from pagination).
    for (const rule of failure.rule) if (!rule.startsWith('covers:') && !finding.rule.includes(rule)) finding.rule.push(rule);
    finding.expected &&= verdict === 'expected-failure';
    byBehaviour.set(key, finding);
  }
  return [...byBehaviour.values()].sort(
    (left, right) => LEVELS.indexOf(left.level) - LEVELS.indexOf(right.level) || right.fixtures.length - left.fixtures.length,
  );
}
