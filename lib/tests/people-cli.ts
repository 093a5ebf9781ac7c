// `mcp-tracker people ...` as built, for the tests of the command on both backends
// (people-command.test.ts, spec-tests/tests-postgres/people-command-postgres.test.ts).
import { spawnSync } from 'node:child_process';

/** The built command: stdout and stderr apart. */
export function peopleCli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['dist/mcp-tracker.mjs', 'people', ...args], {
    encoding: 'utf8',
    env: { ...process.env, MCP_TRACKER_STORE: '' },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
