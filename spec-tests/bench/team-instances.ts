// Team mode across processes: `mcp-tracker --http` instances sharing one store (a journal file
// on this machine, or a PostgreSQL database), driven over HTTP.
//
// - Throughput: N instances (1, 2, 4) on a fresh store; the same number of mutations
//   (create_issue, 2026-07-28 stateless requests) with the same requests in flight, dealt in
//   turn to the instances. Mutations per second, and its ratio to one instance.
// - Notification latency across instances: a client subscribed to an issue on instance B, a
//   comment on that issue sent to instance A; from the comment's send until B's
//   notifications/resources/updated reaches the client.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { type HttpSession, openHttpSession } from './http-client.js';
import { percentile, since } from './stats.js';
import { tool } from './workload.js';
import { startHttpTracker } from '../test-support/http-tracker.js';
import { admin } from './backends.js';

export type Backend = 'journal' | 'postgres';

export interface ThroughputRow {
  backend: Backend;
  instances: number;
  mutations: number;
  perSecond: number;
  /** perSecond over the same backend's one-instance figure. */
  ratio: number;
}

export interface CrossLatencyRow {
  backend: Backend;
  samples: number;
  p50Ms: number;
  maxMs: number;
}

export const INSTANCE_COUNTS = [1, 2, 4];
const MUTATIONS = 2_000;
const IN_FLIGHT = 16;
const LATENCY_ROUNDS = 30;

/** A fresh store for one measurement: the --data or --store arguments of its instances, and its removal. */
interface Store {
  readonly args: string[];
  remove(): Promise<void>;
}

export async function teamThroughput(postgresUrl: string, log: (line: string) => void): Promise<ThroughputRow[]> {
  const rows: ThroughputRow[] = [];
  for (const backend of ['journal', 'postgres'] as const) {
    let single = NaN;
    for (const count of INSTANCE_COUNTS) {
      log(`team mode: ${count} instance(s) on ${backend}, ${MUTATIONS} mutations`);
      const perSecond = await withInstances(await freshStore(backend, postgresUrl), count, throughput);
      if (count === 1) single = perSecond;
      rows.push({ backend, instances: count, mutations: MUTATIONS, perSecond, ratio: perSecond / single });
    }
  }
  return rows;
}

export async function crossInstanceLatency(postgresUrl: string, log: (line: string) => void): Promise<CrossLatencyRow[]> {
  const rows: CrossLatencyRow[] = [];
  for (const backend of ['journal', 'postgres'] as const) {
    log(`team mode: notification latency across two instances on ${backend}`);
    const samples = await withInstances(await freshStore(backend, postgresUrl), 2, latencies);
    rows.push({ backend, samples: samples.length, p50Ms: percentile(samples, 50), maxMs: percentile(samples, 100) });
  }
  return rows;
}

async function withInstances<T>(store: Store, count: number, work: (ports: number[]) => Promise<T>): Promise<T> {
  const children: ChildProcess[] = [];
  try {
    const ports: number[] = [];
    // One after the other: the first one seeds the store with the demo data.
    for (let i = 0; i < count; i++) {
      const started = await startInstance(store.args);
      children.push(started.child);
      ports.push(started.port);
    }
    return await work(ports);
  } finally {
    for (const child of children) child.kill('SIGKILL');
    await store.remove();
  }
}

async function throughput(ports: number[]): Promise<number> {
  const sessions = await Promise.all(
    Array.from({ length: IN_FLIGHT }, (_, i) => openHttpSession(ports[i % ports.length]!, 'stateless', 1)),
  );
  let next = 0;
  const started = performance.now();
  await Promise.all(
    sessions.map(async (session) => {
      for (let i = next++; i < MUTATIONS; i = next++) await mutate(session, 'create_issue', { project: 'PROJ', title: `t${i}` });
    }),
  );
  const seconds = since(started) / 1000;
  for (const session of sessions) session.close();
  return MUTATIONS / seconds;
}

async function latencies(ports: number[]): Promise<number[]> {
  const uri = 'jira://issue/PROJ-101';
  const subscriber = new Client({ name: 'bench-subscriber', version: '1' });
  await subscriber.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${ports[1]}/mcp`)));
  let heardAt = 0;
  subscriber.setNotificationHandler(ResourceUpdatedNotificationSchema, (note) => {
    if (note.params.uri === uri) heardAt = performance.now();
  });
  await subscriber.subscribeResource({ uri });
  const writer = await openHttpSession(ports[0]!, 'stateless', 1);
  const samples: number[] = [];
  try {
    for (let round = 0; round < LATENCY_ROUNDS; round++) {
      heardAt = 0;
      const sent = performance.now();
      await mutate(writer, 'add_comment', { key: 'PROJ-101', body: `latency ${round}` });
      const deadline = Date.now() + 10_000;
      while (heardAt === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 1));
      if (heardAt === 0) throw new Error('the subscriber on the other instance was not told within 10 s');
      samples.push(heardAt - sent);
    }
  } finally {
    writer.close();
    await subscriber.close().catch(() => undefined);
  }
  return samples;
}

async function mutate(session: HttpSession, name: string, args: Record<string, unknown>): Promise<void> {
  const call = tool(name, args);
  const reply = await session.call(call.method, call.params);
  if (!reply.text.includes('"result"') || reply.text.includes('"isError":true'))
    throw new Error(`${name} failed: ${reply.text.slice(0, 300)}`);
}

async function startInstance(storeArgs: string[]): Promise<{ child: ChildProcess; port: number }> {
  const { child, url } = await startHttpTracker(storeArgs);
  return { child, port: Number(url.port) };
}

let stores = 0;

async function freshStore(backend: Backend, postgresUrl: string): Promise<Store> {
  if (backend === 'journal') {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'tracker-instances-'));
    return {
      args: ['--data', path.join(directory, 'tracker.jsonl')],
      remove: async () => fs.rmSync(directory, { recursive: true, force: true }),
    };
  }
  const name = `tracker_instances_${process.pid}_${++stores}`;
  await admin(postgresUrl, `CREATE DATABASE ${name}`);
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return { args: ['--store', url.href], remove: () => admin(postgresUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
