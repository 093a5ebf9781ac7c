// One behaviour, one finding: a server that never answers unreadable input fails j08, j09, j10
// and more, and a report that lists five failures for it buries everything else. Fixtures whose
// first failure shows the same behaviour (fixture-result.ts `behaviour`, else the rule it broke)
// and level are grouped, most fixtures first.
import type { Level } from './fixture-types.js';
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

export function groupFindings(judged: readonly JudgedFixture[]): Finding[] {
  const byKey = new Map<string, Finding>();
  for (const { result, verdict } of judged) {
    const failure = result.failures[0];
    if (!REPORTED.has(verdict) || failure === undefined) continue;
    const behaviour = failure.behaviour ?? failure.rule[0] ?? failure.summary;
    const key = `${result.level}\n${behaviour}`;
    const finding = byKey.get(key) ?? { level: result.level, behaviour, rule: [], fixtures: [], expected: true };
    finding.fixtures.push(result.name);
    // Fixtures that fail the same way may do so against different rules (m05 and m10 both get no
    // -32602: one from the tools page, one from pagination).
    for (const rule of failure.rule) if (!rule.startsWith('covers:') && !finding.rule.includes(rule)) finding.rule.push(rule);
    finding.expected &&= verdict === 'expected-failure';
    byKey.set(key, finding);
  }
  const order: Level[] = ['must', 'should', 'jsonrpc-strict'];
  return [...byKey.values()].sort(
    (left, right) => order.indexOf(left.level) - order.indexOf(right.level) || right.fixtures.length - left.fixtures.length,
  );
}
