// Starts `node dist/mcp-tracker.mjs ... --http 0` (a free port) and reads the URL it listens
// on from stderr: the one way tests and the bench start an HTTP tracker.
import { type ChildProcess, spawn } from 'node:child_process';

export interface HttpTracker {
  readonly child: ChildProcess;
  readonly url: URL;
}

/** `args` go before `--http 0`: a store (`--ephemeral`, `--data`, `--store`) and any options. */
export function startHttpTracker(args: readonly string[]): Promise<HttpTracker> {
  const child = spawn(process.execPath, ['dist/mcp-tracker.mjs', ...args, '--http', '0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  return new Promise<HttpTracker>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /listening on (\S+)/.exec(stderr);
      if (found) resolve({ child, url: new URL(found[1]!) });
    });
    child.on('exit', (code) => reject(new Error(`the tracker exited (${code}): ${stderr}`)));
  });
}
