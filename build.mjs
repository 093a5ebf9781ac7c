// Bundles each program into one self-contained file in dist/: a shebang, runnable with plain
// `node`, nothing imported but Node's own modules. Prints each bundle's size.
//
//   node build.mjs            build both programs
//   node build.mjs --metafile also write dist/<name>.meta.json (what takes the space)

import { builtinModules } from 'node:module';
import { chmodSync, existsSync, statSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const programs = [
  { entry: 'lib/main.ts', out: 'dist/mcp-tracker.mjs' },
  { entry: 'spec-tests/runner/main.ts', out: 'dist/mcp-conform.mjs' },
];

const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
let failed = false;

for (const { entry, out } of programs) {
  if (!existsSync(entry)) {
    console.log(`${out.padEnd(24)} skipped (${entry} does not exist yet)`);
    continue;
  }
  const result = await build({
    entryPoints: [entry],
    outfile: out,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    minify: true,
    legalComments: 'none',
    banner: { js: '#!/usr/bin/env node' },
    metafile: true,
    logLevel: 'warning',
  });
  // The promise of a single file: nothing outside Node's built-ins may be left to import.
  const imports = Object.values(result.metafile.outputs).flatMap((output) => output.imports.map((i) => i.path));
  const foreign = imports.filter((path) => !builtins.has(path));
  if (foreign.length > 0) {
    console.error(`${out}: imports outside node built-ins: ${foreign.join(', ')}`);
    failed = true;
  }
  if (process.argv.includes('--metafile')) writeFileSync(out.replace(/\.mjs$/, '.meta.json'), JSON.stringify(result.metafile));
  chmodSync(out, 0o755);
  console.log(`${out.padEnd(24)} ${(statSync(out).size / 1024).toFixed(1)} KiB`);
}

if (failed) process.exit(1);
