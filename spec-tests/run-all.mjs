// `npm test` after type-checking and building: every uvu suite, then every conformance fixture
// against the bundled server. Prints what was skipped and why, then one closing line,
// `N passed, N failed`, which CI reads. Nothing missing passes silently: a suite folder or a
// bundle that is not there, or a suite that crashed before reporting, counts as a failure.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

// Team mode's tests (PostgreSQL) are a suite of their own, with a time limit of their own.
const uvuSuites = ['protocol/tests', 'lib/tests', 'spec-tests/tests-postgres', 'spec-tests/tests'];
// A suite that prints nothing for this long is stuck: uvu prints a mark after every test. A
// limit on silence, not on the whole run, because a loaded machine makes every suite slower
// but no single test that long.
const SILENCE_LIMIT_MS = 5 * 60_000;
// uvu prints its summary when the last test has run; a process still alive this long after
// that is held open by something a test left running (a failed test skips its clean-up).
const AFTER_SUMMARY_MS = 10_000;
const bundles = ['dist/mcp-tracker.mjs', 'dist/mcp-conform.mjs'];
let passed = 0;
let failed = 0;
const skipped = [];

for (const dir of uvuSuites) {
  console.log(`\n== uvu ${dir}`);
  if (!existsSync(dir)) {
    console.log(`FAIL: the suite folder ${dir} is missing`);
    failed += 1;
    continue;
  }
  // uvu itself, not through npx: on a timeout the kill must reach the process that hangs.
  const run = await runSuite(dir);
  if (run.timedOut) console.log(`FAIL: ${dir} printed nothing for ${SILENCE_LIMIT_MS / 60_000} minutes (a test hangs?)`);
  // A suite stopped either way has no exit status 0, so it counts at least one failure below.
  if (run.heldOpen)
    console.log(
      `FAIL: ${dir} printed its summary but still ran ${AFTER_SUMMARY_MS / 1000} s later (a test left something running)`,
    );
  // uvu colours some counts whatever FORCE_COLOR says (`Skipped:   \x1b[33m2`): skip the colour codes.
  const count = (label) => Number(new RegExp(`${label}:\\s+(?:\\x1b\\[\\d+m)*(\\d+)`).exec(run.stdout)?.[1] ?? 0);
  const [total, ok, skips] = [count('Total'), count('Passed'), count('Skipped')];
  passed += ok;
  // uvu counts a skipped test in neither Total nor Passed.
  failed += run.status === 0 ? total - ok : Math.max(total - ok, 1);
  if (skips > 0) skipped.push(`${skips} in ${dir} (test.skip in the suite: see its source)`);
  // A suite that skips for a reason the runner's environment can fix says so on a line `skip REASON`.
  for (const line of run.stdout.split('\n').filter((text) => text.startsWith('skip ')))
    skipped.push(`${dir}: ${line.slice(5).trim()}`);
}

const missing = bundles.filter((bundle) => !existsSync(bundle));
console.log('\n== mcp-conform: every fixture (generic, ours, tracker), with schema validation');
if (missing.length > 0) {
  console.log(`FAIL: ${missing.join(' and ')} missing: run node build.mjs first`);
  failed += 1;
} else {
  const run = spawnSync(
    process.execPath,
    [
      'dist/mcp-conform.mjs',
      'run',
      '--server',
      `${process.execPath} dist/mcp-tracker.mjs --ephemeral`,
      '--fail-on',
      'all',
      '--timeout',
      '5000',
      'spec-tests/fixtures',
    ],
    { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
  );
  process.stdout.write(run.stdout);
  process.stderr.write(run.stderr);
  const summary = /(\d+) passed, (\d+) failed(?:, (\d+) skipped)?/.exec(run.stdout);
  passed += Number(summary?.[1] ?? 0);
  failed += summary ? Number(summary[2]) : 1;
  if (run.status !== 0 && summary && Number(summary[2]) === 0) failed += 1;
  for (const line of run.stdout.split('\n').filter((text) => text.startsWith('skip '))) skipped.push(line.slice(5).trim());
}

/** Runs one uvu suite folder, echoing its output, and stops it when it hangs. */
function runSuite(dir) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['node_modules/uvu/bin.js', '-r', 'tsx', dir, '\\.test\\.ts$'], {
      env: { ...process.env, FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let timedOut = false;
    let heldOpen = false;
    let afterSummary;
    const silence = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, SILENCE_LIMIT_MS);
    child.stdout.setEncoding('utf8').on('data', (text) => {
      silence.refresh();
      stdout += text;
      process.stdout.write(text);
      if (afterSummary === undefined && /Duration:/.test(stdout))
        afterSummary = setTimeout(() => {
          heldOpen = true;
          child.kill('SIGKILL');
        }, AFTER_SUMMARY_MS);
    });
    child.stderr.on('data', (chunk) => {
      silence.refresh();
      process.stderr.write(chunk);
    });
    child.on('close', (status) => {
      clearTimeout(silence);
      clearTimeout(afterSummary);
      resolve({ stdout, status, timedOut, heldOpen });
    });
  });
}

console.log(`\n${skipped.length === 0 ? 'nothing' : skipped.length} skipped${skipped.length === 0 ? '' : ':'}`);
for (const reason of skipped) console.log(`  ${reason}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
