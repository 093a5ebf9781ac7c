// One figure of `npm run bench`, alone: mixed throughput with 64 in flight over stdio, the
// candidates interleaved round after round, each on a fresh server brought to where the bench
// measures it (the warm-up, the sequential latency runs, in the handshake era the ping
// throughput, then the measured mixed requests). Beside each rate, the server's CPU time per
// request (utime + stime from /proc, all its threads) and the driver's, figures the machine's
// load moves far less than the rate: on 2 cores the driver and the server share the CPU, and
// for the floor the driver is a good part of the cost. Not part of `npm run bench`: a tool for
// deciding a change to this figure (docs/performance.md).
//
//   npx tsx spec-tests/bench/mixed-rounds.ts [--rounds N] [--eras handshake,stateless]
//     [--candidates ours,floor,sdk2] [--bundle FILE] [--before FILE] [--full]
//
// --bundle: ours from another file than the one build.mjs makes; --before FILE: one more
// candidate, "before", ours from FILE (a build of the code before a change: its companions
// beside it), in every round after ours.
//
// --full: the full bench's request counts (warm-up 500, 1,000 per latency run, 10,000 mixed);
// without it, --quick's (200, 200, 3,000).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_DIST, buildBundles } from './build-servers.js';
import { type CandidateName, createLauncher } from './candidates.js';
import { captureCanned } from './correctness.js';
import { ensureDataFiles } from './data.js';
import { pipelined, sequential } from './measure.js';
import { option, parseOptions } from './options.js';
import { systemCalls, threadTimesMs } from './process-times.js';
import { openSession } from './session.js';
import { median } from './stats.js';
import { ERAS, type Era, LATENCY_OPS, issueKey, mixedIn, read } from './workload.js';

interface Sample {
  perSec: number;
  /** The server's CPU per request: its main thread, and V8's helper threads (the optimizing compiler, the collector's helpers). */
  mainCpuUs: number;
  otherCpuUs: number;
  driverCpuUs: number;
  /** The server's write system calls per 1,000 requests (write and writev alike). */
  writesPer1000: number;
}

const log = (line: string): void => void process.stderr.write(`[mixed] ${line}\n`);

async function main(): Promise<void> {
  const rounds = Number(option('--rounds', '5'));
  const eras = option('--eras', ERAS.join(',')).split(',') as Era[];
  const before = option('--before', '');
  const names: string[] = option('--candidates', 'ours,floor').split(',');
  if (before !== '') names.splice(names.indexOf('ours') + 1, 0, 'before');
  const sizes = parseOptions(process.argv.includes('--full') ? [] : ['--quick']);
  const root = process.cwd();
  const bundles = await buildBundles(root);
  const bundle = option('--bundle', bundles.ours);
  const files = await ensureDataFiles(log);
  const cannedDir = (era: Era, data: string) => join(root, BENCH_DIST, `canned-${era}-${data}`);
  const canned = Object.fromEntries(ERAS.map((era) => [era, { issues: cannedDir(era, 'issues'), big: cannedDir(era, 'big') }]));
  const launcher = createLauncher({ ...bundles, ours: bundle }, files, canned as never, false);
  const beforeLauncher = createLauncher({ ...bundles, ours: before }, files, canned as never, false);
  const command = (name: string, era: Era): string[] =>
    name === 'before' ? beforeLauncher.command('ours', 'issues', era) : launcher.command(name as CandidateName, 'issues', era);
  for (const era of eras) {
    // The floor's answers to every kind of request in the mixed set, as npm run bench captures them.
    const verify = [...Object.values(LATENCY_OPS).map((make) => make(0)), read(`jira://issue/${issueKey(1)}`)].filter(
      (call) => era === 'handshake' || call.method !== 'ping',
    );
    await captureCanned(launcher.command('ours', 'issues', era), verify, canned[era]!.issues, era);
  }

  const samples = new Map<string, Sample[]>();
  for (let r = 1; r <= rounds; r++) {
    for (const era of eras)
      for (const name of names) {
        const sample = await measure(command(name, era), era, sizes);
        const key = `${era} ${name}`;
        samples.set(key, [...(samples.get(key) ?? []), sample]);
        log(
          `round ${r} ${key}: ${Math.round(sample.perSec)} req/s, server ${sample.mainCpuUs.toFixed(1)} + ${sample.otherCpuUs.toFixed(1)} µs/req, driver ${sample.driverCpuUs.toFixed(1)}, ${Math.round(sample.writesPer1000)} writes per 1,000`,
        );
      }
  }
  console.log(`mixed throughput, window 64, ${sizes.mixedThroughput} requests, ${rounds} rounds; load ${loadAverage()}`);
  console.log(
    'era        candidate  req/s (median, lowest-highest)   server CPU µs/req: main + helpers   driver CPU µs/req   writes per 1,000',
  );
  for (const [key, list] of samples) {
    const [era, name] = key.split(' ');
    const rates = list.map((s) => s.perSec);
    console.log(
      `${era!.padEnd(10)} ${name!.padEnd(9)}  ${fmt(median(rates)).padStart(7)} (${fmt(Math.min(...rates))}-${fmt(Math.max(...rates))})`.padEnd(
        52,
      ) +
        `${median(list.map((s) => s.mainCpuUs))
          .toFixed(1)
          .padStart(8)} + ${median(list.map((s) => s.otherCpuUs))
          .toFixed(1)
          .padEnd(24)}` +
        `${median(list.map((s) => s.driverCpuUs))
          .toFixed(1)
          .padEnd(20)}` +
        `${Math.round(median(list.map((s) => s.writesPer1000)))}`,
    );
  }
  for (const era of eras) {
    const rate = (name: string) => median((samples.get(`${era} ${name}`) ?? []).map((s) => s.perSec));
    for (const name of names.filter((n) => (n === 'ours' || n === 'before') && names.includes('floor'))) {
      const perRound = (samples.get(`${era} ${name}`) ?? []).map(
        (s, i) => s.perSec / (samples.get(`${era} floor`)?.[i]?.perSec ?? NaN),
      );
      console.log(
        `${era}: ${name}/floor ${(rate(name) / rate('floor')).toFixed(2)}x (rounds ${Math.min(...perRound).toFixed(2)}-${Math.max(...perRound).toFixed(2)}; >= 0.5x in ${perRound.filter((x) => x >= 0.5).length} of ${perRound.length})`,
      );
    }
  }
}

/** A fresh server taken through the bench's steady-state session up to its mixed figure. */
async function measure(command: string[], era: Era, sizes: ReturnType<typeof parseOptions>): Promise<Sample> {
  const server = await openSession(command, era);
  const mixed = mixedIn(era);
  try {
    await pipelined(server, mixed, sizes.warmup);
    for (const [op, make] of Object.entries(LATENCY_OPS)) {
      if (op === 'ping' && era === 'stateless') continue;
      await sequential(server, make, sizes.latencyCount);
    }
    if (era === 'handshake') await pipelined(server, () => ({ method: 'ping' }), sizes.pingThroughput);
    const pid = server.child.pid!;
    const serverBefore = threadTimesMs(pid);
    const callsBefore = systemCalls(pid);
    const driverBefore = process.cpuUsage();
    const perSec = await pipelined(server, mixed, sizes.mixedThroughput);
    const driver = process.cpuUsage(driverBefore);
    const serverAfter = threadTimesMs(pid);
    const writes = systemCalls(pid).writes - callsBefore.writes;
    const perRequestUs = (ms: number) => (ms * 1000) / sizes.mixedThroughput;
    const mainMs = serverAfter.main - serverBefore.main;
    return {
      perSec,
      mainCpuUs: perRequestUs(mainMs),
      otherCpuUs: perRequestUs(serverAfter.all - serverBefore.all - mainMs),
      driverCpuUs: (driver.user + driver.system) / sizes.mixedThroughput,
      writesPer1000: (writes * 1000) / sizes.mixedThroughput,
    };
  } finally {
    await server.close();
  }
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
const loadAverage = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

await main();
