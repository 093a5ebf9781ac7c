// Nothing a server under test started outlives the run: not the server, not a child that
// ignores SIGTERM, not a grandchild that moved to a session of its own (as an npm wrapper that
// starts its Go binary detached does) and was re-parented to init when its parent exited. Linux
// only: elsewhere the runner can kill the process group and nothing more.
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCommand } from '../runner/run-command.js';
import { tinyServer } from '../test-support/tiny-servers.js';
import { runArguments } from '../test-support/run-arguments.js';

const onLinux = process.platform === 'linux';

/** Pids whose command line holds `word`. */
function processesNamed(word: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(word)) found.push(Number(name));
    } catch {
      // Exited while we looked.
    }
  }
  return found;
}

/**
 * A server that, at start-up, starts a grandchild in a new session (detached: setsid) which
 * ignores SIGTERM and lives for a minute, then itself ignores SIGTERM and stdin EOF. `word`
 * goes on both command lines so the test can find them.
 */
function serverLeavingChildren(word: string): string {
  const grandchild = `process.on("SIGTERM", () => {}); setTimeout(() => {}, 60000);`;
  return `${tinyServer(`leaves-children-${word}`, {
    atStart: `process.on("SIGTERM", () => {});
require("node:child_process").spawn(process.execPath, ["-e", ${JSON.stringify(grandchild)}, "${word}"], { detached: true, stdio: "ignore" }).unref();`,
    onEnd: 'setInterval(() => {}, 1000);',
  })} ${word}`;
}

async function runQuietly(server: string, jobs: number): Promise<void> {
  await runCommand(runArguments({ server, filters: ['ping', 'j07', 'initialize-2025-11-25'], startupTimeoutMs: 10_000, jobs }), {
    write: () => undefined,
    isTerminal: false,
    env: {},
  });
}

test('a run leaves no process behind: detached grandchildren and SIGTERM-ignoring servers included', async () => {
  if (!onLinux) return;
  const word = `mcp-conform-leftover-${process.pid}`;
  await runQuietly(serverLeavingChildren(word), 2);
  assert.equal(processesNamed(word), [], 'processes of the server are still running after the run');
});

test('the check itself sees such leftovers (the test can fail)', async () => {
  if (!onLinux) return;
  const word = `mcp-conform-control-${process.pid}`;
  const { spawn } = await import('node:child_process');
  const server = spawn(serverLeavingChildren(word), { shell: true, stdio: ['pipe', 'ignore', 'ignore'], detached: true });
  await new Promise((resolve) => setTimeout(resolve, 1500));
  // Killing only the server's process group, as the runner used to, leaves the grandchild.
  process.kill(-(server.pid ?? 0), 'SIGKILL');
  await new Promise((resolve) => setTimeout(resolve, 300));
  const left = processesNamed(word);
  left.forEach((pid) => process.kill(pid, 'SIGKILL'));
  assert.ok(left.length >= 1, 'the grandchild should have survived a process-group kill');
});

test.run();
