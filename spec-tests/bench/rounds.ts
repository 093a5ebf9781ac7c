// The measured part: rounds of A B C (ours, SDK, floor), each round giving every candidate
// the same work in the same conditions, then one interleaved pass for peak memory.
// Before timing, each session answers a few requests that must match the reference
// answers: a server that answers differently is never timed.

import type { ServerProcess } from './client.js';
import { CANDIDATES, type CandidateName, type Launcher } from './candidates.js';
import { chunkedRequest, coldStart, largeRead, pipelined, sequential } from './measure.js';
import { canonical, normalize } from './normalize.js';
import type { Options } from './options.js';
import { ask, openSession } from './session.js';
import { median, percentile } from './stats.js';
import { type Call, LATENCY_OPS, mixed, read } from './workload.js';

export interface Sample {
  coldInitializeMs: number;
  coldToolsListMs: number;
  latency: Record<string, { p50: number; p99: number }>;
  pingPerSec: number;
  mixedPerSec: number;
  largeReadMs: number;
  largeReadBytes: number;
  chunkedRequestMs: number;
}

export type Round = Record<CandidateName, Sample>;

export interface References {
  /** Calls every session must answer as ours did in the correctness pass. */
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
  log: (line: string) => void,
): Promise<Round> {
  const cold: Record<CandidateName, { init: number[]; tools: number[] }> = {
    ours: { init: [], tools: [] },
    sdk: { init: [], tools: [] },
    floor: { init: [], tools: [] },
  };
  for (let k = 0; k < options.coldStarts; k++) {
    for (const name of CANDIDATES) {
      const { initializeMs, toolsListMs } = await coldStart(launcher.command(name, 'issues'));
      cold[name].init.push(initializeMs);
      cold[name].tools.push(toolsListMs);
    }
  }
  const round = {} as Round;
  for (const name of CANDIDATES) {
    log(`  ${name}: latency, throughput, 8 MiB request`);
    const steady = await steadyState(launcher.command(name, 'issues'), name, refs, options);
    log(`  ${name}: 5 MiB read`);
    const large = await largeReads(launcher.command(name, 'big'), name, refs, options);
    round[name] = { coldInitializeMs: median(cold[name].init), coldToolsListMs: median(cold[name].tools), ...steady, ...large };
  }
  return round;
}

async function steadyState(command: string[], name: CandidateName, refs: References, options: Options) {
  const server = await openSession(command);
  try {
    await verify(server, name, refs.calls, refs.answers);
    await pipelined(server, mixed, options.warmup);
    const latency: Sample['latency'] = {};
    for (const [op, make] of Object.entries(LATENCY_OPS)) {
      const times = await sequential(server, make, options.latencyCount);
      latency[op] = { p50: percentile(times, 50), p99: percentile(times, 99) };
    }
    const pingPerSec = await pipelined(server, () => ({ method: 'ping' }), options.pingThroughput);
    const mixedPerSec = await pipelined(server, mixed, options.mixedThroughput);
    // Three of them, the median: one sample swung by a factor of two with the garbage collector.
    const chunkedMs: number[] = [];
    for (let k = 0; k < CHUNKED_REPEATS; k++) {
      const chunked = await chunkedRequest(server, CHUNKED_BYTES, CHUNK_BYTES);
      if (canonical(normalize('ping', JSON.parse(chunked.line))) !== '{}') throw refusal(name, 'the 8 MiB ping', chunked.line);
      chunkedMs.push(chunked.ms);
    }
    return { latency, pingPerSec, mixedPerSec, chunkedRequestMs: median(chunkedMs) };
  } finally {
    await server.close();
  }
}

async function largeReads(command: string[], name: CandidateName, refs: References, options: Options) {
  const server = await openSession(command);
  try {
    await verify(server, name, [read(refs.largeUri)], [refs.largeAnswer]);
    const { times, bytes } = await largeRead(server, refs.largeUri, options.largeReads);
    return { largeReadMs: median(times), largeReadBytes: bytes };
  } finally {
    await server.close();
  }
}

/** Peak RSS (VmHWM) of a fresh server after `count` mixed requests, window 64. */
export async function peakMemory(launcher: Launcher, count: number): Promise<Record<CandidateName, number | null>> {
  const peaks = {} as Record<CandidateName, number | null>;
  for (const name of CANDIDATES) {
    const server = await openSession(launcher.command(name, 'issues'));
    try {
      await pipelined(server, mixed, count);
      peaks[name] = server.peakRss();
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
