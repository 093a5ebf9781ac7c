// What of dist/mcp-tracker.mjs a stdio server runs: each source file's bytes in the minified
// bundle (esbuild's metafile) beside the share of its code that V8's coverage saw run, in two
// sessions on a seeded data file opened from its snapshot: a start (initialize and the four
// lists) and a working session (the same, then searches, a read of an issue, a write of each
// kind, two resource reads). Code that no session runs, gathered in whole files behind a seam
// that may wait, is what a companion bundle can take out of the server's start.
//
//   npx tsx spec-tests/bench/bundle-coverage.ts [--files N]   the rooms, then the N files that ran least (default 40)
//   npx tsx spec-tests/bench/bundle-coverage.ts --without PATH,PATH...
//       the program's size with those source files left out (each an empty module), and what
//       only they import with them: the most a seam around them could take out of the start
//
// Coverage is taken on an unminified bundle of the same entry (its `// path` lines say where
// each source file starts) and counted in non-space characters of code.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { type BuildOptions, type Plugin, build } from 'esbuild';

const ENTRY = 'lib/main.ts';
// The companions a working session loads on first use (a write, a prompt, a query or another occasional read) are copied
// from dist/ beside the measured bundle (run node build.mjs first); no session loads the others.
const SEAMS = ['mcp-tracker-writes.mjs', 'mcp-tracker-prompts.mjs', 'mcp-tracker-reads.cjs'];
const DEFINE = {
  ...Object.fromEntries(
    ['POSTGRES', 'DEMO', 'IO', 'HTTP', 'HELP'].map((name) => [`__MCP_TRACKER_${name}_BUNDLE__`, '"./companion.mjs"']),
  ),
  __MCP_TRACKER_WRITES_BUNDLE__: JSON.stringify(`./${SEAMS[0]}`),
  __MCP_TRACKER_PROMPTS_BUNDLE__: JSON.stringify(`./${SEAMS[1]}`),
  __MCP_TRACKER_READS_BUNDLE__: JSON.stringify(`./${SEAMS[2]}`),
};

type Message = Record<string, unknown>;
const request = (id: number, method: string, params?: Message): Message => ({ jsonrpc: '2.0', id, method, params });
const call = (id: number, name: string, args: Message) => request(id, 'tools/call', { name, arguments: args });

const START: Message[] = [
  request(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'coverage', version: '1' } }),
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  request(2, 'tools/list'),
  request(3, 'resources/list'),
  request(4, 'resources/templates/list'),
  request(5, 'prompts/list'),
];
const WORK: Message[] = [
  ...START,
  call(6, 'search_issues', { text: 'checkout' }),
  call(7, 'search_issues', { query: 'project = PROJ AND status != done ORDER BY priority' }),
  call(8, 'get_issue', { key: 'PROJ-104' }),
  call(9, 'create_issue', { project: 'PROJ', title: 'Receipt e-mail arrives twice', type: 'bug', priority: 'P2' }),
  call(10, 'update_issue', { key: 'PROJ-104', status: 'in_progress' }),
  call(11, 'add_comment', { key: 'PROJ-104', body: 'On it.' }),
  request(12, 'resources/read', { uri: 'jira://sprint/current' }),
  request(13, 'resources/read', { uri: 'jira://issue/PROJ-101' }),
];

interface Range {
  startOffset: number;
  endOffset: number;
  count: number;
}

/** Per character of the bundle: 1 ran, 0 did not, -1 outside any function V8 reported. */
function coverage(bundle: string, length: number, messages: readonly Message[]): Int8Array {
  const scratch = mkdtempSync(join(tmpdir(), 'mcp-bundle-coverage-'));
  try {
    const data = join(scratch, 'tracker.jsonl');
    // The first start seeds the data file and leaves its snapshot: the measured one opens from it.
    spawnSync(process.execPath, [bundle, '--data', data], { input: '' });
    const input = messages.map((message) => `${JSON.stringify(message)}\n`).join('');
    const run = spawnSync(process.execPath, [bundle, '--data', data], {
      input,
      encoding: 'utf8',
      env: { ...process.env, NODE_V8_COVERAGE: join(scratch, 'coverage') },
    });
    // Every request answered, none refused: the coverage is of the work meant, not of error paths.
    const answers = run.stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { id?: number; error?: unknown; result?: { isError?: boolean } })
      .filter((message) => message.id !== undefined);
    const refused = answers.filter((answer) => answer.error !== undefined || answer.result?.isError === true);
    const expected = messages.filter((message) => 'id' in message).length;
    if (answers.length !== expected || refused.length > 0)
      throw new Error(`${answers.length} answers to ${expected} requests, refused: ${JSON.stringify(refused)}\n${run.stderr}`);
    const reports = readdirSync(join(scratch, 'coverage')).map(
      (file) =>
        JSON.parse(readFileSync(join(scratch, 'coverage', file), 'utf8')) as {
          result: { url: string; functions: { ranges: Range[] }[] }[];
        },
    );
    const script = reports.flatMap((report) => report.result).find((result) => result.url.endsWith(bundle));
    if (script === undefined) throw new Error(`no coverage of ${bundle}`);
    const ran = new Int8Array(length).fill(-1);
    // A function's ranges come outermost first: an inner block's count overrides its function's.
    for (const fn of script.functions)
      for (const range of fn.ranges) ran.fill(range.count > 0 ? 1 : 0, range.startOffset, range.endOffset);
    return ran;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

interface FileFigures {
  path: string;
  minifiedBytes: number;
  code: number;
  ranAtStart: number;
  ranWorking: number;
}

function room(path: string): string {
  if (path.startsWith('node_modules/zod/')) return 'zod';
  if (path.startsWith('lib/store/')) return path.split('/').slice(0, 3).join('/').replace(/\.ts$/, '');
  if (path.startsWith('lib/tracker/')) return 'lib/tracker';
  if (path.startsWith('protocol/')) return 'protocol';
  return 'lib (main, command line, loaders)';
}

/** The minified program with `paths` emptied: an upper bound, since a seam's own loader is not counted. */
async function sizeWithout(paths: readonly string[]): Promise<void> {
  const emptied: Plugin = {
    name: 'emptied',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, (file) =>
        paths.includes(relative(process.cwd(), file.path)) ? { contents: 'module.exports = {}', loader: 'js' } : undefined,
      );
    },
  };
  const sizeOf = async (plugins: Plugin[]) => {
    const result = await build({
      entryPoints: [ENTRY],
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      define: { ...DEFINE, 'import.meta.url': '__mcpBundleUrl' },
      minify: true,
      legalComments: 'none',
      write: false,
      logLevel: 'error',
      plugins,
    });
    return (result.outputFiles[0]?.contents.length ?? 0) / 1024;
  };
  const whole = await sizeOf([]);
  const without = await sizeOf([emptied]);
  console.log(
    `program ${whole.toFixed(1)} KiB; without ${paths.join(', ')}: ${without.toFixed(1)} KiB (${(without - whole).toFixed(1)})`,
  );
}

async function main(): Promise<void> {
  const withoutAt = process.argv.indexOf('--without');
  if (withoutAt >= 0) return sizeWithout((process.argv[withoutAt + 1] ?? '').split(',').filter((path) => path !== ''));
  const filesShown = process.argv.includes('--files') ? Number(process.argv[process.argv.indexOf('--files') + 1]) : 40;
  const folder = mkdtempSync(join(tmpdir(), 'mcp-bundle-coverage-build-'));
  try {
    const common: BuildOptions = { entryPoints: [ENTRY], bundle: true, platform: 'node', target: 'node20', define: DEFINE };
    // As build.mjs bundles the program that the code-cache launcher runs: a script.
    const minified = await build({
      ...common,
      format: 'cjs',
      define: { ...DEFINE, 'import.meta.url': '__mcpBundleUrl' },
      outfile: join(folder, 'minified.js'),
      minify: true,
      legalComments: 'none',
      metafile: true,
      write: false,
    });
    const inputs = Object.values(minified.metafile.outputs)[0]?.inputs ?? {};
    const bundle = join(folder, 'readable.mjs');
    await build({ ...common, format: 'esm', outfile: bundle, minify: false, legalComments: 'none' });
    for (const name of SEAMS) copyFileSync(join('dist', name), join(folder, name));
    const source = readFileSync(bundle, 'utf8');
    const start = coverage(bundle, source.length, START);
    const working = coverage(bundle, source.length, WORK);

    // A file's code may come in more than one piece (esbuild hoists what it can), each with its `// path` line.
    const marks = [...source.matchAll(/^\/\/ ((?:lib|protocol|node_modules)\/\S+)$/gm)];
    const byPath = new Map<string, FileFigures>();
    marks.forEach((mark, i) => {
      const path = mark[1] ?? '';
      let figures = byPath.get(path);
      if (figures === undefined)
        byPath.set(
          path,
          (figures = { path, minifiedBytes: inputs[path]?.bytesInOutput ?? 0, code: 0, ranAtStart: 0, ranWorking: 0 }),
        );
      for (let at = mark.index, end = marks[i + 1]?.index ?? source.length; at < end; at++) {
        if (/\s/.test(source[at] ?? '')) continue;
        figures.code += 1;
        if (start[at] === 1) figures.ranAtStart += 1;
        if (working[at] === 1) figures.ranWorking += 1;
      }
    });
    const files = [...byPath.values()];

    const percent = (part: number, whole: number) => `${whole === 0 ? 0 : Math.round((100 * part) / whole)}%`.padStart(5);
    const row = (name: string, f: Omit<FileFigures, 'path'>) =>
      `${name.padEnd(48)} ${(f.minifiedBytes / 1024).toFixed(1).padStart(6)} KiB ${percent(f.ranAtStart, f.code)} ${percent(f.ranWorking, f.code)}`;
    const sum = (list: FileFigures[]) =>
      list.reduce(
        (total, f) => ({
          minifiedBytes: total.minifiedBytes + f.minifiedBytes,
          code: total.code + f.code,
          ranAtStart: total.ranAtStart + f.ranAtStart,
          ranWorking: total.ranWorking + f.ranWorking,
        }),
        { minifiedBytes: 0, code: 0, ranAtStart: 0, ranWorking: 0 },
      );
    console.log(`${'room'.padEnd(48)} ${'minified'.padStart(10)} start working`);
    const rooms = new Map<string, FileFigures[]>();
    for (const f of files) rooms.set(room(f.path), [...(rooms.get(room(f.path)) ?? []), f]);
    for (const [name, list] of [...rooms].sort((a, b) => sum(b[1]).minifiedBytes - sum(a[1]).minifiedBytes))
      console.log(row(name, sum(list)));
    console.log(row('all', sum(files)));
    console.log(`\nthe ${filesShown} files that ran least in the working session:`);
    for (const f of files
      .filter((f) => f.minifiedBytes >= 1024)
      .sort((a, b) => a.ranWorking / a.code - b.ranWorking / b.code)
      .slice(0, filesShown))
      console.log(row(f.path, f));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

await main();
