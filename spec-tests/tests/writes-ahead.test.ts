// The store's commands (dist/mcp-tracker-writes.mjs) and the query language with the store's
// other occasional reads (dist/mcp-tracker-reads.cjs) are loaded once the server has been quiet
// for a moment after its start (lib/main.ts, loadCompanionsWhenQuiet), so that the first write,
// query or sprint report does not wait for them. Seen from outside: after the quiet moment, the
// server no longer needs the files to write, to query and to report. And the early load is
// silent: a server copied alone still starts quietly, and its first write or query names the
// file to copy, as before.
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
const QUERY = {
  jsonrpc: '2.0',
  id: 3,
  method: 'tools/call',
  params: { name: 'search_issues', arguments: { query: 'project = PROJ AND summary ~ "quiet moment"' } },
};
const REPORT = { jsonrpc: '2.0', id: 4, method: 'resources/read', params: { uri: 'jira://sprint/PROJ-S41' } };

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

test('after a quiet moment the commands and the occasional reads are loaded: the first write, query and sprint report succeed with the files gone', async () => {
  const folder = folderWith(['mcp-tracker.mjs', 'mcp-tracker-writes.mjs', 'mcp-tracker-reads.cjs']);
  const server = startServer(folder);
  try {
    assert.match(await server.ask(INITIALIZE), '"protocolVersion":"2025-11-25"');
    await quiet();
    rmSync(join(folder, 'mcp-tracker-writes.mjs'));
    rmSync(join(folder, 'mcp-tracker-reads.cjs'));
    const answer = await server.ask(CREATE);
    assert.match(answer, '\\"title\\":\\"Written after a quiet moment\\"', answer);
    assert.not.match(answer, '"isError":true');
    const found = await server.ask(QUERY);
    assert.match(found, 'Written after a quiet moment', found);
    assert.not.match(found, '"isError":true');
    assert.match(await server.ask(REPORT), '\\"committed\\":', 'the sprint report, from the same file');
    await server.end();
  } finally {
    server.stop();
    rmSync(folder, { recursive: true, force: true });
  }
});

test('the early load of missing files is silent; the first write and query name the file to copy', async () => {
  const folder = folderWith(['mcp-tracker.mjs']);
  const server = startServer(folder);
  try {
    assert.match(await server.ask(INITIALIZE), '"protocolVersion":"2025-11-25"');
    await quiet();
    const answer = await server.ask(CREATE);
    assert.match(answer, 'needs mcp-tracker-writes.mjs beside this file');
    assert.match(await server.ask(QUERY), 'needs mcp-tracker-reads.cjs beside this file');
    const stderr = await server.end();
    assert.not.match(stderr, /internal error|ERR_MODULE_NOT_FOUND/, stderr);
  } finally {
    server.stop();
    rmSync(folder, { recursive: true, force: true });
  }
});

test.run();
