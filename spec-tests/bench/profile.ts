// Where our server's time goes, per workload: bundles lib/main.ts unminified (names intact),
// runs it under `node --cpu-prof` through one workload, and prints the heaviest functions
// by self time and the heaviest call paths from our own code. The .cpuprofile files stay in
// dist/bench/profiles/ for Chrome DevTools.
//
//   npx tsx spec-tests/bench/profile.ts [--stateless] [ping|get_issue|search|search_uncached|mixed|large|startup] ...
//
// --stateless speaks 2026-07-28 (no initialize, `_meta` on every request); it has no ping, so
// its mixed set replaces the ping by a get_issue, as the bench does.

import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { copyForRun, ensureDataFiles } from './data.js';
import { largeRead, pipelined, sequential } from './measure.js';
import { buildProfileBundle } from './profile-bundle.js';
import { openSession } from './session.js';
import { type Era, LATENCY_OPS, mixedIn } from './workload.js';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const WORKLOADS: Record<string, (server: Awaited<ReturnType<typeof openSession>>, bigKey: string) => Promise<unknown>> = {
  startup: async () => {},
  ping: (s) => pipelined(s, () => ({ method: 'ping' }), 100_000),
  get_issue: (s) => sequential(s, LATENCY_OPS.get_issue!, 10_000),
  search: (s) => sequential(s, LATENCY_OPS.search_issues!, 5_000),
  search_uncached: (s) => sequential(s, LATENCY_OPS.search_uncached!, 5_000),
  mixed: (s) => pipelined(s, mixedIn(s.era), 50_000),
  large: (s, bigKey) => largeRead(s, `jira://issue/${bigKey}`, 20),
};

async function main(): Promise<void> {
  const root = process.cwd();
  const out = await buildProfileBundle(root);
  const files = await ensureDataFiles(() => {});
  const args = process.argv.slice(2);
  const era: Era = args.includes('--stateless') ? 'stateless' : 'handshake';
  const given = args.filter((arg) => arg !== '--stateless');
  const names = given.length > 0 ? given : Object.keys(WORKLOADS).filter((name) => era === 'handshake' || name !== 'ping');
  for (const name of names) {
    const workload = WORKLOADS[name];
    if (!workload) throw new Error(`unknown workload ${name}; one of ${Object.keys(WORKLOADS).join(', ')}`);
    const dir = resolve(root, 'dist/bench/profiles', era === 'handshake' ? name : `${name}-stateless`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const data = copyForRun(name === 'large' ? files.big : files.issues, dir, 'data.jsonl');
    const server = await openSession([process.execPath, '--cpu-prof', `--cpu-prof-dir=${dir}`, out, '--data', data], era);
    await workload(server, files.bigKey);
    await server.close();
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    if (!file) throw new Error(`no profile written for ${name}`);
    process.stdout.write(
      `\n== ${name} (${join(relative(root, dir), file)})\n${summarize(JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile)}`,
    );
  }
}

/** Self time per function, and inclusive time of our own functions (lib/, protocol/). */
function summarize(profile: Profile): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    total += dt;
    const node = byId.get(id);
    if (!node) return;
    const label = (n: Node) =>
      `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').slice(-1)[0] ?? ''}:${n.callFrame.lineNumber + 1}`;
    self.set(label(node), (self.get(label(node)) ?? 0) + dt);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const n = byId.get(at);
      if (!n || !n.callFrame.functionName) continue;
      const key = label(n);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + dt);
    }
  });
  const top = (m: Map<string, number>, k: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([name, ms]) => `  ${ms.toFixed(0).padStart(7)} ms ${((100 * ms) / total).toFixed(1).padStart(5)}%  ${name}`)
      .join('\n');
  return `total ${total.toFixed(0)} ms\n self time:\n${top(self, 15)}\n inclusive:\n${top(inclusive, 25)}\n`;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
