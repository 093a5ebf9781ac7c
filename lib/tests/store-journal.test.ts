// The data file: torn tails are recovered and kept, anything else that cannot
// be read is refused with file:line and left byte-for-byte unchanged.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isStoreFileError, openStore, type Logger, type StoreFileError, type TrackerStore } from '../store/index.js';

const directories: string[] = [];

function tempFile(): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'tracker-journal-'));
  directories.push(directory);
  return path.join(directory, 'tracker.jsonl');
}

function recordingLogger(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  return { log: (level, message) => lines.push(`${level}: ${message}`), lines };
}

function open(file: string, log: Logger = () => {}, extra: { lockTimeoutMs?: number } = {}): Promise<TrackerStore> {
  return openStore({ path: file, log, watch: false, ...extra });
}

/** A demo file with a few mutations after the demo records. */
async function journalWithHistory(): Promise<string> {
  const file = tempFile();
  const store = await open(file);
  await store.updateStatus('PROJ-101', 'in_review');
  await store.addComment('PROJ-104', { body: 'First look.' });
  store.close();
  return file;
}

async function openFailure(file: string): Promise<StoreFileError> {
  let failure: unknown = 'no error: the open succeeded';
  try {
    const store = await open(file);
    store.close();
  } catch (error) {
    failure = error;
  }
  assert.ok(isStoreFileError(failure), `expected a StoreFileError, got ${String(failure)}`);
  return failure;
}

function lines(file: string): string[] {
  return fs.readFileSync(file, 'utf8').split('\n');
}

function replaceLine(file: string, lineNumber: number, text: string): void {
  const all = lines(file);
  all[lineNumber - 1] = text;
  fs.writeFileSync(file, all.join('\n'));
}

function sideFiles(file: string): string[] {
  return fs
    .readdirSync(path.dirname(file))
    .filter((name) => name.startsWith(`${path.basename(file)}.torn-`))
    .map((name) => path.join(path.dirname(file), name));
}

test.after(() => {
  for (const directory of directories) fs.rmSync(directory, { recursive: true, force: true });
});

test('the file is a header line, then one JSON record per line', async () => {
  const file = await journalWithHistory();
  const [header, first, ...rest] = lines(file);
  assert.equal(Object.keys(JSON.parse(header ?? '')), ['format', 'version', 'created_at']);
  assert.is(JSON.parse(header ?? '').version, 1);
  assert.is(JSON.parse(first ?? '').type, 'project.created');
  assert.is(rest.at(-1), '', 'ends with a newline');
  const last = JSON.parse(rest.at(-2) ?? '');
  assert.is(last.type, 'issue.commented');
  assert.is(last.seq, lines(file).length - 2);
});

test('a torn final line is moved to a side file, truncated away, and logged', async () => {
  const file = await journalWithHistory();
  const good = fs.readFileSync(file);
  const torn = '{"seq":26,"at":"2025-06-15T12:00:00.000Z","type":"issue.sta';
  fs.appendFileSync(file, torn);
  const { log, lines: logged } = recordingLogger();
  const store = await open(file, log);
  assert.equal(fs.readFileSync(file), good, 'the journal is back to its acknowledged bytes');
  const [side, ...others] = sideFiles(file);
  assert.is(others.length, 0);
  assert.is(fs.readFileSync(side ?? '', 'utf8'), torn, 'nothing is lost');
  assert.is(logged.length, 1);
  assert.match(logged[0] ?? '', `warn: ${file}:`);
  assert.match(logged[0] ?? '', 'unfinished last line');
  assert.is(store.getIssue('PROJ-101').status, 'in_review');
  await store.updateStatus('PROJ-102', 'in_review');
  store.close();
  const reopened = await open(file);
  assert.is(reopened.getIssue('PROJ-102').status, 'in_review');
  reopened.close();
});

test('a last line of NUL bytes (power loss after the size was written) counts as torn', async () => {
  const file = await journalWithHistory();
  const good = fs.readFileSync(file);
  fs.appendFileSync(file, Buffer.from([0, 0, 0, 0, 0, 0, 0x0a]));
  const store = await open(file);
  assert.equal(fs.readFileSync(file), good);
  assert.is(sideFiles(file).length, 1);
  store.close();
});

test('a corrupt line in the middle is refused with file:line, and the file is not touched', async () => {
  const file = await journalWithHistory();
  replaceLine(file, 5, '{"seq":4,"at":"2025-06-15T12:00:00.000Z","type":"sprint.crea');
  const before = fs.readFileSync(file);
  const error = await openFailure(file);
  assert.is(error.reason, 'corrupt');
  assert.is(error.file, file);
  assert.is(error.line, 5);
  assert.match(error.message, `${file}:5: Line 5 is not a valid journal record: it is not valid JSON.`);
  assert.match(error.message, 'The file was left unchanged. Restore it from a backup');
  assert.equal(fs.readFileSync(file), before);
  assert.is(sideFiles(file).length, 0);
  assert.not.ok(fs.existsSync(`${file}.lock`));
});

test('a line that parses but breaks the schema is refused, naming the field', async () => {
  const file = await journalWithHistory();
  const all = lines(file);
  const lineNumber = all.length - 2; // the status change, just before the final comment
  const record = JSON.parse(all[lineNumber - 1] ?? '');
  assert.is(record.type, 'issue.status_changed');
  replaceLine(file, lineNumber, JSON.stringify({ ...record, to: 'Finished!' }));
  const before = fs.readFileSync(file);
  const error = await openFailure(file);
  assert.is(error.line, lineNumber);
  assert.match(error.message, 'to: does not match ^[a-z][a-z0-9_]{0,31}$');
  assert.equal(fs.readFileSync(file), before);
});

test('a complete last line that is not valid is refused too: only unterminated lines are torn', async () => {
  const file = await journalWithHistory();
  fs.appendFileSync(file, 'not json\n');
  const before = fs.readFileSync(file);
  const error = await openFailure(file);
  assert.is(error.line, lines(file).length - 1);
  assert.equal(fs.readFileSync(file), before);
});

test('records that do not fit the state before them are refused (lost or reordered lines)', async () => {
  const file = await journalWithHistory();
  const all = lines(file);
  const statusLine = all.length - 2;
  // Drop the status change: the comment's seq no longer follows.
  fs.writeFileSync(file, [...all.slice(0, statusLine - 1), ...all.slice(statusLine)].join('\n'));
  const error = await openFailure(file);
  assert.is(error.line, statusLine);
  assert.match(error.message, 'seq');
});

test('a header from a newer version is refused with an upgrade message', async () => {
  const file = await journalWithHistory();
  replaceLine(file, 1, JSON.stringify({ format: 'mcp-tracker', version: 2, created_at: '2030-01-01T00:00:00.000Z', shards: 4 }));
  const before = fs.readFileSync(file);
  const error = await openFailure(file);
  assert.is(error.reason, 'newer_version');
  assert.is(error.line, 1);
  assert.match(
    error.message,
    'written by a newer mcp-tracker (format version 2); this build reads version 1. Upgrade mcp-tracker',
  );
  assert.equal(fs.readFileSync(file), before);
});

test('files that are not journals are refused and left alone', async () => {
  for (const content of ['', 'hello\n', '{"format":"other"}\n', 'no newline at all']) {
    const file = tempFile();
    fs.writeFileSync(file, content);
    const error = await openFailure(file);
    assert.is(error.reason, 'not_a_journal', JSON.stringify(content));
    assert.is(fs.readFileSync(file, 'utf8'), content);
  }
});

test('a stale lock left by a dead process is broken, and logged', async () => {
  const file = await journalWithHistory();
  const dead = spawnSync(process.execPath, ['-e', '0']);
  // Its pid is judged only within our PID namespace and boot: the lock says it was taken there.
  const pid_ns = fs.readlinkSync('/proc/self/ns/pid');
  const boot_id = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  fs.writeFileSync(`${file}.lock`, JSON.stringify({ pid: dead.pid, nonce: 'x', pid_ns, boot_id }));
  const { log, lines: logged } = recordingLogger();
  const store = await open(file, log, { lockTimeoutMs: 1_000 });
  await store.updateStatus('PROJ-103', 'done');
  assert.match(logged.join('\n'), `its process ${dead.pid} is gone`);
  assert.not.ok(fs.existsSync(`${file}.lock`), 'released after the mutation');
  store.close();
});

test('a live lock makes a mutation wait, then fail with a clear timeout; nothing is written', async () => {
  const file = await journalWithHistory();
  fs.writeFileSync(`${file}.lock`, JSON.stringify({ pid: process.ppid, nonce: 'x', acquired_at: new Date().toISOString() }));
  const store = await open(file, () => {}, { lockTimeoutMs: 200 });
  const before = fs.readFileSync(file);
  const started = Date.now();
  try {
    await store.updateStatus('PROJ-103', 'done');
    assert.unreachable('the lock is held');
  } catch (error) {
    assert.ok(isStoreFileError(error));
    assert.is(error.reason, 'lock_timeout');
    assert.match(error.message, `waiting for process ${process.ppid} to release the lock ${file}.lock`);
    assert.match(error.message, 'if no other mcp-tracker is running, delete the lock file');
  }
  assert.ok(Date.now() - started >= 200);
  assert.equal(fs.readFileSync(file), before);
  fs.rmSync(`${file}.lock`);
  await store.updateStatus('PROJ-103', 'done'); // usable again once the lock is gone
  store.close();
});

/** Another file renamed onto the path, as an editor or a restore from a backup does it. */
function replaceUnderStore(file: string): Buffer {
  const other = `${file}.other`;
  fs.copyFileSync(file, other);
  fs.renameSync(other, file);
  return fs.readFileSync(file);
}

async function assertReplaced(work: () => unknown): Promise<void> {
  try {
    await work();
    assert.unreachable('the file was replaced');
  } catch (error) {
    assert.ok(isStoreFileError(error), `expected a StoreFileError, got ${String(error)}`);
    assert.is(error.reason, 'replaced');
    assert.match(error.message, 'Restart the server');
  }
}

test('a data file replaced under a running store is never written to: the next write reports it, and every read after', async () => {
  const file = await journalWithHistory();
  const store = await open(file);
  const replaced = replaceUnderStore(file);
  // Reads do not look at the path (journal-log.ts): until a write or the watcher does, they
  // answer from the file the store opened.
  assert.is(store.getIssue('PROJ-101').status, 'in_review');
  await assertReplaced(() => store.updateStatus('PROJ-103', 'done'));
  assert.equal(fs.readFileSync(file), replaced);
  await assertReplaced(() => store.getIssue('PROJ-101'));
  store.close();
});

test('a data file replaced under a running store is reported by the file watcher, without a write', async () => {
  const file = await journalWithHistory();
  const { log, lines } = recordingLogger();
  const store = await openStore({ path: file, log, pollIntervalMs: 20 });
  replaceUnderStore(file);
  for (let waited = 0; waited < 2_000 && !lines.some((line) => line.includes('another file took its place')); waited += 10) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.ok(
    lines.some((line) => line.startsWith('error: ') && line.includes('another file took its place')),
    lines.join('\n'),
  );
  await assertReplaced(() => store.getIssue('PROJ-101'));
  store.close();
});

test.run();
