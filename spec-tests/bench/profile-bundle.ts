// The server bundled for profiling: lib/main.ts as build.mjs bundles it, but not minified, so a
// profile names our functions (profile.ts, allocation-sites.ts).

import { resolve } from 'node:path';
import { build } from 'esbuild';

/** Builds the profiling bundle into dist/bench/ under `root`; returns its path. */
export async function buildProfileBundle(root: string): Promise<string> {
  const out = resolve(root, 'dist/bench/mcp-tracker.profile.mjs');
  await build({
    absWorkingDir: root,
    entryPoints: ['lib/main.ts'],
    outfile: out,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    logLevel: 'warning',
  });
  return out;
}
