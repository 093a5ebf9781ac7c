// spec-tests/test-support/late-stdin.mjs, the wrapper the interop tests put in front of the
// server: the child starts at once, sees its stdin only after the delay, and the wrapper ends as
// the child did (its exit code, its signal) and passes the signals it gets on to the child.
// Timing is asserted only as a lower bound, which a busy machine cannot break.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const WRAPPER = 'spec-tests/test-support/late-stdin.mjs';
const DELAY_MS = 400;

interface Ended {
  stdout: string;
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Runs `node -e CHILD` behind the wrapper; `drive` gets the wrapper and the stdout read so far. */
async function wrapped(
  child: string,
  drive: (wrapper: ReturnType<typeof spawn>, stdout: () => string) => Promise<void>,
): Promise<Ended> {
  const wrapper = spawn(process.execPath, [WRAPPER, String(DELAY_MS), process.execPath, '-e', child], { stdio: 'pipe' });
  let stdout = '';
  wrapper.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  const ended = once(wrapper, 'close') as Promise<[number | null, NodeJS.Signals | null]>;
  await drive(wrapper, () => stdout);
  const [code, signal] = await ended;
  return { stdout, code, signal };
}

async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 10_000) throw new Error('timed out waiting for the child');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('what the client writes at once reaches the child only after the delay, whole', async () => {
  // The child says when the first bytes reached it; the wrapper's clock starts after the write below.
  const child = `let first; process.stdin.on('data', (d) => { first ??= Date.now(); process.stdout.write(d); }).on('end', () => { process.stdout.write(String(first)); process.exit(0); });`;
  let writtenAt = 0;
  const ended = await wrapped(child, async (wrapper) => {
    writtenAt = Date.now();
    wrapper.stdin?.end('hello\n');
  });
  const [echoed, firstReadAt] = ended.stdout.split('\n');
  assert.is(echoed, 'hello');
  assert.ok(Number(firstReadAt) - writtenAt >= DELAY_MS, `read ${Number(firstReadAt) - writtenAt} ms after the write`);
  assert.is(ended.code, 0);
});

test("the wrapper exits with the child's code", async () => {
  const ended = await wrapped('process.exit(7)', async () => {});
  assert.is(ended.code, 7);
});

test("the wrapper dies of the child's signal", async () => {
  const ended = await wrapped(`process.kill(process.pid, 'SIGTERM')`, async () => {});
  assert.is(ended.signal, 'SIGTERM');
});

test('a signal sent to the wrapper reaches the child', async () => {
  const child = `process.on('SIGTERM', () => process.exit(3)); process.stdout.write('ready\\n'); setInterval(() => {}, 1000);`;
  const ended = await wrapped(child, async (wrapper, stdout) => {
    await until(() => stdout().includes('ready'));
    wrapper.kill('SIGTERM');
  });
  assert.is(ended.code, 3);
});

test.run();
