// The measured part: rounds of the candidates one after another (ours, SDK v1, SDK v2,
// floor), each round giving every candidate the same work in the same conditions, in each
// era; then one pass for peak memory. Before timing, each session answers a few requests
// that must match the reference answers: a server that answers differently is never timed.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerProcess } from './client.js';
import { CANDIDATES_IN, type CandidateName, type Launcher } from './candidates.js';
import type { RoundOf } from './figures.js';
import { chunkedRequest, coldStart, largeRead, pipelined, sequential } from './measure.js';
import { canonical, normalize } from './normalize.js';
import type { Options } from './options.js';
import { ask, openSession } from './session.js';
import { median, percentile } from './stats.js';
import { type Call, type Era, LATENCY_OPS, mixedIn, read } from './workload.js';

export interface Sample {
  /** A start without the code cache ours writes (lib/code-cache.ts): the first start after an install or an upgrade. */
  coldFirstInitializeMs: number;
  coldInitializeMs: number;
  coldToolsListMs: number;
  latency: Record<string, { p50: number; p99: number }>;
  pingPerSec: number;
  mixedPerSec: number;
  largeReadMs: number;
  largeReadBytes: number;
  chunkedRequestMs: number;
}

export type Round = RoundOf<Sample>;

export interface References {
  /** Calls every session must answer as ours did in the correctness pass, in this era. */
  calls: Call[];
  answers: string[];
  /** The ~5 MiB resource and ours' normalized answer. */
  largeUri: string;
  largeAnswer: string;
}

export const CHUNKED_BYTES = 8 * 1024 * 1024;
export const CHUNK_BYTES = 4096;
const CHUNKED_REPEATS = 3;

export async function runRound(
  launcher: Launcher,
  refs: References,
  options: Options,
  era: Era,
  log: (line: string) => void,
): Promise<Round> {
  const candidates = CANDIDATES_IN[era];
  const cold = new Map<CandidateName, { first: number[]; init: number[]; tools: number[] }>(
    candidates.map((c) => [c, { first: [], init: [], tools: [] }]),
  );
  for (let k = 0; k < options.coldStarts; k++) {
    for (const name of candidates) {
      // Every candidate gets the empty cache folder: only ours uses one, the others start as they always do.
      const cacheHome = mkdtempSync(join(tmpdir(), 'mcp-bench-cache-'));
      try {
        const first = await coldStart(launcher.command(name, 'issues', era), era, { XDG_CACHE_HOME: cacheHome });
        cold.get(name)?.first.push(first.initializeMs);
      } finally {
        rmSync(cacheHome, { recursive: true, force: true });
      }
      const { initializeMs, toolsListMs } = await coldStart(launcher.command(name, 'issues', era), era);
      cold.get(name)?.init.push(initializeMs);
      cold.get(name)?.tools.push(toolsListMs);
    }
  }
  const round: Round = {};
  for (const name of candidates) {
    log(`  ${era} ${name}: latency, throughput, 8 MiB request`);
    const steady = await steadyState(launcher.command(name, 'issues', era), name, refs, options, era);
    log(`  ${era} ${name}: 5 MiB read`);
    const large = await largeReads(launcher.command(name, 'big', era), name, refs, options, era);
    const times = cold.get(name) ?? { first: [], init: [], tools: [] };
    round[name] = {
      coldFirstInitializeMs: median(times.first),
      coldInitializeMs: median(times.init),
      coldToolsListMs: median(times.tools),
      ...steady,
      ...large,
    };
  }
  return round;
}

async function steadyState(command: string[], name: CandidateName, refs: References, options: Options, era: Era) {
  const server = await openSession(command, era);
  const mixed = mixedIn(era);
  try {
    await verify(server, name, refs.calls, refs.answers);
    await pipelined(server, mixed, options.warmup);
    const latency: Sample['latency'] = {};
    for (const [op, make] of Object.entries(LATENCY_OPS)) {
      if (op === 'ping' && era === 'stateless') continue; // 2026-07-28 has no ping
      const times = await sequential(server, make, options.latencyCount);
      latency[op] = { p50: percentile(times, 50), p99: percentile(times, 99) };
    }
    const pingPerSec = era === 'stateless' ? NaN : await pipelined(server, () => ({ method: 'ping' }), options.pingThroughput);
    const mixedPerSec = await pipelined(server, mixed, options.mixedThroughput);
    // The 8 MiB request is a padded ping, measured in the handshake era only: 2026-07-28 has
    // no ping, and the framer it measures does not depend on the era.
    // Three of them, the median: one sample swung by a factor of two with the garbage collector.
    const chunkedMs: number[] = [];
    for (let k = 0; k < (era === 'handshake' ? CHUNKED_REPEATS : 0); k++) {
      const chunked = await chunkedRequest(server, CHUNKED_BYTES, CHUNK_BYTES);
      if (canonical(normalize('ping', JSON.parse(chunked.line))) !== '{}') throw refusal(name, 'the 8 MiB ping', chunked.line);
      chunkedMs.push(chunked.ms);
    }
    return { latency, pingPerSec, mixedPerSec, chunkedRequestMs: median(chunkedMs) };
  } finally {
    await server.close();
  }
}

async function largeReads(command: string[], name: CandidateName, refs: References, options: Options, era: Era) {
  const server = await openSession(command, era);
  try {
    await verify(server, name, [read(refs.largeUri)], [refs.largeAnswer]);
    const { times, bytes } = await largeRead(server, refs.largeUri, options.largeReads);
    return { largeReadMs: median(times), largeReadBytes: bytes };
  } finally {
    await server.close();
  }
}

/** Peak RSS (VmHWM) of a fresh server after `count` mixed requests, window 64, in the handshake era. */
export async function peakMemory(launcher: Launcher, count: number): Promise<Partial<Record<CandidateName, number>>> {
  const peaks: Partial<Record<CandidateName, number>> = {};
  for (const name of CANDIDATES_IN.handshake) {
    const server = await openSession(launcher.command(name, 'issues', 'handshake'));
    try {
      await pipelined(server, mixedIn('handshake'), count);
      const peak = server.peakRss();
      if (peak !== null) peaks[name] = peak;
    } finally {
      await server.close();
    }
  }
  return peaks;
}

async function verify(
  server: ServerProcess,
  name: CandidateName,
  calls: readonly Call[],
  expected: readonly string[],
): Promise<void> {
  for (const [i, call] of calls.entries()) {
    const answer = canonical(normalize(call.method, await ask(server, call)));
    if (answer !== expected[i]) throw refusal(name, `${call.method} ${JSON.stringify(call.params ?? {})}`, answer);
  }
}

const refusal = (name: CandidateName, what: string, got: string): Error =>
  new Error(`refusing to report ${name}: its answer to ${what} differs from the reference: ${got.slice(0, 300)}`);
