// Correctness first: before anything is timed, both real servers answer the fixed set of
// checks and must agree on every normalized answer. The floor's canned answers are then
// captured from ours (now known to agree with the SDK) and checked the same way.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ServerProcess, startServer } from './client.js';
import { canonical, normalize } from './normalize.js';
import { ask, listAllResources, openSession } from './session.js';
import { cannedFileName, signatureOf } from './signature.js';
import { INITIALIZE, type Call } from './workload.js';

export interface Disagreement {
  call: string;
  ours: string;
  sdk: string;
}

/** Every check's normalized answer, from one fresh server. */
export async function answers(command: readonly string[], calls: readonly Call[]): Promise<string[]> {
  const server = await openSession(command);
  try {
    const out: string[] = [];
    for (const call of calls) out.push(canonical(normalize(call.method, await answerOf(server, call))));
    return out;
  } finally {
    await server.close();
  }
}

export function disagreements(calls: readonly Call[], ours: readonly string[], sdk: readonly string[]): Disagreement[] {
  return calls.flatMap((call, i) =>
    ours[i] === sdk[i]
      ? []
      : [{ call: `${call.method} ${JSON.stringify(call.params ?? {})}`, ours: clip(ours[i]), sdk: clip(sdk[i]) }],
  );
}

/** Writes ours' raw result for each call under the floor's signature for it. */
export async function captureCanned(command: readonly string[], calls: readonly Call[], directory: string): Promise<void> {
  mkdirSync(directory, { recursive: true });
  const server = startServer(command);
  try {
    const save = (call: Call, response: Record<string, any>): void => {
      if (response.error) throw new Error(`cannot capture ${call.method}: ${JSON.stringify(response.error)}`);
      writeFileSync(join(directory, cannedFileName(signatureOf(call.method, call.params))), JSON.stringify(response.result));
    };
    save(INITIALIZE, await ask(server, INITIALIZE));
    server.notify('notifications/initialized');
    for (const call of calls) {
      save(call, await ask(server, call));
    }
  } finally {
    await server.close();
  }
}

function answerOf(server: ServerProcess, call: Call): Promise<Record<string, any>> {
  return call.method === 'resources/list' ? listAllResources(server) : ask(server, call);
}

const clip = (text: string | undefined): string =>
  text === undefined ? '(none)' : text.length > 400 ? `${text.slice(0, 400)}…` : text;
