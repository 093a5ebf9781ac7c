// A small MCP client over stdio: spawns a server, sends requests, matches responses by id.
// Used by `mcp-tracker demo` and by the subprocess tests. It reuses the engine's framer and
// envelope classifier, so the client reads the wire exactly as the server does.

import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { classify, encodeLine } from '../../protocol/json-rpc.js';
import { createLineFramer } from '../../protocol/line-framer.js';

export interface WireEvent {
  direction: 'sent' | 'received';
  /** The raw line (without its newline). */
  line: string;
}

export interface StdioClient {
  readonly child: ChildProcessWithoutNullStreams;
  /** Every message the server sent, parsed, in order. */
  readonly received: unknown[];
  /** Sends a request and resolves with its whole response message (result or error). */
  request(method: string, params?: unknown, timeoutMs?: number): Promise<Record<string, unknown>>;
  notify(method: string, params?: unknown): void;
  /** Writes raw text to the server's stdin, exactly as given. */
  writeRaw(text: string | Uint8Array): void;
  /** Resolves with the next server notification of this method (already received ones count once). */
  nextNotification(method: string, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Standard `initialize` + `notifications/initialized`; resolves with the initialize result. */
  initialize(protocolVersion?: string, capabilities?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Closes stdin and resolves with the exit code once the process is gone. */
  close(timeoutMs?: number): Promise<number | null>;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
}

export interface StdioClientOptions {
  onWire?(event: WireEvent): void;
  env?: NodeJS.ProcessEnv;
}

export function spawnStdioClient(command: string, args: string[], options: StdioClientOptions = {}): StdioClient {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], env: options.env ?? process.env });
  const received: unknown[] = [];
  const waiting = new Map<unknown, (message: Record<string, unknown>) => void>();
  const notificationWaiters: { method: string; resolve(message: Record<string, unknown>): void }[] = [];
  const consumed = new Set<unknown>();
  let stderrText = '';
  let nextId = 1;

  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => (stderrText += text));
  child.stdin.on('error', () => {}); // the server may exit first; its exit code tells the story

  const framer = createLineFramer(64 * 1024 * 1024, (frame) => {
    if (frame.kind !== 'message') return;
    options.onWire?.({ direction: 'received', line: frame.text });
    const value = JSON.parse(frame.text) as unknown;
    received.push(value);
    deliver(value);
  });
  child.stdout.on('data', (chunk: Buffer) => framer.push(chunk));
  child.stdout.on('end', () => framer.end());

  function deliver(value: unknown): void {
    const message = classify(value);
    if (message.kind === 'invalid' || message.kind === 'response') {
      const id = (value as { id?: unknown }).id;
      waiting.get(id)?.(value as Record<string, unknown>);
      waiting.delete(id);
    } else if (message.kind === 'notification') {
      const index = notificationWaiters.findIndex((w) => w.method === message.method);
      if (index === -1) return;
      consumed.add(value);
      notificationWaiters.splice(index, 1)[0]?.resolve(value as Record<string, unknown>);
    }
  }

  function write(message: unknown): void {
    const line = encodeLine(message);
    options.onWire?.({ direction: 'sent', line: line.slice(0, -1) });
    child.stdin.write(line);
  }

  const withTimeout = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms\nserver stderr:\n${stderrText}`)), ms);
      promise.then((value) => {
        clearTimeout(timer);
        resolve(value);
      }, reject);
    });

  const client: StdioClient = {
    child,
    received,
    request(method, params, timeoutMs = 5000) {
      const id = nextId++;
      const answer = new Promise<Record<string, unknown>>((resolve) => waiting.set(id, resolve));
      write(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
      return withTimeout(answer, timeoutMs, method);
    },
    notify(method, params) {
      write(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
    },
    writeRaw(text) {
      child.stdin.write(text);
    },
    nextNotification(method, timeoutMs = 5000) {
      const already = received.find(
        (m) => !consumed.has(m) && (m as { method?: string; id?: unknown }).method === method && !('id' in (m as object)),
      );
      if (already) {
        consumed.add(already);
        return Promise.resolve(already as Record<string, unknown>);
      }
      return withTimeout(
        new Promise((resolve) => notificationWaiters.push({ method, resolve })),
        timeoutMs,
        `waiting for ${method}`,
      );
    },
    async initialize(protocolVersion = '2025-11-25', capabilities = {}) {
      const answer = await client.request('initialize', {
        protocolVersion,
        capabilities,
        clientInfo: { name: 'mcp-by-hand-client', version: '1.0.0' },
      });
      if (!answer.result) throw new Error(`initialize failed: ${JSON.stringify(answer.error)}`);
      client.notify('notifications/initialized');
      return answer.result as Record<string, unknown>;
    },
    close(timeoutMs = 5000) {
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.stdin.end();
      return withTimeout(exited, timeoutMs, 'exit after stdin closed').catch((error: Error) => {
        child.kill('SIGKILL');
        throw error;
      });
    },
    stderr: () => stderrText,
  };
  return client;
}
