// The proof that the generic fixtures test the spec and not our own server: run them against
// an independent server built on the official SDK. Everything passes except the departures
// listed, with reasons, in spec-tests/sdk-server/expected-failures.txt.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { build } from 'esbuild';
import { runCommand } from '../runner/run-command.js';
import { readExpectedFailures } from '../runner/expected-failures.js';
import { scratchDir } from '../test-support/tiny-servers.js';

const EXPECTED_FAILURES = 'spec-tests/sdk-server/expected-failures.txt';

test('the SDK server passes every generic fixture except its listed departures', async () => {
  const bundle = join(scratchDir, 'sdk-server.mjs');
  // Bundled once so each fixture starts a plain `node` process, not a TypeScript loader.
  await build({
    entryPoints: ['spec-tests/sdk-server/server.ts'],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'warning',
  });
  let report = '';
  const code = await runCommand(
    {
      command: 'run',
      server: `"${process.execPath}" "${bundle}"`,
      schema: true, // the built-in official schemas
      schemaDir: undefined,
      reporter: 'text',
      filters: [],
      update: false,
      expectedFailures: EXPECTED_FAILURES,
      // Generous: a loaded 2-core CI machine must not turn a slow start into a failure.
      timeoutMs: 5000,
      startupTimeoutMs: 30_000,
      failOn: ['must'],
      jobs: 4,
      paths: ['spec-tests/fixtures/generic'],
    },
    { write: (text) => (report += text), isTerminal: false, env: {} },
  );
  const listed = readExpectedFailures(EXPECTED_FAILURES).length;
  const summary = report.trimEnd().split('\n').pop() ?? '';
  assert.is(code, 0, report);
  assert.match(
    summary,
    new RegExp(`^\\d+ passed, 0 failed(, \\d+ skipped)?, 6 not applicable, \\d+ advisory, ${listed} expected failures$`),
    report,
  );
  assert.not.match(report, 'STALE');
});

test.run();
