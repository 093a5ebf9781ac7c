// One server process, handshaken: what every measurement starts from.

import { type ServerProcess, startServer } from './client.js';
import { INITIALIZE, type Call, type Era } from './workload.js';

/** A server ready for requests: handshaken in the handshake era; in 2026-07-28 there is nothing to open. */
export async function openSession(command: readonly string[], era: Era = 'handshake'): Promise<ServerProcess> {
  const server = startServer(command, era);
  if (era === 'stateless') return server;
  const reply = await server.request(INITIALIZE.method, INITIALIZE.params);
  if (!reply.line.includes('"protocolVersion"')) throw new Error(`initialize failed: ${reply.line.slice(0, 300)}`);
  server.notify('notifications/initialized');
  return server;
}

/** Sends a call and parses its response (for checks, not for timed loops). */
export async function ask(server: ServerProcess, call: Call): Promise<Record<string, any>> {
  const reply = await server.request(call.method, call.params);
  return JSON.parse(reply.line) as Record<string, any>;
}

/** resources/list, every page: servers may paginate differently, the set must be the same. */
export async function listAllResources(server: ServerProcess): Promise<Record<string, any>> {
  const resources: unknown[] = [];
  let cursor: string | undefined;
  do {
    const page = await ask(server, { method: 'resources/list', params: cursor === undefined ? {} : { cursor } });
    if (page.error) return page;
    resources.push(...(page.result.resources as unknown[]));
    cursor = page.result.nextCursor as string | undefined;
  } while (cursor !== undefined);
  return { result: { resources } };
}
