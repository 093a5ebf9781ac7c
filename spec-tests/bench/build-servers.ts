// Bundles the candidates, each into one file, the way build.mjs bundles ours: esbuild, ESM,
// minified, node20. Ours is built by build.mjs itself, so the benchmark measures exactly what
// ships; the two SDK peers and the floors go to dist/bench/.

import { spawnSync } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
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
    define: companionsFrom(resolve(root, out), resolve(root, 'dist')),
    logLevel: 'warning',
  });
  return resolve(root, out);
}

/**
 * The tracker's companions (lib/companion-bundle.ts), which build.mjs puts in dist/: the peers
 * serve our tools and prompts, whose rarer code loads from them, as a path from the peer's file.
 */
function companionsFrom(file: string, dist: string): Record<string, string> {
  const near = (name: string) => JSON.stringify(relative(dirname(file), join(dist, name)).split(sep).join('/'));
  return {
    __MCP_TRACKER_WRITES_BUNDLE__: near('mcp-tracker-writes.mjs'),
    __MCP_TRACKER_PROMPTS_BUNDLE__: near('mcp-tracker-prompts.mjs'),
    __MCP_TRACKER_IO_BUNDLE__: near('mcp-tracker-io.mjs'),
    __MCP_TRACKER_READS_BUNDLE__: near('mcp-tracker-reads.cjs'),
  };
}

export const fileSize = (path: string): number => statSync(path).size;
