// A data file the server cannot read: it says which file, which line and what to do, exits
// with code 1 before touching stdout, and leaves the file byte for byte as it was.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

function withDataFile(run: (file: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'tracker-data-'));
  try {
    run(join(dir, 'tracker.jsonl'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Creates a demo data file by starting the server once on it. */
function createDemo(file: string): void {
  const made = spawnSync(process.execPath, ['dist/mcp-tracker.mjs', '--data', file], { input: '', encoding: 'utf8' });
  assert.is(made.status, 0, made.stderr);
}

function serve(file: string) {
  return spawnSync(process.execPath, ['dist/mcp-tracker.mjs', '--data', file], {
    input: '{"jsonrpc":"2.0","id":1,"method":"ping"}\n',
    encoding: 'utf8',
    timeout: 10_000,
  });
}

test('a line corrupted in the middle: refused with file and line, the file untouched', () => {
  withDataFile((file) => {
    createDemo(file);
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[5] = '{"seq":5,"this is":"not a record"';
    writeFileSync(file, lines.join('\n'));
    const before = readFileSync(file);
    const run = serve(file);
    assert.is(run.status, 1);
    assert.is(run.stdout, '', 'nothing on stdout: no protocol was spoken');
    assert.match(run.stderr, `${file}:6`);
    assert.equal(readFileSync(file), before, 'the file is never overwritten');
  });
});

test('a file from a newer format version is refused with what to do', () => {
  withDataFile((file) => {
    createDemo(file);
    const text = readFileSync(file, 'utf8').replace('"version":1', '"version":99');
    writeFileSync(file, text);
    const run = serve(file);
    assert.is(run.status, 1);
    assert.match(run.stderr, /newer|upgrade/i);
    assert.is(readFileSync(file, 'utf8'), text);
  });
});

test('a file that is not a tracker journal is refused, not replaced with demo data', () => {
  withDataFile((file) => {
    writeFileSync(file, 'my precious notes\n');
    const run = serve(file);
    assert.is(run.status, 1);
    assert.match(run.stderr, file);
    assert.is(readFileSync(file, 'utf8'), 'my precious notes\n');
  });
});

test('a data path that is a symbolic link to nothing is refused, and the link is left alone', () => {
  withDataFile((file) => {
    // The real file lives on a drive that is not mounted right now.
    const target = join(dirname(file), 'unmounted-drive', 'tracker.jsonl');
    symlinkSync(target, file);
    const run = serve(file);
    assert.is(run.status, 1);
    assert.is(run.stdout, '', 'nothing on stdout: no protocol was spoken');
    assert.match(run.stderr, `${file}: The data path is a symbolic link to ${target}, which does not exist`);
    assert.ok(lstatSync(file).isSymbolicLink(), 'the link is still a link');
    assert.is(readlinkSync(file), target);
    assert.not.ok(existsSync(target), 'nothing was created at the target either');
  });
});

test.run();
