// One behaviour, one finding: a server that never answers unreadable input fails j08, j09, j10
// and more, and a report that lists five failures for it buries everything else. Fixtures whose
// first failure shows the same behaviour (fixture-result.ts `behaviour`, else the rule it broke)
// are grouped, most binding level first, then most fixtures first. The fixtures are written so
// that one behaviour has one level everywhere; where two disagree the finding takes the stricter
// and says which fixtures grade it otherwise, so the disagreement shows instead of splitting it.
import type { Failure } from './fixture-result.js';
import { LEVELS, type Level } from './fixture-types.js';
import type { JudgedFixture } from './verdicts.js';

export interface Finding {
  level: Level;
  behaviour: string;
  /** The spec rules the fixtures' failures cite (a page and what it asks), each once. */
  rule: string[];
  fixtures: string[];
  /** Fixtures of this finding graded at another level than `level`, by level; absent when none. */
  otherLevels?: Partial<Record<Level, string[]>>;
  /** True when every fixture in it is listed as an expected failure. */
  expected: boolean;
}

const REPORTED = new Set(['failed', 'advisory', 'expected-failure']);

/** What a failure shows the server doing, in words shared by every fixture that shows it. */
export function behaviourOf(failure: Failure): string {
  return failure.behaviour ?? failure.rule[0] ?? failure.summary;
}

export function groupFindings(judged: readonly JudgedFixture[]): Finding[] {
  const byBehaviour = new Map<string, { finding: Finding; levels: Map<string, Level> }>();
  for (const { result, verdict } of judged) {
    const failure = result.failures[0];
    if (!REPORTED.has(verdict) || failure === undefined) continue;
    const behaviour = behaviourOf(failure);
    const entry = byBehaviour.get(behaviour) ?? {
      finding: { level: result.level, behaviour, rule: [], fixtures: [], expected: true },
      levels: new Map<string, Level>(),
    };
    const { finding } = entry;
    finding.fixtures.push(result.name);
    entry.levels.set(result.name, result.level);
    if (LEVELS.indexOf(result.level) < LEVELS.indexOf(finding.level)) finding.level = result.level;
    // Fixtures that fail the same way may do so against different rules (m05 and m10 both get no
    // -32602: one from the tools page, one from pagination).
    for (const rule of failure.rule) if (!rule.startsWith('covers:') && !finding.rule.includes(rule)) finding.rule.push(rule);
    finding.expected &&= verdict === 'expected-failure';
    byBehaviour.set(behaviour, entry);
  }
  const findings = [...byBehaviour.values()].map(({ finding, levels }) => withOtherLevels(finding, levels));
  return findings.sort(
    (left, right) => LEVELS.indexOf(left.level) - LEVELS.indexOf(right.level) || right.fixtures.length - left.fixtures.length,
  );
}

function withOtherLevels(finding: Finding, levels: Map<string, Level>): Finding {
  const others: Partial<Record<Level, string[]>> = {};
  for (const [name, level] of levels) if (level !== finding.level) (others[level] ??= []).push(name);
  return Object.keys(others).length > 0 ? { ...finding, otherLevels: others } : finding;
}

/** ", graded jsonrpc-strict in generic/j08, generic/j10" when the finding's fixtures disagree. */
export function otherLevelsText(finding: Finding): string {
  const parts = Object.entries(finding.otherLevels ?? {}).map(([level, names]) => `${level} in ${names.join(', ')}`);
  return parts.length > 0 ? ` (graded ${parts.join('; ')})` : '';
}
