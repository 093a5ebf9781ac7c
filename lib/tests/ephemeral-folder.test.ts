// --ephemeral's folder (lib/ephemeral-folder.ts): removed on exit, and, when its server was
// killed before it could remove it, by a later --ephemeral start; never a live server's.
// Each test gives the servers a temporary folder of its own (TMPDIR).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type StdioClient, spawnStdioClient } from '../demo/stdio-client.js';
import {
  EPHEMERAL_FOLDER_PREFIX,
  FOLDERS_LOOKED_AT_PER_START,
  SERVER_FILE,
  type ServerIdentity,
  identityOf,
  removeGoneEphemeralFolders,
} from '../ephemeral-folder.js';

const INITIALIZE = {
  protocolVersion: '2025-11-25',
  capabilities: {},
  clientInfo: { name: 'ephemeral-folder.test', version: '1' },
};

/** Servers started by the running test: killed at its end if it failed before closing them. */
const started: StdioClient[] = [];

function withTemporaryFolder(run: (parent: string) => Promise<void> | void): () => Promise<void> {
  return async () => {
    const parent = mkdtempSync(join(tmpdir(), 'ephemeral-folder-test-'));
    try {
      await run(parent);
    } finally {
      for (const client of started.splice(0)) if (client.child.exitCode === null) client.child.kill('SIGKILL');
      rmSync(parent, { recursive: true, force: true });
    }
  };
}

/** An --ephemeral server whose temporary folder is `parent`, once it has answered initialize. */
async function startServer(parent: string): Promise<StdioClient> {
  const client = spawnStdioClient(process.execPath, ['dist/mcp-tracker.mjs', '--ephemeral'], {
    env: { ...process.env, TMPDIR: parent },
  });
  started.push(client);
  const answer = await client.request('initialize', INITIALIZE, 30_000);
  assert.ok(answer.result, JSON.stringify(answer.error));
  return client;
}

const ephemeralFolders = (parent: string): string[] =>
  readdirSync(parent)
    .filter((name) => name.startsWith(EPHEMERAL_FOLDER_PREFIX))
    .sort();

/** The folder `client`'s server serves from, found by the pid in its server.json. */
function folderOf(parent: string, client: StdioClient): string {
  const mine = ephemeralFolders(parent).filter(
    (name) => (JSON.parse(readFileSync(join(parent, name, SERVER_FILE), 'utf8')) as ServerIdentity).pid === client.child.pid,
  );
  assert.is(mine.length, 1, `one folder names pid ${client.child.pid}: ${ephemeralFolders(parent).join(', ')}`);
  return mine[0] as string;
}

function killed(client: StdioClient): Promise<void> {
  const exited = new Promise<void>((resolve) => client.child.once('exit', () => resolve()));
  client.child.kill('SIGKILL');
  return exited;
}

/** A folder as a server would leave it, naming `server`. */
/** As mkdtemp makes it: closed to others (0700). */
function leftFolder(parent: string, name: string, server: ServerIdentity, mode = 0o700): void {
  mkdirSync(join(parent, `${EPHEMERAL_FOLDER_PREFIX}${name}`), { mode });
  writeFileSync(join(parent, `${EPHEMERAL_FOLDER_PREFIX}${name}`, SERVER_FILE), JSON.stringify(server));
}

/** A pid whose process has exited (and been waited for). */
function goneProcessPid(): number {
  const run = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(run.stdout);
}

test(
  'a server serves from mcp-tracker-ephemeral-*, whose server.json names it, and removes the folder when stdin closes',
  withTemporaryFolder(async (parent) => {
    const client = await startServer(parent);
    const folder = folderOf(parent, client);
    assert.ok(readdirSync(join(parent, folder)).includes('tracker.jsonl'));
    assert.is(await client.close(10_000), 0);
    assert.equal(ephemeralFolders(parent), []);
  }),
);

test(
  "a SIGKILLed server's folder is removed by the next --ephemeral start; a live server's stays",
  withTemporaryFolder(async (parent) => {
    const live = await startServer(parent);
    const doomed = await startServer(parent);
    const liveFolder = folderOf(parent, live);
    const doomedFolder = folderOf(parent, doomed);
    await killed(doomed);
    assert.equal(ephemeralFolders(parent), [liveFolder, doomedFolder].sort(), 'SIGKILL leaves the folder');
    const next = await startServer(parent);
    const nextFolder = folderOf(parent, next);
    assert.equal(ephemeralFolders(parent), [liveFolder, nextFolder].sort());
    assert.match(next.stderr(), `removed 1 folder(s) left by --ephemeral servers that are gone: ${doomedFolder}`);
    const listed = await live.request('tools/list', {}, 30_000);
    assert.ok(listed.result, 'the live server still serves');
    assert.equal(await Promise.all([live.close(10_000), next.close(10_000)]), [0, 0]);
    assert.equal(ephemeralFolders(parent), []);
  }),
);

test(
  'judged by pid, start time, PID namespace, boot, machine and host: only a provably gone server loses its folder',
  withTemporaryFolder((parent) => {
    const us = identityOf(process.pid);
    leftFolder(parent, 'alive', us);
    leftFolder(parent, 'gone', { ...us, pid: goneProcessPid() });
    leftFolder(parent, 'reused', { ...us, started: '1' }); // our pid, but a process that started at another time
    leftFolder(parent, 'alive-earlier-boot', { ...us, boot_id: 'an-earlier-boot' }); // a power cut, and a pid alive again
    leftFolder(parent, 'other-machine', { ...us, boot_id: 'its-boot', machine_id: 'another-machine' });
    leftFolder(parent, 'other-namespace', { ...us, pid: goneProcessPid(), pid_ns: 'pid:[1]' });
    leftFolder(parent, 'other-host', { ...us, pid: goneProcessPid(), boot_id: 'its-boot', host: `not-${us.host}` });
    // Another user may make a folder with our prefix in a shared /tmp: one open to others, or a
    // symlink, is not ours to judge, whatever its server.json says.
    leftFolder(parent, 'open-to-others', { ...us, pid: goneProcessPid() }, 0o755);
    leftFolder(parent, 'linked-to', { ...us, pid: goneProcessPid() });
    symlinkSync(join(parent, `${EPHEMERAL_FOLDER_PREFIX}linked-to`), join(parent, `${EPHEMERAL_FOLDER_PREFIX}symlink`));
    // Made by a start killed before it wrote server.json: removed once quiet for a minute.
    mkdirSync(join(parent, `${EPHEMERAL_FOLDER_PREFIX}unowned-new`), { mode: 0o700 });
    mkdirSync(join(parent, `${EPHEMERAL_FOLDER_PREFIX}unowned-old`), { mode: 0o700 });
    // Without server.json but holding data: a live server's whose file was deleted, never removed.
    mkdirSync(join(parent, `${EPHEMERAL_FOLDER_PREFIX}unowned-with-data`), { mode: 0o700 });
    writeFileSync(join(parent, `${EPHEMERAL_FOLDER_PREFIX}unowned-with-data`, 'tracker.jsonl'), '');
    const anHourAgo = new Date(Date.now() - 3_600_000);
    for (const name of ['unowned-old', 'unowned-with-data'])
      utimesSync(join(parent, `${EPHEMERAL_FOLDER_PREFIX}${name}`), anHourAgo, anHourAgo);
    mkdirSync(join(parent, 'mcp-tracker-other'));
    // More folders of ours than a start looks at: this test judges every one of them. Without
    // /etc/machine-id (some containers) an earlier boot cannot be told from another machine.
    const earlierBootKnown = us.machine_id !== null && us.boot_id !== null;
    const removed = removeGoneEphemeralFolders(parent, 100).sort();
    const gone = ['gone', 'linked-to', 'reused', 'unowned-old', ...(earlierBootKnown ? ['alive-earlier-boot'] : [])];
    assert.equal(removed, gone.map((name) => `${EPHEMERAL_FOLDER_PREFIX}${name}`).sort());
    const kept = [
      'alive',
      'open-to-others',
      'other-host',
      'other-machine',
      'other-namespace',
      'symlink',
      'unowned-new',
      'unowned-with-data',
    ];
    assert.equal(
      readdirSync(parent).sort(),
      [
        ...[...kept, ...(earlierBootKnown ? [] : ['alive-earlier-boot'])].map((name) => `${EPHEMERAL_FOLDER_PREFIX}${name}`),
        'mcp-tracker-other',
      ].sort(),
    );
  }),
);

test(
  `a start looks at ${FOLDERS_LOOKED_AT_PER_START} folders at most, picked at random: later starts remove the rest`,
  withTemporaryFolder((parent) => {
    const us = identityOf(process.pid);
    const pid = goneProcessPid();
    for (let i = 0; i < 20; i++) leftFolder(parent, `gone-${i}`, { ...us, pid });
    for (let i = 0; i < 20; i++) leftFolder(parent, `alive-${i}`, us);
    let starts = 0;
    const counts: number[] = [];
    while (ephemeralFolders(parent).length > 20 && starts < 100) {
      const removed = removeGoneEphemeralFolders(parent);
      assert.ok(removed.length <= FOLDERS_LOOKED_AT_PER_START);
      counts.push(removed.length);
      starts++;
    }
    assert.equal(
      ephemeralFolders(parent),
      Array.from({ length: 20 }, (_, i) => `${EPHEMERAL_FOLDER_PREFIX}alive-${i}`).sort(),
      `starts removed ${counts.join(', ')}`,
    );
  }),
);

test.run();
