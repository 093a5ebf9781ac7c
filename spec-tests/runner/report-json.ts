// A machine-readable report: one JSON document on stdout once the run is over.
import type { Reporter, RunInfo, Write } from './reporter.js';
import type { JudgedFixture, Summary } from './verdicts.js';
import { behaviourOf, groupFindings } from './findings.js';

export class JsonReporter implements Reporter {
  private readonly fixtures: object[] = [];
  private readonly judged: JudgedFixture[] = [];
  private run: RunInfo | undefined;
  private readonly startedAt = Date.now();

  constructor(private readonly write: Write) {}

  start(run: RunInfo): void {
    this.run = run;
  }

  fixtureDone(fixture: JudgedFixture): void {
    const { result } = fixture;
    this.judged.push(fixture);
    this.fixtures.push({
      name: result.name,
      path: result.path,
      revision: result.revision,
      verdict: fixture.verdict,
      level: result.level,
      durationMs: result.durationMs,
      ...(result.skipReason !== undefined ? { skipReason: result.skipReason } : {}),
      ...(fixture.expectedFailureReason !== undefined ? { expectedFailureReason: fixture.expectedFailureReason } : {}),
      ...(fixture.updated ? { updated: true } : {}),
      // Every entry says how binding it is and what behaviour it shows (null: no failure).
      behaviour: result.failures[0] === undefined ? null : behaviourOf(result.failures[0]),
      failures: result.failures.map((failure) => ({
        ...failure,
        level: failure.level ?? 'must',
        behaviour: behaviourOf(failure),
      })),
      ...(result.failures.length > 0 ? { stderr: result.stderr } : {}),
    });
  }

  finish(summary: Summary): void {
    const { unmatchedEntries, ...counts } = summary;
    const document = {
      run: { ...this.run, durationMs: Date.now() - this.startedAt },
      findings: groupFindings(this.judged),
      fixtures: this.fixtures,
      unmatchedExpectedFailures: unmatchedEntries,
      summary: counts,
    };
    this.write(`${JSON.stringify(document, null, 2)}\n`);
  }
}
