// npx tsx spec-tests/fuzz/limits.ts [--requests N]
// What the bundled server does at its limits: 1e6-deep nesting inside params, and a flood of
// pipelined requests (peak RSS from /proc/<pid>/status VmHWM; Linux only). Prints a report.
import { readFileSync } from 'node:fs';
import { startServer, type WireServer } from './wire.js';

const INIT =
  '{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"limits","version":"1"}}}\n';

function peakRssMiB(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
}

async function ready(): Promise<WireServer> {
  const server = startServer(['--ephemeral']);
  await server.write(INIT);
  await server.until(() => server.received.has('"init"'), 10_000, 'initialize');
  return server;
}

async function nesting(depth: number): Promise<void> {
  const server = await ready();
  const deep = '['.repeat(depth) + ']'.repeat(depth);
  const began = Date.now();
  await server.write(
    `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_issue","arguments":{"key":${deep}}}}\n{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":${deep}}}\n${deep}\n{"jsonrpc":"2.0","id":3,"method":"ping"}\n`,
  );
  await server.until(() => server.received.has('3') && server.received.has('1') && server.received.has('2'), 30_000, 'answers');
  const ms = Date.now() - began;
  console.log(`nesting ${depth}: tools/call -> ${JSON.stringify(server.received.get('1')?.[0]).slice(0, 160)}`);
  console.log(
    `  ping with deep params -> ${JSON.stringify(server.received.get('2')?.[0])}; bare deep array -> ${server.counts.nullErrors} error(s) with id null; ${ms} ms; peak RSS ${peakRssMiB(server.child.pid).toFixed(0)} MiB; alive: ${server.exit === null}`,
  );
  await server.close();
}

async function flood(requests: number, method: string, params: string): Promise<void> {
  const server = await ready();
  const before = peakRssMiB(server.child.pid);
  const began = Date.now();
  const batch = 1000;
  for (let start = 1; start <= requests; start += batch) {
    let text = '';
    for (let id = start; id < start + batch && id <= requests; id++)
      text += `{"jsonrpc":"2.0","id":${id},"method":"${method}"${params}}\n`;
    await server.write(text); // never waits for answers: only the pipe's back-pressure slows us
  }
  await server.until(() => server.received.size >= requests + 1, 300_000, 'all answers');
  const seconds = (Date.now() - began) / 1000;
  console.log(
    `flood of ${requests} pipelined ${method}: all answered in ${seconds.toFixed(1)} s (${(requests / seconds).toFixed(0)}/s); peak RSS ${before.toFixed(0)} MiB before, ${peakRssMiB(server.child.pid).toFixed(0)} MiB after`,
  );
  await server.close();
}

async function main(): Promise<void> {
  const index = process.argv.indexOf('--requests');
  const requests = index === -1 ? 100_000 : Number(process.argv[index + 1]);
  for (const depth of (process.env.DEPTHS ?? '1000000').split(',').map(Number)) await nesting(depth);
  await flood(requests, 'ping', '');
  await flood(requests, 'tools/call', ',"params":{"name":"get_issue","arguments":{"key":"PROJ-101"}}');
}

void main();
