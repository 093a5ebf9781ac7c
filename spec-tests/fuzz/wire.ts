// The server under fuzz, seen only through its pipes. Every stdout line is checked as it
// arrives (one UTF-8 JSON-RPC message per line) and every response is counted by id, so the
// rounds in run.ts can compare what came back with what the oracle says must come back.

import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { idKey } from './oracle.js';

export const SERVER = 'dist/mcp-tracker.mjs';

export interface WireServer {
  readonly child: ChildProcessWithoutNullStreams;
  /** Responses received per id key (inside batch arrays too). */
  readonly received: Map<string, Record<string, unknown>[]>;
  readonly counts: { nullErrors: number; arrays: number; notifications: number; serverRequests: number };
  /** Notifications from the server, with the time each arrived. */
  readonly notifications: { at: number; message: Record<string, unknown> }[];
  /** Problems with the stream itself: not JSON, not UTF-8, a bad envelope. */
  readonly streamProblems: string[];
  /** Set when the process has exited. */
  exit: { code: number | null; signal: NodeJS.Signals | null } | null;
  write(bytes: Buffer | string): Promise<void>;
  /** Resolves when `done()` holds, or rejects after `timeoutMs` (or when the process exits). */
  until(done: () => boolean, timeoutMs: number, what: string): Promise<void>;
  stderr(): string;
  /** Closes stdin and waits for the exit. */
  close(timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdoutEndsWithNewline: boolean }>;
  kill(): void;
}

/**
 * `script`: what node runs; a test may put a fault-injecting wrapper (mutant.mjs) in front of the server.
 * `launcher`: the command that runs node, e.g. `unshare --pid --fork` to start it in its own PID namespace.
 */
export function startServer(
  args: readonly string[],
  script: readonly string[] = [SERVER],
  launcher: readonly string[] = [process.execPath],
): WireServer {
  const [command = process.execPath, ...before] = launcher;
  const child = spawn(command, [...before, ...script, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.on('error', () => {}); // a dead server shows up as `exit`, checked by the caller
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => (stderr = (stderr + text).slice(-20_000)));
  const waiters = new Set<() => void>();
  const poke = (): void => waiters.forEach((w) => w());

  const server: WireServer = {
    child,
    received: new Map(),
    counts: { nullErrors: 0, arrays: 0, notifications: 0, serverRequests: 0 },
    streamProblems: [],
    notifications: [],
    exit: null,
    write: (bytes) => writeOrGiveUp(server, bytes),
    until: (done, timeoutMs, what) => waitUntil(server, waiters, done, timeoutMs, what),
    stderr: () => stderr,
    close: (timeoutMs = 5000) => closeServer(server, timeoutMs, () => lastByte),
    kill: () => void (server.exit === null && child.kill('SIGKILL')),
  };

  let pending: Buffer[] = [];
  let lastByte = -1;
  child.stdout.on('data', (chunk: Buffer) => {
    lastByte = chunk[chunk.length - 1] ?? lastByte;
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      onLine(server, Buffer.concat([...pending, chunk.subarray(start, nl)]));
      pending = [];
      start = nl + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
    poke();
  });
  child.on('exit', (code, signal) => {
    server.exit = { code, signal };
    poke();
  });
  return server;
}

/** Resolves once the pipe takes more, or at once when the server is gone (a dead pipe never drains). */
function writeOrGiveUp(server: WireServer, bytes: Buffer | string): Promise<void> {
  const stdin = server.child.stdin;
  if (server.exit || stdin.destroyed || stdin.write(bytes)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      stdin.off('drain', done).off('close', done);
      server.child.off('exit', done);
      resolve();
    };
    stdin.once('drain', done).once('close', done);
    server.child.once('exit', done);
  });
}

const decoder = new TextDecoder('utf-8', { fatal: true });

function onLine(server: WireServer, bytes: Buffer): void {
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(bytes));
  } catch {
    server.streamProblems.push(`stdout line is not UTF-8 JSON: ${bytes.subarray(0, 200).toString('latin1')}`);
    return;
  }
  if (Array.isArray(value)) {
    server.counts.arrays += 1;
    if (value.length === 0) server.streamProblems.push('empty batch response');
    for (const item of value) onMessage(server, item, true);
  } else {
    onMessage(server, value, false);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function onMessage(server: WireServer, value: unknown, inBatch: boolean): void {
  const problem = envelopeProblem(value, inBatch);
  if (problem) return void server.streamProblems.push(`${problem}: ${JSON.stringify(value).slice(0, 300)}`);
  const message = value as Record<string, unknown>;
  if (typeof message.method === 'string') {
    if ('id' in message) server.counts.serverRequests += 1;
    else {
      server.counts.notifications += 1;
      if (server.notifications.length < 10_000) server.notifications.push({ at: Date.now(), message });
    }
    return;
  }
  if (message.id === null) return void (server.counts.nullErrors += 1);
  const key = idKey(message.id);
  const list = server.received.get(key) ?? [];
  list.push(message);
  server.received.set(key, list);
}

/** The JSON-RPC 2.0 envelope of what a server may send (FORMAT.md, "Strictness"). */
export function envelopeProblem(value: unknown, inBatch: boolean): string | undefined {
  if (!isObject(value)) return 'a message that is not an object';
  if (value.jsonrpc !== '2.0') return 'jsonrpc is not "2.0"';
  const validId = typeof value.id === 'string' || Number.isSafeInteger(value.id);
  if ('method' in value) {
    if (inBatch) return 'a request or notification inside a batch response';
    if (typeof value.method !== 'string') return 'method is not a string';
    if ('id' in value && !validId) return 'server request with a bad id';
    if ('params' in value && !isObject(value.params)) return 'params is not an object';
    return undefined;
  }
  if ('result' in value === 'error' in value) return 'a response needs exactly one of result and error';
  if ('result' in value && !isObject(value.result)) return 'result is not an object';
  if ('error' in value) {
    const error = value.error;
    if (!isObject(error) || !Number.isInteger(error.code) || typeof error.message !== 'string') return 'malformed error object';
    if (value.id === null) return undefined;
  }
  return validId ? undefined : 'response id is not a string or an integer';
}

function waitUntil(
  server: WireServer,
  waiters: Set<() => void>,
  done: () => boolean,
  timeoutMs: number,
  what: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (done()) finish(resolve);
      else if (server.exit)
        finish(() => reject(new Error(`server exited (${server.exit?.code ?? server.exit?.signal}) while waiting for ${what}`)));
    };
    const timer = setTimeout(
      () => finish(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`))),
      timeoutMs,
    );
    const finish = (then: () => void): void => {
      clearTimeout(timer);
      waiters.delete(check);
      then();
    };
    waiters.add(check);
    check();
  });
}

async function closeServer(server: WireServer, timeoutMs: number, lastByte: () => number) {
  if (!server.exit) {
    server.child.stdin.end();
    await server.until(() => server.exit !== null, timeoutMs, 'exit after stdin EOF').catch(() => server.kill());
    await server.until(() => server.exit !== null, 2000, 'exit after SIGKILL').catch(() => {});
  }
  return {
    code: server.exit?.code ?? null,
    signal: server.exit?.signal ?? null,
    stdoutEndsWithNewline: lastByte() === 0x0a || lastByte() === -1,
  };
}
