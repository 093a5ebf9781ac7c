// npm run fuzz -- --seconds N [--seed S] [--quick]
// Fuzzes the bundled server (build it first: node build.mjs) for N seconds, prints what it
// tried and what it found, and writes each finding as a replayable fixture to
// spec-tests/fuzz/found/. Exit code 1 if anything was found.

import { runFuzz } from './run.js';

function parseArgs(argv: readonly string[]): { seconds: number; seed: number; bigScale: number } {
  const args = { seconds: 30, seed: Date.now() % 1_000_000_007, bigScale: 1 };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = Number(argv[i + 1]);
    if (flag === '--seconds' && Number.isFinite(value) && value > 0) ((args.seconds = value), i++);
    else if (flag === '--seed' && Number.isSafeInteger(value)) ((args.seed = value), i++);
    else if (flag === '--quick') args.bigScale = 0.1;
    else throw new Error(`usage: main.ts --seconds N [--seed S] [--quick]; got ${flag}`);
  }
  return args;
}

async function main(): Promise<void> {
  const { seconds, seed, bigScale } = parseArgs(process.argv.slice(2));
  console.log(`fuzzing dist/mcp-tracker.mjs for ${seconds} s, seed ${seed} (replay with --seed ${seed})`);
  const report = await runFuzz({
    seed,
    bigScale,
    exhaustive: true,
    deadline: Date.now() + seconds * 1000,
    foundDir: 'spec-tests/fuzz/found',
    log: (line) => console.log(line),
  });
  const rate = report.inputs / Math.max(report.seconds, 0.001);
  console.log(
    `tried ${report.inputs} inputs (${(report.bytes / 1e6).toFixed(1)} MB) in ${report.rounds} rounds, ${report.sessions} server sessions, ${report.seconds.toFixed(1)} s: ${rate.toFixed(0)} inputs/s`,
  );
  console.log(
    `by kind: ${[...report.byKind]
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}`,
  );
  if (report.findings.length === 0) console.log('found nothing: every invariant held');
  for (const finding of report.findings) {
    console.log(
      `\nFINDING (${finding.isolated ? 'isolated to one input' : 'needs the whole round'}, ${finding.session.protocol}):`,
    );
    for (const problem of finding.problems) console.log(`  - ${problem.slice(0, 1000)}`);
    for (const c of finding.cases.slice(0, 30)) console.log(`  input: ${c.label}`);
    if (finding.fixture) console.log(`  fixture: ${finding.fixture}`);
  }
  process.exitCode = report.findings.length > 0 ? 1 : 0;
}

void main();
