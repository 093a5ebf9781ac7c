// What running one fixture produced, before expected failures are applied.
import type { JsonValue } from './json-types.js';
import type { Mismatch } from './matchers.js';
import type { Level } from './fixture-types.js';

export interface Failure {
  /** Where in the fixture: "server section at line 14", "handshake", "end of fixture". */
  where: string;
  /** One line: what went wrong, e.g. "response to id 3 differs". */
  summary: string;
  mismatch?: Mismatch;
  /** The whole message the mismatch was found in, when there was one. */
  received?: string;
  /** The spec page and rule that the failed check enforces. */
  rule: string[];
  /** How binding the failed check is; absent means `must`. */
  level?: Level;
  /** What the server did, in words that do not depend on the fixture, so that fixtures showing
   * the same behaviour group into one finding (findings.ts). Absent: the rule is the behaviour. */
  behaviour?: string;
}

/** For --update: what the server actually sent for one expectation, or instead of nothing. */
export interface Observation {
  sectionIndex: number;
  expected: JsonValue | undefined;
  actual: JsonValue | undefined;
}

export interface FixtureResult {
  name: string;
  path: string;
  /** The revision the fixture is about (fixture-types.ts revisionOf), or 'unreadable'. */
  revision: string;
  outcome: 'passed' | 'failed' | 'skipped' | 'not-applicable';
  /** Why a skipped or not-applicable fixture did not run. */
  skipReason?: string;
  failures: Failure[];
  stderr: string;
  durationMs: number;
  observations: Observation[];
  /** The most binding level among the failures (`must` when there are none). */
  level: Level;
  /** True when every step ran to the end, which --update requires before rewriting. */
  completed: boolean;
}
