// A machine-readable report: one JSON document on stdout once the run is over.
import type { Reporter, RunInfo, Write } from './reporter.js';
import type { JudgedFixture, Summary } from './verdicts.js';

export class JsonReporter implements Reporter {
  private readonly fixtures: object[] = [];
  private run: RunInfo | undefined;
  private readonly startedAt = Date.now();

  constructor(private readonly write: Write) {}

  start(run: RunInfo): void {
    this.run = run;
  }

  fixtureDone(fixture: JudgedFixture): void {
    const { result } = fixture;
    this.fixtures.push({
      name: result.name,
      path: result.path,
      verdict: fixture.verdict,
      durationMs: result.durationMs,
      ...(result.skipReason !== undefined ? { skipReason: result.skipReason } : {}),
      ...(fixture.expectedFailureReason !== undefined ? { expectedFailureReason: fixture.expectedFailureReason } : {}),
      ...(fixture.updated ? { updated: true } : {}),
      failures: result.failures,
      ...(result.failures.length > 0 ? { stderr: result.stderr } : {}),
    });
  }

  finish(summary: Summary): void {
    const { unmatchedEntries, ...counts } = summary;
    this.write(
      `${JSON.stringify({ run: { ...this.run, durationMs: Date.now() - this.startedAt }, fixtures: this.fixtures, unmatchedExpectedFailures: unmatchedEntries, summary: counts }, null, 2)}\n`,
    );
  }
}
