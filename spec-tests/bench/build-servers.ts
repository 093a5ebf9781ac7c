// Bundles the candidates, each into one file, the way build.mjs bundles ours: esbuild, ESM,
// minified, node20. Ours is built by build.mjs itself, so the benchmark measures exactly what
// ships; the two SDK peers and the floors go to dist/bench/.

import { spawnSync } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

export interface Bundles {
  ours: string;
  sdk1: string;
  sdk2: string;
  floor: string;
  httpFloor: string;
}

export const BENCH_DIST = 'dist/bench';

export async function buildBundles(root: string): Promise<Bundles> {
  const built = spawnSync(process.execPath, ['build.mjs'], { cwd: root, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`node build.mjs failed:\n${built.stdout}${built.stderr}`);
  mkdirSync(join(root, BENCH_DIST), { recursive: true });
  const sdk1 = await bundle(root, 'spec-tests/bench/sdk-tracker.ts', `${BENCH_DIST}/sdk-tracker.mjs`);
  const sdk2 = await bundle(root, 'spec-tests/bench/sdk2-tracker.ts', `${BENCH_DIST}/sdk2-tracker.mjs`);
  const floor = await bundle(root, 'spec-tests/bench/floor-server.ts', `${BENCH_DIST}/floor.mjs`);
  const httpFloor = await bundle(root, 'spec-tests/bench/http-floor-server.ts', `${BENCH_DIST}/http-floor.mjs`);
  return { ours: join(root, 'dist/mcp-tracker.mjs'), sdk1, sdk2, floor, httpFloor };
}

/** One candidate's entry bundled to `out` (relative to `root`); returns its absolute path. */
export async function bundle(root: string, entry: string, out: string): Promise<string> {
  await build({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile: out,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    minify: true,
    legalComments: 'none',
    // Some of the SDK's dependencies are CommonJS and call require() for Node built-ins.
    banner: {
      js: "import { createRequire as __benchRequire } from 'node:module'; const require = __benchRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  return resolve(root, out);
}

export const fileSize = (path: string): number => statSync(path).size;
