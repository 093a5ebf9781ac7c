// A Markdown report a maintainer can paste into an issue or a pull request: what the server
// speaks, the counts per level and revision, each finding once with its spec link, then the
// fixtures that did not pass.
import type { Reporter, RunInfo, Write } from './reporter.js';
import type { JudgedFixture, Summary } from './verdicts.js';
import { summaryLine } from './verdicts.js';
import { groupFindings } from './findings.js';
import { describeDetection } from './detection-text.js';

const SHOWN = new Set(['failed', 'advisory', 'expected-failure', 'stale']);

export class MarkdownReporter implements Reporter {
  private run: RunInfo | undefined;
  private readonly judged: JudgedFixture[] = [];
  private readonly startedAt = Date.now();

  constructor(private readonly write: Write) {}

  start(run: RunInfo): void {
    this.run = run;
  }

  fixtureDone(fixture: JudgedFixture): void {
    this.judged.push(fixture);
  }

  finish(summary: Summary): void {
    const lines = ['# mcp-conform report', ''];
    if (this.run) {
      lines.push('```', describeDetection(this.run).trimEnd(), '```', '');
      lines.push(
        `mcp-conform ${this.run.runnerVersion}, ${this.judged.length} fixtures in ${seconds(Date.now() - this.startedAt)}.`,
        '',
      );
    }
    lines.push(
      `**${summaryLine(summary)}**`,
      '',
      ...this.levelTable(summary),
      '',
      ...this.findingsTable(),
      ...this.fixtureTable(),
    );
    this.write(`${lines.join('\n')}\n`);
  }

  private levelTable(summary: Summary): string[] {
    const { must, should } = summary.failedByLevel;
    return [
      '| Level | Fixtures that failed |',
      '|---|---|',
      `| must | ${must} |`,
      `| should | ${should} |`,
      `| jsonrpc-strict (JSON-RPC replies to unreadable input, left out by the official SDKs) | ${summary.failedByLevel['jsonrpc-strict']} |`,
    ];
  }

  private findingsTable(): string[] {
    const findings = groupFindings(this.judged);
    if (findings.length === 0) return [];
    const rows = findings.map(
      (finding) =>
        `| ${finding.level}${finding.expected ? ' (expected)' : ''} | ${cell(finding.behaviour)} | ${finding.fixtures.map((name) => `\`${name}\``).join(', ')} | ${cell(finding.rule.join('; '))} |`,
    );
    return ['## Findings', '', '| Level | Behaviour | Fixtures | Rule |', '|---|---|---|---|', ...rows, ''];
  }

  private fixtureTable(): string[] {
    const shown = this.judged.filter((fixture) => SHOWN.has(fixture.verdict));
    if (shown.length === 0) return [];
    const rows = shown.map(({ result, verdict, expectedFailureReason }) => {
      const note = expectedFailureReason ?? result.failures[0]?.summary ?? '';
      return `| \`${result.name}\` | ${result.revision} | ${verdict} (${result.level}) | ${cell(note)} |`;
    });
    return [
      '## Fixtures that did not pass',
      '',
      '| Fixture | Revision | Verdict | First problem |',
      '|---|---|---|---|',
      ...rows,
      '',
    ];
  }
}

/** Table cells cannot hold pipes or line breaks; long server text is cut. */
function cell(text: string): string {
  const flat = text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
