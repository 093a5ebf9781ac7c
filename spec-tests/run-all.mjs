// `npm test` after type-checking and building: every uvu suite, then every conformance fixture
// against the bundled server. Prints one closing line, `N passed, N failed`, which CI reads.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const uvuSuites = ['protocol/tests', 'lib/tests', 'spec-tests/tests'];
let passed = 0;
let failed = 0;

for (const dir of uvuSuites) {
  if (!existsSync(dir)) continue;
  console.log(`\n== uvu ${dir}`);
  const run = spawnSync('npx', ['uvu', '-r', 'tsx', dir, '\\.test\\.ts$'], {
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  process.stdout.write(run.stdout);
  process.stderr.write(run.stderr);
  const total = Number(/Total:\s+(\d+)/.exec(run.stdout)?.[1] ?? 0);
  const ok = Number(/Passed:\s+(\d+)/.exec(run.stdout)?.[1] ?? 0);
  passed += ok;
  // A suite that crashed before reporting counts as one failure, never as zero tests.
  failed += run.status === 0 ? total - ok : Math.max(total - ok, 1);
}

const conformance = [{ name: 'every fixture (generic, ours, tracker), with schema validation', args: ['spec-tests/fixtures'] }];
if (existsSync('dist/mcp-conform.mjs') && existsSync('dist/mcp-tracker.mjs')) {
  for (const { name, args } of conformance) {
    console.log(`\n== mcp-conform: ${name}`);
    const run = spawnSync(
      process.execPath,
      [
        'dist/mcp-conform.mjs',
        'run',
        '--server',
        `${process.execPath} dist/mcp-tracker.mjs --ephemeral`,
        '--schema-dir',
        '../shared/spec',
        '--timeout',
        '5000',
        ...args,
      ],
      { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
    );
    process.stdout.write(run.stdout);
    process.stderr.write(run.stderr);
    const summary = /(\d+) passed, (\d+) failed/.exec(run.stdout);
    passed += Number(summary?.[1] ?? 0);
    failed += summary ? Number(summary[2]) : 1;
    if (run.status !== 0 && summary && Number(summary[2]) === 0) failed += 1;
  }
}

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
