// Server CPU and allocations per HTTP request, figures a loaded machine changes much less than
// latency: each server is started over HTTP on the bench's 1,000 issues, warmed up, then driven
// through `get_issue` one at a time and 64 at once (the HTTP rows' workload, http-rounds.ts); the
// server's user + system CPU (/proc/PID/stat, all its threads) is read before and after each, and
// what V8 allocated meanwhile is summed from `--trace-gc-nvp` (as allocations.ts does on stdio).
// Servers run in turn, round after round, so before/after builds see the same machine.
//
//   npx tsx spec-tests/bench/http-cpu.ts [--rounds 6] [--requests 10000] [--stateless] [NAME='[NODE-FLAGS] BUNDLE' ...]
//
// Without NAME=BUNDLE: ours (dist/mcp-tracker.mjs) and the HTTP floor. A second build of ours
// (a copy of dist/ made before a change, companions beside it) is compared as
// `before=/tmp/x/mcp-tracker.mjs`; node's own flags go before the file (`big='--max-semi-space-size=16 dist/mcp-tracker.mjs'`).
// Linux only (/proc).

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { BENCH_DIST, bundle } from './build-servers.js';
import { captureCanned } from './correctness.js';
import { copyForRun, ensureIssuesFile } from './data.js';
import { type HttpSession, openHttpSession, untilListening } from './http-client.js';
import { freePort } from './http-rounds.js';
import { percentile } from './stats.js';
import { type Call, type Era, LATENCY_OPS } from './workload.js';

const WINDOW = 64;
const getIssue = LATENCY_OPS.get_issue as (i: number) => Call;
/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on every Linux Node runs on). */
const TICKS_PER_SECOND = 100;

/** Per request, each a list over the rounds: server CPU µs and KiB allocated, one at a time and WINDOW at once. */
interface Figures {
  cpu: { sequential: number[]; parallel: number[] };
  allocated: { sequential: number[]; parallel: number[] };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string, fallback: number) => {
    const at = args.indexOf(name);
    return at === -1 ? fallback : Number(args[at + 1]);
  };
  const rounds = option('--rounds', 6);
  const requests = option('--requests', 10_000);
  const era: Era = args.includes('--stateless') ? 'stateless' : 'handshake';
  const root = process.cwd();
  const issues = await ensureIssuesFile(() => {});
  const scratch = mkdtempSync(join(tmpdir(), 'mcp-http-cpu-'));
  let copies = 0;
  const data = () => copyForRun(issues, scratch, `run-${++copies}.jsonl`);
  const floor = await bundle(root, 'spec-tests/bench/http-floor-server.ts', `${BENCH_DIST}/http-floor.mjs`);
  const canned = join(scratch, 'canned');
  await captureCanned([process.execPath, resolve(root, 'dist/mcp-tracker.mjs'), '--data', data()], [getIssue(0)], canned, era);

  const named = args.filter((arg) => arg.includes('='));
  const servers = new Map<string, (port: number) => string[]>(
    (named.length > 0 ? named : [`ours=${resolve(root, 'dist/mcp-tracker.mjs')}`]).map((arg) => {
      const [name, given] = [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1).split(' ')];
      const file = resolve(given.pop()!);
      return [name, (port: number) => [...given, file, '--data', data(), '--http', `127.0.0.1:${port}`]];
    }),
  );
  servers.set('floor', (port) => [floor, '--canned', canned, '--port', String(port)]);

  const figures = new Map<string, Figures>();
  process.stderr.write(`${era} era, ${rounds} rounds of ${requests} requests each way; load ${loads()}\n`);
  for (let round = 1; round <= rounds; round++) {
    for (const [name, command] of servers) {
      const [sequential, parallel] = await measure(command, requests, era);
      const mine = figures.get(name) ?? { cpu: { sequential: [], parallel: [] }, allocated: { sequential: [], parallel: [] } };
      figures.set(name, mine);
      mine.cpu.sequential.push(sequential.cpu);
      mine.cpu.parallel.push(parallel.cpu);
      mine.allocated.sequential.push(sequential.allocated);
      mine.allocated.parallel.push(parallel.allocated);
      const shown = (phase: Phase) => `${phase.cpu.toFixed(0)} µs, ${phase.allocated.toFixed(1)} KiB`;
      process.stderr.write(`round ${round} ${name}: ${shown(sequential)} / ${shown(parallel)} (load ${loads()})\n`);
    }
  }
  process.stdout.write(`get_issue over HTTP, ${era} era, per request: median (quartiles) of ${rounds} rounds\n`);
  process.stdout.write(`${''.padEnd(8)}  ${'server CPU µs: one at a time'.padEnd(30)}${`${WINDOW} at once`.padEnd(18)}`);
  process.stdout.write(`${'KiB allocated: one at a time'.padEnd(30)}${WINDOW} at once\n`);
  for (const [name, { cpu, allocated }] of figures) {
    process.stdout.write(
      `${name.padEnd(8)}  ${spread(cpu.sequential, 0).padEnd(30)}${spread(cpu.parallel, 0).padEnd(18)}` +
        `${spread(allocated.sequential, 1).padEnd(30)}${spread(allocated.parallel, 1)}\n`,
    );
  }
  process.stdout.write(`load ${loads()}\n`);
}

interface Phase {
  /** Server CPU (user + system, all threads) per request, µs. */
  cpu: number;
  /** What V8 allocated per request, KiB, summed from --trace-gc-nvp (counted at each collection). */
  allocated: number;
}

/** One fresh server, warmed up, then measured one request at a time and WINDOW at once. */
async function measure(command: (port: number) => string[], requests: number, era: Era): Promise<[Phase, Phase]> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--trace-gc-nvp', ...command(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let allocated = 0;
  createInterface({ input: child.stdout! }).on('line', (line) => {
    allocated += Number(/ allocated=(\d+)/.exec(line)?.[1] ?? 0);
  });
  const phase = async (run: () => Promise<void>): Promise<Phase> => {
    const [cpuBefore, allocatedBefore] = [cpuMicros(child.pid!), allocated];
    await run();
    const cpu = cpuMicros(child.pid!) - cpuBefore;
    // The collections' lines reach us through a pipe, a little after they happen.
    await new Promise((done) => setTimeout(done, 100));
    return { cpu: cpu / requests, allocated: (allocated - allocatedBefore) / 1024 / requests };
  };
  try {
    await untilListening(port, 15_000);
    const session = await openHttpSession(port, era, WINDOW);
    try {
      await inParallel(session, 2_000);
      return [await phase(() => oneAtATime(session, requests)), await phase(() => inParallel(session, requests))];
    } finally {
      session.close();
    }
  } finally {
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await exited;
  }
}

async function oneAtATime(session: HttpSession, total: number): Promise<void> {
  for (let i = 0; i < total; i++) {
    const call = getIssue(i);
    await session.call(call.method, call.params);
  }
}

async function inParallel(session: HttpSession, total: number): Promise<void> {
  let sent = 0;
  const lane = async (): Promise<void> => {
    while (sent < total) {
      const call = getIssue(sent++);
      await session.call(call.method, call.params);
    }
  };
  await Promise.all(Array.from({ length: WINDOW }, lane));
}

/** utime + stime of a process, all its threads, in µs (fields 14 and 15 of /proc/PID/stat). */
function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / TICKS_PER_SECOND;
}

const spread = (values: number[], digits: number): string =>
  `${percentile(values, 50).toFixed(digits)} (${percentile(values, 25).toFixed(digits)}-${percentile(values, 75).toFixed(digits)})`;

const loads = (): string =>
  loadavg()
    .map((load) => load.toFixed(1))
    .join(' ');

await main();
