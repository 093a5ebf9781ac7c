// The arguments of `mcp-conform run` as a test passes them to runCommand: the defaults a test
// wants (JSON report, no schema, short timeouts), and what it says differently.
import type { RunArguments } from '../runner/cli-args.js';

export function runArguments(overrides: Partial<RunArguments>): RunArguments {
  return {
    command: 'run',
    server: '',
    schema: false,
    schemaDir: undefined,
    reporter: 'json',
    filters: [],
    update: false,
    expectedFailures: undefined,
    timeoutMs: 2000,
    startupTimeoutMs: 5000,
    failOn: ['must'],
    jobs: 2,
    paths: [],
    ...overrides,
  };
}
