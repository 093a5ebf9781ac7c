// The measurements, each on a server the caller started. All times are milliseconds from
// the driver writing a request to the driver holding the whole response line.

import { type ServerProcess, startServer } from './client.js';
import { since } from './stats.js';
import { type Call, DISCOVER, type Era, INITIALIZE, hugePing } from './workload.js';

export interface ColdStart {
  initializeMs: number;
  toolsListMs: number;
}

/**
 * Spawn to the opening's response (`initialize`, or `server/discover` in 2026-07-28), and to
 * the first tools/list response right after it. `env`: see startServer.
 */
export async function coldStart(command: readonly string[], era: Era, env: NodeJS.ProcessEnv = {}): Promise<ColdStart> {
  const start = performance.now();
  const server = startServer(command, era, env);
  try {
    const opening = era === 'handshake' ? INITIALIZE : DISCOVER;
    const init = await server.request(opening.method, opening.params);
    if (era === 'handshake') server.notify('notifications/initialized');
    const tools = await server.request('tools/list');
    return { initializeMs: init.at - start, toolsListMs: tools.at - start };
  } finally {
    await server.close();
  }
}

/** One request at a time; returns each round trip. */
export async function sequential(server: ServerProcess, make: (i: number) => Call, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const call = make(i);
    const id = server.nextId();
    const line = server.encode(id, call.method, call.params);
    const start = performance.now();
    const reply = await server.requestLine(id, line);
    times.push(reply.at - start);
  }
  return times;
}

/** `total` requests with `window` in flight at all times; returns requests per second. */
export async function pipelined(server: ServerProcess, make: (i: number) => Call, total: number, window = 64): Promise<number> {
  let sent = 0;
  const start = performance.now();
  const lane = async (): Promise<void> => {
    while (sent < total) {
      const call = make(sent++);
      await server.request(call.method, call.params);
    }
  };
  await Promise.all(Array.from({ length: Math.min(window, total) }, lane));
  return total / (since(start) / 1000);
}

/** A large response: returns the times and the size of the response line. */
export async function largeRead(server: ServerProcess, uri: string, count: number): Promise<{ times: number[]; bytes: number }> {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const id = server.nextId();
    const line = server.encode(id, 'resources/read', { uri });
    const start = performance.now();
    const reply = await server.requestLine(id, line);
    times.push(reply.at - start);
    bytes = Buffer.byteLength(reply.line) + 1;
  }
  return { times, bytes };
}

/**
 * A large request written in small chunks, each handed to the OS before the next, so the
 * server's framer really sees many small reads. Returns first write to response, and the
 * response (the caller checks it is `{}`).
 */
export async function chunkedRequest(
  server: ServerProcess,
  bytes: number,
  chunkBytes: number,
): Promise<{ ms: number; line: string }> {
  const id = server.nextId();
  const text = Buffer.from(hugePing(id, bytes));
  const start = performance.now();
  const reply = server.expect(id);
  for (let at = 0; at < text.length; at += chunkBytes) await server.write(text.subarray(at, at + chunkBytes));
  const { at, line } = await reply;
  return { ms: at - start, line };
}
