// The store's commands (dist/mcp-tracker-writes.mjs) are loaded once the server has been quiet
// for a moment after its start (lib/main.ts, loadWritesWhenQuiet), so that the first write does
// not wait for them. Seen from outside: after the quiet moment, the server no longer needs the
// file to write. And the early load is silent: a server copied alone still starts quietly, and
// its first write names the file to copy, as before.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** Longer than the quiet moment (500 ms) with room for a loaded machine. */
const QUIET_MS = 2500;

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};
const CREATE = {
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/call',
  params: { name: 'create_issue', arguments: { project: 'PROJ', title: 'Written after a quiet moment', type: 'task' } },
};

interface Session {
  /** Sends a request and resolves with its answer's line. */
  ask(request: { id: number }): Promise<string>;
  /** Closes stdin and resolves with everything written on stderr. */
  end(): Promise<string>;
  /** Ends the process if it still runs (a failed assertion left it). */
  stop(): void;
}

function startServer(folder: string): Session {
  const child = spawn(process.execPath, [join(folder, 'mcp-tracker.mjs'), '--ephemeral'], { cwd: folder });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const waiting = new Map<number, (line: string) => void>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const { id } = JSON.parse(line) as { id?: number };
    if (id !== undefined) waiting.get(id)?.(line);
  });
  return {
    ask: (request) =>
      new Promise((resolve) => {
        waiting.set(request.id, resolve);
        child.stdin.write(`${JSON.stringify(request)}\n`);
      }),
    end: () =>
      new Promise((resolve) => {
        child.on('exit', () => resolve(stderr));
        child.stdin.end();
      }),
    stop: () => {
      if (child.exitCode === null) child.kill();
    },
  };
}

function folderWith(files: string[]): string {
  const folder = mkdtempSync(join(tmpdir(), 'mcp-writes-ahead-'));
  for (const name of files) copyFileSync(join('dist', name), join(folder, name));
  return folder;
}

const quiet = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, QUIET_MS));

test('after a quiet moment the commands are loaded: the first write succeeds with the file gone', async () => {
  const folder = folderWith(['mcp-tracker.mjs', 'mcp-tracker-writes.mjs']);
  const server = startServer(folder);
  try {
    assert.match(await server.ask(INITIALIZE), '"protocolVersion":"2025-11-25"');
    await quiet();
    rmSync(join(folder, 'mcp-tracker-writes.mjs'));
    const answer = await server.ask(CREATE);
    assert.match(answer, '\\"title\\":\\"Written after a quiet moment\\"', answer);
    assert.not.match(answer, '"isError":true');
    await server.end();
  } finally {
    server.stop();
    rmSync(folder, { recursive: true, force: true });
  }
});

test('the early load of a missing file is silent; the first write names the file to copy', async () => {
  const folder = folderWith(['mcp-tracker.mjs']);
  const server = startServer(folder);
  try {
    assert.match(await server.ask(INITIALIZE), '"protocolVersion":"2025-11-25"');
    await quiet();
    const answer = await server.ask(CREATE);
    assert.match(answer, 'needs mcp-tracker-writes.mjs beside this file');
    const stderr = await server.end();
    assert.not.match(stderr, /internal error|ERR_MODULE_NOT_FOUND/, stderr);
  } finally {
    server.stop();
    rmSync(folder, { recursive: true, force: true });
  }
});

test.run();
