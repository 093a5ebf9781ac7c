// The load driver's side of the wire: spawns a server over stdio and talks JSON-RPC to it.
// No SDK in here, and as little work per message as we can manage, so the driver's own cost
// stays small next to the server's and the same for every candidate.
//
// Ids are strings starting with "~" (never found in tracker data), so a response's id can be
// found with one indexOf instead of parsing every response, which matters for 5 MiB replies.

import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { type Era, STATELESS_META, paramsIn } from './workload.js';

export interface Reply {
  /** The raw response line, without its newline. */
  line: string;
  /** performance.now() when the line was complete. */
  at: number;
}

export interface ServerProcess {
  readonly child: ChildProcess;
  /** How this client speaks to it: every request is stamped for the era (workload.ts). */
  readonly era: Era;
  /** A request line with the "~id", its params stamped for the era. */
  encode(id: string, method: string, params?: Record<string, unknown>): string;
  /** Sends a request and resolves with its raw response line. */
  request(method: string, params?: Record<string, unknown>): Promise<Reply>;
  /** Sends a pre-encoded request line (with its "~id") and resolves with the response. */
  requestLine(id: string, line: string): Promise<Reply>;
  notify(method: string, params?: unknown): void;
  /** A promise for the response to `id`, for a request the caller writes itself. */
  expect(id: string): Promise<Reply>;
  /** Writes raw bytes to the server's stdin; resolves when the OS has taken them. */
  write(bytes: Uint8Array | string): Promise<void>;
  nextId(): string;
  /** Peak resident set (VmHWM) of the server process in bytes; null off Linux. */
  peakRss(): number | null;
  /** The last few KiB of stderr, for error messages. */
  stderrTail(): string;
  close(): Promise<void>;
}

/** `env`: variables set for this server on top of the driver's own. */
export function startServer(command: readonly string[], era: Era = 'handshake', env: NodeJS.ProcessEnv = {}): ServerProcess {
  const [program, ...args] = command;
  const child = spawn(program ?? process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const waiting = new Map<string, { resolve(reply: Reply): void; reject(error: Error): void }>();
  let counter = 0;
  let stderr = '';
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );

  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => {
    stderr = (stderr + text).slice(-4096);
  });
  child.stdin?.on('error', () => {}); // a server that died is reported by its missing replies
  splitLines(child, (line, at) => {
    const id = extractId(line);
    const pending = id === null ? undefined : waiting.get(id);
    if (!pending || id === null) return; // notifications and strays
    waiting.delete(id);
    pending.resolve({ line, at });
  });
  // A server that dies must fail the measurement, not hang it.
  void exit.then(() => {
    for (const pending of waiting.values()) pending.reject(new Error(`server exited with requests pending; stderr: ${stderr}`));
    waiting.clear();
  });

  // Requests written in the same tick leave in one write: 64 pipelined lanes would otherwise
  // cost 64 system calls, and the driver, not the server, would set the throughput.
  let corked = false;
  const send = (line: string): void => {
    if (!corked) {
      corked = true;
      child.stdin?.cork();
      process.nextTick(() => {
        corked = false;
        child.stdin?.uncork();
      });
    }
    child.stdin?.write(line);
  };

  const api: ServerProcess = {
    child,
    era,
    encode: (id, method, params) => requestLine(era, id, method, params),
    nextId: () => `~${++counter}`,
    request(method, params) {
      const id = api.nextId();
      return api.requestLine(id, api.encode(id, method, params));
    },
    expect(id) {
      if (exited) return Promise.reject(new Error(`server has exited; stderr: ${stderr}`));
      return new Promise<Reply>((resolve, reject) => waiting.set(id, { resolve, reject }));
    },
    requestLine(id, line) {
      const reply = api.expect(id);
      send(line);
      return reply;
    },
    notify(method, params) {
      child.stdin?.write(
        `${JSON.stringify(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params })}\n`,
      );
    },
    write: (bytes) => new Promise((resolve) => child.stdin?.write(bytes, () => resolve())),
    peakRss: () => readPeakRss(child.pid),
    stderrTail: () => stderr,
    async close() {
      if (exited) return;
      child.stdin?.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exit;
      clearTimeout(timer);
    },
  };
  return api;
}

function encodeRequest(id: string, method: string, params?: unknown): string {
  return `${JSON.stringify(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params })}\n`;
}

/** The members of the 2026-07-28 `_meta`, as JSON, made once. */
const STATELESS_META_MEMBERS = JSON.stringify(STATELESS_META).slice(1, -1);

/**
 * A request's line as a client speaking `era` writes it: the bytes encodeRequest makes of
 * paramsIn's params. In 2026-07-28 the `_meta` every request carries is spliced in as text
 * made once, not copied into new objects and encoded again for each request: on 2 cores the
 * driver shares the CPU with the server, and that doubled copy made a 2026-07-28 request cost
 * it half again a handshake one (docs/performance.md).
 */
export function requestLine(era: Era, id: string, method: string, params?: Record<string, unknown>): string {
  if (era === 'handshake' || params?._meta !== undefined) return encodeRequest(id, method, paramsIn(era, params));
  const members = params === undefined ? '' : JSON.stringify(params).slice(1, -1);
  const meta = `"_meta":{${STATELESS_META_MEMBERS}}`;
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":${JSON.stringify(method)},"params":{${members === '' ? meta : `${members},${meta}`}}}\n`;
}

/** The "~n" id of a response line. The SDK writes `id` last, we write it first: search both ways. */
export function extractId(line: string): string | null {
  const at = line.indexOf('"id":"~');
  if (at === -1) return null;
  const start = at + 6;
  const end = line.indexOf('"', start);
  return end === -1 ? null : line.slice(start, end);
}

/** Newline framing without re-concatenating: chunks are kept until their line ends. */
function splitLines(child: ChildProcess, onLine: (line: string, at: number) => void): void {
  let parts: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      const line = parts.length === 0 ? piece.toString('utf8') : Buffer.concat([...parts, piece]).toString('utf8');
      parts = [];
      start = nl + 1;
      onLine(line, performance.now());
    }
    if (start < chunk.length) parts.push(chunk.subarray(start));
  });
}

function readPeakRss(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}
