// An import that did not finish leaves its marker beside the data file; the server's start says
// so on stderr, with where the marker is and what to do, and serves the file as it is (issue 30 item 7).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const serve = (file: string) =>
  spawnSync(process.execPath, ['dist/mcp-tracker.mjs', '--data', file], {
    input: '{"jsonrpc":"2.0","id":1,"method":"ping"}\n',
    encoding: 'utf8',
    env: { ...process.env, MCP_TRACKER_STORE: '' },
    timeout: 20_000,
  });

test("the server's start reports an unfinished import's marker: where it is, what it says, what to do", () => {
  const dir = mkdtempSync(join(tmpdir(), 'tracker-pending-'));
  try {
    const file = join(dir, 'tracker.jsonl');
    const quiet = serve(file);
    assert.is(quiet.status, 0, quiet.stderr);
    assert.not.match(quiet.stderr, 'did not finish', 'no marker, nothing said');

    writeFileSync(`${file}.import-pending`, `/tmp/jira.csv, started 2026-12-02T09:00:00.000Z, process 4242\n`);
    const warned = serve(file);
    assert.is(warned.status, 0, warned.stderr);
    assert.match(
      warned.stderr,
      `an import into ${file} did not finish (/tmp/jira.csv, started 2026-12-02T09:00:00.000Z, process 4242)`,
    );
    assert.match(warned.stderr, `its marker is ${file}.import-pending`);
    assert.match(warned.stderr, `Run the same import again (mcp-tracker import FILE --data ${file})`);
    assert.is(JSON.parse(warned.stdout).id, 1, 'and it serves the file as it is');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
