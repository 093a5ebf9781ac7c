// What a workload allocates per request, what its collections cost, and the server's CPU time
// per request: starts a server bundle under `node --trace-gc-nvp` (V8 prints one line per
// collection, with the bytes allocated since the one before), warms it up, then sends N
// requests (the mixed set unless a workload is named), 64 in flight, and sums the lines printed
// while they were answered; the CPU time is the server process's utime + stime from /proc over
// the same requests, a figure the machine's load moves far less than wall time, and its share
// on the main thread and on V8's helper threads (the optimizing compiler, the collector's
// helpers): a server still being optimized spends a core on them. Not part of `npm run bench`:
// a tool for deciding a change on the request path (docs/performance.md).
//
//   npx tsx spec-tests/bench/allocations.ts [--stateless] [--workload mixed|get_issue|search_uncached|...]
//     [--requests N] [--window N] [--warmup N] [--bundle FILE] [-- NODE_FLAG...]
//
// --warmup (default 40,000): requests before the measured ones. The bench measures a fresh
// server after a few thousand, before V8 has optimized the code they run: --warmup 2500
// --window 1 --workload get_issue comes close to where the bench measures get_issue.
//
// V8 prints to stdout, between the answers (sometimes inside a line of its own): the driver tells them apart.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyForRun, ensureDataFiles } from './data.js';
import { cpuTimeMs, systemCalls, threadTimesMs } from './process-times.js';
import { type Call, type Era, INITIALIZE, LATENCY_OPS, mixedIn, paramsIn } from './workload.js';
import { option } from './options.js';

interface Measured {
  collections: Collection[];
  ms: number;
  cpuMs: number;
  mainThreadMs: number;
  otherThreadsMs: number;
  reads: number;
  writes: number;
  peakRssMiB: number;
}

interface Collection {
  kind: string;
  pauseMs: number;
  allocated: number;
}

async function main(): Promise<void> {
  const era: Era = process.argv.includes('--stateless') ? 'stateless' : 'handshake';
  const workload = option('--workload', 'mixed');
  const calls = workload === 'mixed' ? mixedIn(era) : LATENCY_OPS[workload];
  if (!calls) throw new Error(`unknown workload ${workload}; mixed or one of ${Object.keys(LATENCY_OPS).join(', ')}`);
  const requests = Number(option('--requests', '20000'));
  const window = Number(option('--window', '64'));
  const warmup = Number(option('--warmup', '40000'));
  const bundle = option('--bundle', 'dist/mcp-tracker.mjs');
  const dashes = process.argv.indexOf('--');
  const nodeFlags = dashes >= 0 ? process.argv.slice(dashes + 1) : [];
  const files = await ensureDataFiles((line) => process.stderr.write(`${line}\n`));
  const scratch = mkdtempSync(join(tmpdir(), 'mcp-allocations-'));
  try {
    const data = copyForRun(files.issues, scratch, 'run.jsonl');
    const args = [...nodeFlags, '--trace-gc-nvp', bundle, '--data', data];
    // The code cache written first (lib/code-cache.ts), so the server's flags apply from its start.
    await new Promise((resolve) =>
      spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'ignore'] }).once('exit', resolve),
    );
    const result = await measure(args, era, calls, requests, window, warmup);
    const perRequest = (value: number) => value / requests;
    const scavenges = result.collections.filter((c) => c.kind === 's');
    const pause = result.collections.reduce((sum, c) => sum + c.pauseMs, 0);
    console.log(
      `${bundle} ${nodeFlags.join(' ')} (${era}, ${requests} ${workload} requests, ${window} in flight, after ${warmup})`,
    );
    console.log(
      `  allocated per request   ${(perRequest(result.collections.reduce((s, c) => s + c.allocated, 0)) / 1024).toFixed(2)} KiB`,
    );
    console.log(`  scavenges per 1,000     ${((scavenges.length * 1000) / requests).toFixed(1)}`);
    console.log(`  other collections       ${result.collections.length - scavenges.length}`);
    console.log(`  GC pause per request    ${(perRequest(pause) * 1000).toFixed(1)} µs (${pause.toFixed(0)} ms in all)`);
    console.log(`  server CPU per request  ${(perRequest(result.cpuMs) * 1000).toFixed(1)} µs (utime + stime)`);
    console.log(
      `    main thread           ${(perRequest(result.mainThreadMs) * 1000).toFixed(1)} µs, other threads ${(perRequest(result.otherThreadsMs) * 1000).toFixed(1)} µs`,
    );
    console.log(
      `  system calls per 1,000  ${((result.reads * 1000) / requests).toFixed(0)} reads, ${((result.writes * 1000) / requests).toFixed(0)} writes`,
    );
    console.log(`  throughput              ${Math.round(requests / (result.ms / 1000))} req/s`);
    console.log(`  peak RSS (Linux)        ${result.peakRssMiB.toFixed(1)} MiB`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function measure(
  args: string[],
  era: Era,
  calls: (i: number) => Call,
  requests: number,
  window: number,
  warmup: number,
): Promise<Measured> {
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const collections: Collection[] = [];
  let counting = false;
  let answered = 0;
  let wake: () => void = () => {};
  let rest = '';
  let traceLine = ''; // the start of a V8 line an answer interrupted
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text: string) => {
    const lines = (rest + text).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      // V8 buffers its lines and may flush part of one just before an answer: the answer then
      // ends a line that starts with that part, and the rest of V8's line comes later.
      const at = line.indexOf('{"jsonrpc"');
      if (at >= 0) {
        traceLine += line.slice(0, at);
        const answeredId = Number(/^\{"jsonrpc":"2.0","id":(\d+)/.exec(line.slice(at, at + 40))?.[1]);
        if (waiting.delete(answeredId)) {
          answered++;
          wake();
        }
        continue;
      }
      const trace = traceLine + line;
      traceLine = '';
      if (counting && trace.includes(' gc=')) collections.push(parseCollection(trace));
    }
  });
  let id = 0;
  const waiting = new Set<number>(); // ids sent and not answered yet
  const send = (call: Call, notify = false): void => {
    const params = paramsIn(era, call.params);
    if (!notify) waiting.add(++id);
    const message = { jsonrpc: '2.0', ...(notify ? {} : { id }), method: call.method, ...(params ? { params } : {}) };
    child.stdin.write(`${JSON.stringify(message)}\n`);
  };
  /** The next answer; a server silent for 20 s is an error that names what it left unanswered. */
  const nextAnswer = () =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        const ids = [...waiting].slice(0, 5).join(', ');
        reject(new Error(`no answer for 20 s: ${waiting.size} of ${id} requests unanswered (ids ${ids})`));
      }, 20_000);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  /** Sends `count` calls with `window` in flight and waits for every answer. */
  const run = async (count: number): Promise<void> => {
    const target = answered + count;
    let sent = 0;
    while (answered < target) {
      while (sent < count && sent - (answered - (target - count)) < window) send(calls(sent++));
      await nextAnswer();
    }
  };
  try {
    if (era === 'handshake') {
      send(INITIALIZE);
      await nextAnswer();
      send({ method: 'notifications/initialized' }, true);
    }
    await run(warmup);
  } catch (error) {
    child.kill();
    throw error;
  }
  counting = true;
  const cpuBefore = cpuTimeMs(child.pid!);
  const threadsBefore = threadTimesMs(child.pid!);
  const callsBefore = systemCalls(child.pid!);
  const start = performance.now();
  await run(requests).catch((error: unknown) => {
    child.kill();
    throw error;
  });
  const ms = performance.now() - start;
  const cpuMs = cpuTimeMs(child.pid!) - cpuBefore;
  const threadsAfter = threadTimesMs(child.pid!);
  const mainThreadMs = threadsAfter.main - threadsBefore.main;
  const otherThreadsMs = threadsAfter.all - threadsBefore.all - mainThreadMs;
  const callsAfter = systemCalls(child.pid!);
  const reads = callsAfter.reads - callsBefore.reads;
  const writes = callsAfter.writes - callsBefore.writes;
  counting = false;
  const peakRssMiB = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
  child.stdin.end();
  await new Promise((resolve) => child.once('exit', resolve));
  return { collections, ms, cpuMs, mainThreadMs, otherThreadsMs, reads, writes, peakRssMiB };
}

function parseCollection(line: string): Collection {
  const field = (name: string): string => new RegExp(`\\b${name}=(\\S+)`).exec(line)?.[1] ?? '0';
  return { kind: field('gc'), pauseMs: Number(field('pause')), allocated: Number(field('allocated')) };
}

await main();
