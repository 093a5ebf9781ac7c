// The HTTP rows (issue 13): each candidate started as an HTTP server on a free port, then
// sequential tools/call get_issue latency and get_issue throughput with 64 requests in
// flight, in each era. Before timing, the candidate must answer get_issue (found and not
// found) as ours answered it over stdio.

import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { HTTP_CANDIDATES, type Launcher } from './candidates.js';
import type { RoundOf } from './figures.js';
import { type HttpSession, openHttpSession, untilListening } from './http-client.js';
import { canonical, normalize } from './normalize.js';
import type { Options } from './options.js';
import { percentile, since } from './stats.js';
import { type Call, type Era, LATENCY_OPS } from './workload.js';

export interface HttpSample {
  p50: number;
  p99: number;
  perSec: number;
}

const WINDOW = 64;
const getIssue = LATENCY_OPS.get_issue as (i: number) => Call;

/** `checks`: calls and ours' normalized answers (from the stdio correctness pass) every candidate must give. */
export async function runHttpRound(
  launcher: Launcher,
  checks: { calls: readonly Call[]; answers: readonly string[] },
  options: Options,
  era: Era,
  log: (line: string) => void,
): Promise<RoundOf<HttpSample>> {
  const round: RoundOf<HttpSample> = {};
  for (const name of HTTP_CANDIDATES) {
    log(`  HTTP ${era} ${name}: latency, throughput`);
    const port = await freePort();
    const [program, ...args] = launcher.httpCommand(name, port, era);
    const child = spawn(program ?? process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => void (stderr = (stderr + chunk.toString()).slice(-2000)));
    try {
      await untilListening(port, 15_000);
      const session = await openHttpSession(port, era, WINDOW);
      try {
        for (const [i, call] of checks.calls.entries()) {
          const answer = canonical(normalize(call.method, JSON.parse((await session.call(call.method, call.params)).text)));
          if (answer !== checks.answers[i])
            throw new Error(
              `refusing to report ${name} over HTTP: ${JSON.stringify(call.params)} answered ${answer.slice(0, 300)}`,
            );
        }
        await throughput(session, Math.min(options.warmup, options.mixedThroughput));
        const times = await sequential(session, options.latencyCount);
        round[name] = {
          p50: percentile(times, 50),
          p99: percentile(times, 99),
          perSec: await throughput(session, options.mixedThroughput),
        };
      } finally {
        session.close();
      }
    } catch (error) {
      throw new Error(`${name} over HTTP (${era}): ${(error as Error).message}\nstderr: ${stderr}`);
    } finally {
      await stop(child);
    }
  }
  return round;
}

async function sequential(session: HttpSession, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const call = getIssue(i);
    const start = performance.now();
    const reply = await session.call(call.method, call.params);
    times.push(reply.at - start);
  }
  return times;
}

async function throughput(session: HttpSession, total: number): Promise<number> {
  let sent = 0;
  const start = performance.now();
  const lane = async (): Promise<void> => {
    while (sent < total) {
      const call = getIssue(sent++);
      await session.call(call.method, call.params);
    }
  };
  await Promise.all(Array.from({ length: Math.min(WINDOW, total) }, lane));
  return total / (since(start) / 1000);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function stop(child: ReturnType<typeof spawn>): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}
