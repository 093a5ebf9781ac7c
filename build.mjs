// Bundles each program into one self-contained file in dist/: a shebang, runnable with plain
// `node`, nothing imported but Node's own modules. Prints each bundle's size.
// mcp-conform also carries its generic fixtures and the official JSON Schemas, packed here
// (spec-tests/runner/builtin.ts unpacks them), so that it works alone in an empty folder.
//
//   node build.mjs            build every program
//   node build.mjs --metafile also write dist/<name>.meta.json (what takes the space)

import { builtinModules } from 'node:module';
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { build } from 'esbuild';

const SCHEMA_NOTICE =
  '// Carries the MCP JSON Schemas, Copyright (c) 2024-2025 Model Context Protocol a Series of LF Projects, LLC,\n' +
  '// under the MIT License or Apache-2.0 (see LICENSE in the mcp-by-hand package).';

// Team mode's backend with the `pg` client library, in a bundle of its own that the tracker
// loads only for --store postgres://... (lib/store/store-loader.ts): pg is CommonJS, so this
// bundle gives it `require`; pg-native is an option pg loads only when asked for, never here.
const PG_REQUIRE =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

// The store's seams (lib/companion-bundle.ts): companions that every bundle carrying a store
// (the server's, team mode's, import and export's) loads on first use, each from beside itself.
const STORE_SEAMS = {
  __MCP_TRACKER_WRITES_BUNDLE__: JSON.stringify('./mcp-tracker-writes.mjs'),
  // The query language and the other occasional reads, loaded at once on the first (lib/store/occasional-reads.ts), so CommonJS.
  __MCP_TRACKER_READS_BUNDLE__: JSON.stringify('./mcp-tracker-reads.cjs'),
  // import_issues and export_issues load the exchange room from the commands' companion (lib/store/exchange-loader.ts).
  __MCP_TRACKER_IO_BUNDLE__: JSON.stringify('./mcp-tracker-io.mjs'),
};

const programs = [
  {
    entry: 'lib/main.ts',
    out: 'dist/mcp-tracker.mjs',
    define: {
      ...STORE_SEAMS,
      __MCP_TRACKER_POSTGRES_BUNDLE__: JSON.stringify('./mcp-tracker-postgres.mjs'),
      __MCP_TRACKER_DEMO_BUNDLE__: JSON.stringify('./mcp-tracker-demo.mjs'),
      __MCP_TRACKER_HTTP_BUNDLE__: JSON.stringify('./mcp-tracker-http.mjs'),
      __MCP_TRACKER_HELP_BUNDLE__: JSON.stringify('./mcp-tracker-help.mjs'),
      __MCP_TRACKER_PROMPTS_BUNDLE__: JSON.stringify('./mcp-tracker-prompts.mjs'),
    },
    notice: '',
    // Started from V8's code cache by lib/code-cache.ts (below: startedFromCodeCache).
    codeCache: 'mcp-tracker',
  },
  {
    entry: 'lib/store/postgres/index.ts',
    out: 'dist/mcp-tracker-postgres.mjs',
    define: STORE_SEAMS,
    notice: '',
    banner: PG_REQUIRE,
    external: ['pg-native'],
  },
  // `mcp-tracker demo` and its tour: clients of the server, loaded only for that command (lib/demo/demo-loader.ts).
  { entry: 'lib/demo/index.ts', out: 'dist/mcp-tracker-demo.mjs', define: {}, notice: '' },
  // `mcp-tracker import` and `export`, loaded only for those commands (lib/import-export-loader.ts).
  {
    entry: 'lib/import-export.ts',
    out: 'dist/mcp-tracker-io.mjs',
    define: { ...STORE_SEAMS, __MCP_TRACKER_POSTGRES_BUNDLE__: JSON.stringify('./mcp-tracker-postgres.mjs') },
    notice: '',
  },
  // `mcp-tracker --http`: the Streamable HTTP transport and the users file, loaded only for that option (lib/http-loader.ts).
  { entry: 'lib/http-serve.ts', out: 'dist/mcp-tracker-http.mjs', define: STORE_SEAMS, notice: '' },
  // `mcp-tracker help`: the text of every command and option, loaded only for it (lib/help-loader.ts).
  { entry: 'lib/usage.ts', out: 'dist/mcp-tracker-help.mjs', define: {}, notice: '' },
  // The store's commands, loaded on the first write (lib/store/writes-loader.ts).
  { entry: 'lib/store/store-mutations.ts', out: 'dist/mcp-tracker-writes.mjs', define: {}, notice: '' },
  // What the prompts expand into, loaded on the first prompts/get (lib/tracker/prompts-loader.ts).
  {
    entry: 'lib/tracker/prompt-messages.ts',
    out: 'dist/mcp-tracker-prompts.mjs',
    // Its resource reads reach the chart's seam: the companion beside it, as for the server.
    define: { __MCP_TRACKER_READS_BUNDLE__: STORE_SEAMS.__MCP_TRACKER_READS_BUNDLE__ },
    notice: '',
  },
  // The occasional reads (lib/reads-companion.ts): the query language, the sprint reports, the completions, the
  // export's snapshot and the burndown chart, required on the first of them.
  { entry: 'lib/reads-companion.ts', out: 'dist/mcp-tracker-reads.cjs', define: {}, notice: '', format: 'cjs' },
  {
    entry: 'spec-tests/runner/main.ts',
    out: 'dist/mcp-conform.mjs',
    define: { __MCP_CONFORM_BUILTIN__: JSON.stringify(packBuiltin()) },
    notice: SCHEMA_NOTICE,
  },
  // The server the official conformance suite runs against (npm run conformance); not in the package.
  { entry: 'spec-tests/conformance-server/main.ts', out: 'dist/mcp-conformance-server.mjs', define: {}, notice: '' },
];

/** spec-tests/runner/builtin.ts reads this back: brotli-compressed JSON, as base64. */
function packBuiltin() {
  const fixtures = {};
  // generic/: every run; http/: the Streamable HTTP transport's own checks, run with --url.
  for (const folder of ['generic', 'http']) {
    const root = `spec-tests/fixtures/${folder}`;
    for (const entry of readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((e) => e.endsWith('.txtar'))
      .sort())
      fixtures[`${folder}/${entry.split('\\').join('/').slice(0, -'.txtar'.length)}`] = readFileSync(join(root, entry), 'utf8');
  }
  const schemas = {};
  for (const version of readdirSync('spec-tests/schemas')
    .filter((name) => /^\d{4}-\d{2}-\d{2}$/.test(name))
    .sort())
    schemas[version] = readFileSync(join('spec-tests/schemas', version, 'schema.json'), 'utf8');
  const json = Buffer.from(JSON.stringify({ fixtures, schemas }));
  return brotliCompressSync(json, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).toString('base64');
}

const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
let failed = false;

for (const { entry, out, define, notice, banner = '', external = [], codeCache, format = 'esm' } of programs) {
  if (!existsSync(entry)) {
    console.log(`${out.padEnd(32)} skipped (${entry} does not exist yet)`);
    continue;
  }
  const options = {
    entryPoints: [entry],
    outfile: out,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format,
    minify: true,
    legalComments: 'none',
    banner: { js: ['#!/usr/bin/env node', notice, banner].filter((line) => line !== '').join('\n') },
    external,
    define,
    metafile: true,
    logLevel: 'warning',
  };
  const result = codeCache ? await startedFromCodeCache(options, codeCache) : await build(options);
  // The promise of a single file: nothing outside Node's built-ins may be left to import.
  const imports = Object.values(result.metafile.outputs).flatMap((output) => output.imports.map((i) => i.path));
  const foreign = imports.filter((path) => !builtins.has(path) && !external.includes(path));
  if (foreign.length > 0) {
    console.error(`${out}: imports outside node built-ins: ${foreign.join(', ')}`);
    failed = true;
  }
  if (process.argv.includes('--metafile')) writeFileSync(out.replace(/\.[cm]js$/, '.meta.json'), JSON.stringify(result.metafile));
  chmodSync(out, 0o755);
  console.log(`${out.padEnd(32)} ${(statSync(out).size / 1024).toFixed(1)} KiB`);
}

/**
 * A program started from V8's code cache (lib/code-cache.ts): bundled as a script (CommonJS, its
 * built-ins taken with `require`) wrapped in a function that receives what a script lacks, then
 * stored as a string in the launcher, which is the ES module written to `out`. Returns the
 * program's metafile: what takes the space is the program.
 */
async function startedFromCodeCache(options, name) {
  const program = await build({
    ...options,
    format: 'cjs',
    banner: {},
    write: false,
    define: { ...options.define, 'import.meta.url': '__mcpBundleUrl' },
  });
  const source = `(function (require, __mcpBundleUrl, __mcpAfterCodeCache, __mcpImport) {${program.outputFiles[0].text}\n})`;
  const launcher = await build({
    ...options,
    entryPoints: ['lib/code-cache.ts'],
    define: {
      __MCP_PROGRAM_SOURCE__: JSON.stringify(source),
      __MCP_PROGRAM_HASH__: JSON.stringify(createHash('sha256').update(source).digest('hex').slice(0, 16)),
      __MCP_PROGRAM_NAME__: JSON.stringify(name),
    },
  });
  const imports = Object.values(launcher.metafile.outputs).flatMap((output) => output.imports);
  return {
    metafile: { ...program.metafile, outputs: { [options.outfile]: { ...Object.values(program.metafile.outputs)[0], imports } } },
  };
}

if (failed) process.exit(1);
