// Where a request's garbage is made: the bytes allocated per request by each function of our
// server (its own allocations, with the two callers above it), from V8's sampling heap
// profiler with the objects the collector has freed kept in the profile, which is what a
// request path that allocates mostly garbage needs (allocations.ts gives the total; this names
// the sites). The server is the unminified bundle (profile-bundle.ts), so the names are ours;
// its line numbers are the bundle's. Not part of `npm run bench`: a tool for deciding a change
// on the request path (docs/performance.md).
//
//   npx tsx spec-tests/bench/allocation-sites.ts [--stateless] [--workload get_issue|mixed|...]
//     [--requests N] [--top N]
//
// The server is warmed with as many requests as are measured, then profiled over the next N
// (64 in flight). A sample every 256 bytes on average: figures below ~50 bytes a request are noise.

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyForRun, ensureDataFiles } from './data.js';
import { pipelined } from './measure.js';
import { buildProfileBundle } from './profile-bundle.js';
import { option } from './options.js';
import { openSession } from './session.js';
import { type Call, type Era, LATENCY_OPS, mixedIn } from './workload.js';

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

// Loaded into the server with --import: the first SIGUSR2 starts sampling, the second writes
// the profile to $ALLOCATION_PROFILE. An in-process inspector session, so no port is opened.
const PRELOAD = `
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
const session = new Session();
session.connect();
let sampling = false;
process.on('SIGUSR2', () => {
  if (!sampling) {
    sampling = true;
    session.post('HeapProfiler.startSampling', {
      samplingInterval: 256,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  } else {
    session.post('HeapProfiler.stopSampling', (error, answer) =>
      writeFileSync(process.env.ALLOCATION_PROFILE, error ? '' : JSON.stringify(answer.profile)),
    );
  }
});
`;

async function main(): Promise<void> {
  const era: Era = process.argv.includes('--stateless') ? 'stateless' : 'handshake';
  const workload = option('--workload', 'get_issue');
  const calls: ((i: number) => Call) | undefined = workload === 'mixed' ? mixedIn(era) : LATENCY_OPS[workload];
  if (!calls) throw new Error(`unknown workload ${workload}; mixed or one of ${Object.keys(LATENCY_OPS).join(', ')}`);
  const requests = Number(option('--requests', '20000'));
  const top = Number(option('--top', '25'));
  const bundle = await buildProfileBundle(process.cwd());
  const files = await ensureDataFiles((line) => process.stderr.write(`${line}\n`));
  const scratch = mkdtempSync(join(tmpdir(), 'mcp-allocation-sites-'));
  try {
    const preload = join(scratch, 'preload.mjs');
    const profileFile = join(scratch, 'profile.json');
    writeFileSync(preload, PRELOAD);
    process.env.ALLOCATION_PROFILE = profileFile;
    const data = copyForRun(files.issues, scratch, 'run.jsonl');
    const server = await openSession([process.execPath, '--import', preload, bundle, '--data', data], era);
    try {
      await pipelined(server, calls, requests);
      server.child.kill('SIGUSR2');
      await pipelined(server, calls, requests);
      server.child.kill('SIGUSR2');
      while (!existsSync(profileFile)) await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await server.close();
    }
    const profile = JSON.parse(readFileSync(profileFile, 'utf8')) as { head: ProfileNode };
    const sites = bySite(profile.head);
    const total = [...sites.values()].reduce((sum, bytes) => sum + bytes, 0);
    console.log(
      `${era}, ${requests} ${workload} requests after ${requests}: ${(total / requests / 1024).toFixed(2)} KiB per request sampled`,
    );
    for (const [site, bytes] of [...sites].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      console.log(`${(bytes / requests).toFixed(0).padStart(6)} B  ${site}`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Self bytes by function and its two callers. */
function bySite(head: ProfileNode): Map<string, number> {
  const sites = new Map<string, number>();
  const walk = (node: ProfileNode, callers: string[]): void => {
    const { functionName, url, lineNumber } = node.callFrame;
    const name = `${functionName || '(anonymous)'} ${url.split('/').pop()}:${lineNumber + 1}`;
    const site = [name, ...callers.slice(-2).reverse()].join(' <- ');
    if (node.selfSize > 0) sites.set(site, (sites.get(site) ?? 0) + node.selfSize);
    for (const child of node.children) walk(child, [...callers, name]);
  };
  walk(head, []);
  return sites;
}

await main();
