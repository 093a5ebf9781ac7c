// Runs mcp-conform N times against one server and checks that every run gives the same verdicts:
// the same fixtures pass, fail and are skipped or not applicable, with the same levels, reasons
// and failure summaries, and detection finds the same revisions. Timings are left out (they may
// differ); anything else that differs is printed, and the exit code is 1.
//
//   node scripts/repeat-verdicts.mjs [--runs 5] [--keep DIR] -- --server "node dist/mcp-tracker.mjs --ephemeral" [more run options]
//
// The runs go one after another, so that they do not load the machine for each other.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const separator = process.argv.indexOf('--');
const own = separator < 0 ? process.argv.slice(2) : process.argv.slice(2, separator);
const runArgs = separator < 0 ? [] : process.argv.slice(separator + 1);
const runs = Number(optionValue('--runs') ?? 5);
const keep = optionValue('--keep');
if (runArgs.length === 0 || !Number.isInteger(runs) || runs < 2) {
  console.error('usage: node scripts/repeat-verdicts.mjs [--runs N] [--keep DIR] -- RUN_OPTIONS (e.g. --server "CMD")');
  process.exit(2);
}

const verdicts = [];
for (let run = 1; run <= runs; run++) {
  const started = Date.now();
  const child = spawnSync(process.execPath, ['dist/mcp-conform.mjs', 'run', ...runArgs, '--reporter', 'json'], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (keep !== undefined) {
    mkdirSync(keep, { recursive: true });
    writeFileSync(join(keep, `run-${run}.json`), child.stdout);
  }
  let report;
  try {
    report = JSON.parse(child.stdout);
  } catch {
    console.log(`run ${run}: exit ${child.status}, no JSON report (${seconds} s); stderr: ${child.stderr.slice(-500)}`);
    process.exit(1);
  }
  const summary = report.summary;
  console.log(
    `run ${run}: exit ${child.status}, ${seconds} s: ${summary.passed} passed, ${summary.failed} failed, ` +
      `${summary.advisory} advisory, ${summary.skipped} skipped, ${summary.notApplicable} not applicable`,
  );
  verdicts.push(verdictsOf(report, child.status));
}

let differences = 0;
for (let run = 1; run < runs; run++) differences += compare(verdicts[0], verdicts[run], run + 1);
console.log(differences === 0 ? `${runs} runs, identical verdicts` : `${differences} differences between runs`);
process.exit(differences === 0 ? 0 : 1);

/** What a run decided, without timings: one line per fixture, plus the detection and the exit code. */
function verdictsOf(report, status) {
  const lines = new Map();
  const detection = report.run.detection;
  lines.set('(exit code)', String(status));
  lines.set('(detection)', JSON.stringify([detection.offeredHandshake, detection.offeredStateless]));
  for (const fixture of report.fixtures) {
    const failures = fixture.failures.map((failure) => `${failure.level ?? 'must'}: ${failure.summary}`);
    lines.set(fixture.name, JSON.stringify([fixture.verdict, fixture.level, fixture.skipReason ?? null, failures]));
  }
  return lines;
}

function compare(first, other, runNumber) {
  let count = 0;
  for (const name of new Set([...first.keys(), ...other.keys()])) {
    if (first.get(name) === other.get(name)) continue;
    count += 1;
    console.log(`differs in run ${runNumber}: ${name}\n  run 1: ${first.get(name)}\n  run ${runNumber}: ${other.get(name)}`);
  }
  return count;
}

function optionValue(name) {
  const index = own.indexOf(name);
  return index < 0 ? undefined : own[index + 1];
}
