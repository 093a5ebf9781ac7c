// The human report: one line per fixture, a short diff under each failure (fixture, step,
// JSON path, expected vs actual, the spec rule, the server's stderr), then the summary line.
import type { Failure } from './fixture-result.js';
import type { Reporter, RunInfo, Write } from './reporter.js';
import { describeDetection } from './detection-text.js';
import { groupFindings } from './findings.js';
import type { Palette } from './terminal-colors.js';
import type { JudgedFixture, Summary } from './verdicts.js';
import { summaryLine } from './verdicts.js';

const STDERR_TAIL_LINES = 15;
const INDENT = '      ';
// A note (an advisory) is read in passing: at most NOTE_LINES lines, each cut at NOTE_WIDTH, unless --verbose.
const NOTE_LINES = 5;
const NOTE_WIDTH = 160;

export class TextReporter implements Reporter {
  constructor(
    private readonly write: Write,
    private readonly palette: Palette,
    /** --verbose: advisories get the whole failure and the stderr, like failures. */
    private readonly verbose = false,
  ) {}

  private readonly byRevision = new Map<string, Map<string, number>>();
  private readonly judged: JudgedFixture[] = [];

  start(run: RunInfo): void {
    this.write(describeDetection(run));
  }

  fixtureDone(fixture: JudgedFixture): void {
    const { result } = fixture;
    this.countRevision(fixture);
    this.judged.push(fixture);
    const timing = this.palette.dim(`(${formatDuration(result.durationMs)})`);
    const updated = fixture.updated ? ' [updated]' : '';
    switch (fixture.verdict) {
      case 'passed':
        return this.write(`${this.palette.green('ok   ')} ${result.name}${updated} ${timing}\n`);
      case 'skipped':
        return this.write(`${this.palette.yellow('skip ')} ${result.name}: ${result.skipReason ?? ''}\n`);
      case 'advisory':
        this.write(`${this.palette.yellow('note ')} ${result.name} [${result.level}] ${timing}\n`);
        return this.write(this.verbose ? formatFailureDetails(fixture) : formatNote(fixture));
      case 'not-applicable':
        return this.write(`${this.palette.dim('n/a  ')} ${result.name}: ${result.skipReason ?? ''}\n`);
      case 'expected-failure':
        return this.write(`${this.palette.yellow('xfail')} ${result.name}: ${fixture.expectedFailureReason ?? ''}\n`);
      case 'stale':
        return this.write(
          `${this.palette.red('STALE')} ${result.name}: listed as an expected failure but passed; remove it from the list\n`,
        );
      case 'failed':
        this.write(`${this.palette.red('FAIL ')} ${result.name} ${timing}\n`);
        return this.write(formatFailureDetails(fixture));
    }
  }

  finish(summary: Summary): void {
    for (const entry of summary.unmatchedEntries) {
      this.write(
        `${this.palette.red('STALE')} expected-failure entry "${entry.name}" (line ${entry.line}) names no fixture of this run\n`,
      );
    }
    const findings = groupFindings(this.judged);
    if (findings.length > 0) this.write('\nfindings (fixtures that show the same behaviour, once):\n');
    for (const finding of findings) {
      const expected = finding.expected ? ', expected' : '';
      this.write(`  [${finding.level}${expected}] ${finding.behaviour}\n      ${finding.fixtures.join(', ')}\n`);
    }
    if (findings.length > 0) this.write('\n');
    for (const [revision, counts] of [...this.byRevision.entries()].sort())
      this.write(`${revision.padEnd(12)} ${[...counts.entries()].map(([verdict, n]) => `${n} ${verdict}`).join(', ')}\n`);
    const levels = Object.entries(summary.failedByLevel).filter(([, count]) => count > 0);
    if (levels.length > 0) this.write(`failed by level: ${levels.map(([level, count]) => `${level} ${count}`).join(', ')}\n`);
    const line = summaryLine(summary);
    this.write(`${summary.failed > 0 ? this.palette.red(line) : this.palette.green(line)}\n`);
  }

  /** Per-revision counts for the closing summary. */
  private countRevision(fixture: JudgedFixture): void {
    const counts = this.byRevision.get(fixture.result.revision) ?? new Map<string, number>();
    counts.set(fixture.verdict, (counts.get(fixture.verdict) ?? 0) + 1);
    this.byRevision.set(fixture.result.revision, counts);
  }
}

export function formatFailureDetails(fixture: JudgedFixture): string {
  const lines = [`${INDENT}fixture: ${fixture.result.path}`];
  for (const failure of fixture.result.failures) lines.push(...formatFailure(failure));
  lines.push(...formatStderr(fixture.result.stderr));
  return `${lines.join('\n')}\n`;
}

/** An advisory in NOTE_LINES lines with its own: the problem, expected vs actual, the rule, where to see more. */
export function formatNote(fixture: JudgedFixture): string {
  const failure = fixture.result.failures[0];
  if (failure === undefined) return '';
  const lines = [`problem: ${failure.summary}`];
  if (failure.mismatch) lines.push(`expected ${failure.mismatch.expected}, got ${failure.mismatch.actual}`);
  if (failure.rule[0] !== undefined) lines.push(`rule:    ${failure.rule[0]}`);
  lines.push(`fixture: ${fixture.result.path} (--verbose shows every failure and the stderr)`);
  const cut = (line: string) => (line.length > NOTE_WIDTH ? `${line.slice(0, NOTE_WIDTH - 1)}…` : line);
  return `${lines
    .slice(0, NOTE_LINES - 1)
    .map((line) => `${INDENT}${cut(line.replace(/\s*\n\s*/g, ' '))}`)
    .join('\n')}\n`;
}

function formatFailure(failure: Failure): string[] {
  const lines = [`${INDENT}step:    ${failure.where}`, `${INDENT}problem: ${failure.summary}`];
  if (failure.mismatch) {
    lines.push(`${INDENT}at ${failure.mismatch.path}`);
    lines.push(`${INDENT}  expected: ${failure.mismatch.expected}`);
    lines.push(`${INDENT}  actual:   ${failure.mismatch.actual}`);
  }
  if (failure.received !== undefined) lines.push(`${INDENT}received: ${failure.received}`);
  failure.rule.forEach((rule, index) => lines.push(`${INDENT}${index === 0 ? 'rule:    ' : '         '}${rule}`));
  return lines;
}

function formatStderr(stderr: string): string[] {
  const tail = stderr
    .trimEnd()
    .split('\n')
    .filter((line) => line !== '')
    .slice(-STDERR_TAIL_LINES);
  if (tail.length === 0) return [`${INDENT}stderr:  (empty)`];
  return [`${INDENT}stderr (last ${tail.length} lines):`, ...tail.map((line) => `${INDENT}  | ${line}`)];
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}
