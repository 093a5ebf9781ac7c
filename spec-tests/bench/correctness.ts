// Correctness first: before anything is timed, every real server answers the fixed set of
// checks in each era it speaks and must agree with ours on every normalized answer. The
// floor's canned answers are then captured from ours (now known to agree with the SDKs).

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ServerProcess, startServer } from './client.js';
import { canonical, normalize } from './normalize.js';
import { ask, listAllResources, openSession } from './session.js';
import { cannedFileName, signatureOf } from './signature.js';
import { DISCOVER, type Era, INITIALIZE, type Call } from './workload.js';

export interface Disagreement {
  call: string;
  ours: string;
  other: string;
}

/** Every check's normalized answer, from one fresh server. */
export async function answers(command: readonly string[], calls: readonly Call[], era: Era): Promise<string[]> {
  const server = await openSession(command, era);
  try {
    const out: string[] = [];
    for (const call of calls) out.push(canonical(normalize(call.method, await answerOf(server, call))));
    return out;
  } finally {
    await server.close();
  }
}

export function disagreements(calls: readonly Call[], ours: readonly string[], other: readonly string[]): Disagreement[] {
  return calls.flatMap((call, i) =>
    ours[i] === other[i]
      ? []
      : [{ call: `${call.method} ${JSON.stringify(call.params ?? {})}`, ours: clip(ours[i]), other: clip(other[i]) }],
  );
}

/** Writes ours' raw result for each call under the floor's signature for it. */
export async function captureCanned(
  command: readonly string[],
  calls: readonly Call[],
  directory: string,
  era: Era,
): Promise<void> {
  mkdirSync(directory, { recursive: true });
  const server = startServer(command, era);
  try {
    const save = (call: Call, response: Record<string, any>): void => {
      if (response.error) throw new Error(`cannot capture ${call.method}: ${JSON.stringify(response.error)}`);
      writeFileSync(join(directory, cannedFileName(signatureOf(call.method, call.params))), JSON.stringify(response.result));
    };
    const opening = era === 'handshake' ? INITIALIZE : DISCOVER;
    save(opening, await ask(server, opening));
    if (era === 'handshake') server.notify('notifications/initialized');
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
