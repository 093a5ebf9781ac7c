// What a user gets works alone: the two bundles copied into an empty folder (no node_modules, no
// repository around them), and the npm package installed from its tarball into an empty project.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const INITIALIZE =
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n';

function node(args: string[], cwd: string, input?: string): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, args, {
    cwd,
    input,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, NO_COLOR: '1' },
  });
}

function emptyFolder(): string {
  return mkdtempSync(join(tmpdir(), 'mcp-by-hand-alone-'));
}

/** The server's answer to one request after the handshake: its result, or its error. */
function answerTo(command: string, args: string[], cwd: string, method: string, params: object) {
  const request = { jsonrpc: '2.0', id: 2, method, params };
  const input = `${INITIALIZE}{"jsonrpc":"2.0","method":"notifications/initialized"}\n${JSON.stringify(request)}\n`;
  const run = spawnSync(command, args, { cwd, input, encoding: 'utf8', timeout: 30_000 });
  const answer = run.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { id?: number; result?: Record<string, unknown>; error?: { message: string } })
    .find((message) => message.id === 2);
  assert.ok(answer, run.stdout + run.stderr);
  return JSON.stringify(answer.result ?? answer.error);
}

/** What a companion loaded on first use answers, through the server `command args` in `cwd`. */
const SEAMS = [
  {
    file: 'mcp-tracker-writes.mjs',
    method: 'tools/call',
    params: { name: 'create_issue', arguments: { project: 'PROJ', title: 'Made from a lone folder', type: 'task' } },
    answered: '\\"title\\":\\"Made from a lone folder\\"',
  },
  {
    file: 'mcp-tracker-prompts.mjs',
    method: 'prompts/get',
    params: { name: 'triage_issue', arguments: { issue_key: 'PROJ-104' } },
    answered: '"description":"Triage PROJ-104"',
  },
  {
    file: 'mcp-tracker-reads.cjs',
    method: 'tools/call',
    params: { name: 'search_issues', arguments: { query: 'key in (PROJ-104, WEB-1) ORDER BY key DESC' } },
    answered: '\\"key\\":\\"WEB-1\\"',
  },
  {
    file: 'mcp-tracker-reads.cjs',
    method: 'resources/read',
    params: { uri: 'jira://search?jql=key%20%3D%20PROJ-104' },
    answered: '\\"total\\":1',
  },
  {
    file: 'mcp-tracker-reads.cjs',
    method: 'resources/read',
    params: { uri: 'jira://sprint/PROJ-S41' },
    answered: '\\"committed\\":',
  },
  {
    file: 'mcp-tracker-reads.cjs',
    method: 'resources/read',
    params: { uri: 'jira://sprint/PROJ-S42/burndown.svg' },
    answered: '"mimeType":"image/svg+xml","text":"<svg',
  },
  {
    file: 'mcp-tracker-reads.cjs',
    method: 'completion/complete',
    params: { ref: { type: 'ref/prompt', name: 'triage_issue' }, argument: { name: 'issue_key', value: 'PROJ-10' } },
    answered: '"values":["PROJ-101",',
  },
] as const;

/** The server's answer to initialize, with stdin closed right after it. */
function assertAnswersInitialize(args: string[], cwd: string): void {
  const run = node(args, cwd, INITIALIZE);
  assert.is(run.status, 0, run.stderr);
  const answer = JSON.parse(run.stdout.split('\n')[0] ?? '') as { id: number; result: { protocolVersion: string } };
  assert.is(answer.id, 1);
  assert.is(answer.result.protocolVersion, '2025-11-25');
}

test('the two bundles, alone in an empty folder: the server answers, the runner passes it with its built-in fixtures and schemas', () => {
  const folder = emptyFolder();
  try {
    for (const name of ['mcp-tracker.mjs', 'mcp-conform.mjs']) copyFileSync(join('dist', name), join(folder, name));
    assertAnswersInitialize(['mcp-tracker.mjs', '--ephemeral'], folder);

    const run = node(
      ['mcp-conform.mjs', 'run', '--server', `"${process.execPath}" "${join(folder, 'mcp-tracker.mjs')}" --ephemeral`],
      folder,
    );
    assert.is(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^\d{2,} passed, 0 failed/m);

    const list = node(['mcp-conform.mjs', 'list'], folder);
    assert.match(list.stdout, /^generic\/ping\/ping-id-zero +any +1\.2, M4$/m);
    assert.match(list.stdout, /^\d{2,} fixtures$/m);
    assert.match(node(['mcp-conform.mjs', '--version'], folder).stdout, /^\d+\.\d+\.\d+\n$/);

    // The commands that need a companion bundle say which file to copy, without a stack trace.
    for (const [args, file] of [
      [['demo'], 'mcp-tracker-demo.mjs'],
      [['export', '--data', join(folder, 'none.jsonl')], 'mcp-tracker-io.mjs'],
      [['--http', '0', '--data', join(folder, 'none.jsonl')], 'mcp-tracker-http.mjs'],
      [['--help'], 'mcp-tracker-help.mjs'],
    ] as const) {
      const alone = node(['mcp-tracker.mjs', ...args], folder);
      assert.is(alone.status, 1, alone.stderr);
      assert.match(alone.stderr, `needs ${file} beside this file`);
      assert.not.match(alone.stderr, /\bat \S+ \(/, 'no stack trace');
    }
    // Told before the store opens: no data file was made for a server that cannot serve.
    assert.not.ok(existsSync(join(folder, 'none.jsonl')));
    // A request that loads a companion on first use, alone, says which file to copy.
    for (const { file, method, params } of SEAMS)
      assert.match(
        answerTo(process.execPath, ['mcp-tracker.mjs', '--ephemeral'], folder, method, params),
        `needs ${file} beside this file`,
      );
    // Copied together, the server finds its companions beside it.
    for (const name of readdirSync('dist').filter((name) => /^mcp-tracker-.*\.[cm]js$/.test(name)))
      copyFileSync(join('dist', name), join(folder, name));
    const help = node(['mcp-tracker.mjs', '--help'], folder);
    assert.is(help.status, 0, help.stderr);
    assert.match(help.stdout, /^Usage:\n {2}mcp-tracker \[options\]/);
    for (const { method, params, answered } of SEAMS)
      assert.match(answerTo(process.execPath, ['mcp-tracker.mjs', '--ephemeral'], folder, method, params), answered);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

// The resolver runs in mcp-tracker-reads.cjs, which has its own copy of the store's index code:
// were it to read its own status index (built on its first query, kept current by no write),
// a write's resolution would not show in the next query.
test('the query language companion resolves against the server’s own indexes: a write shows in the next query', async () => {
  const client = new Client({ name: 'bundles-test', version: '1' }, { capabilities: {} });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: ['dist/mcp-tracker.mjs', '--ephemeral'], stderr: 'ignore' }),
  );
  try {
    const resolvedDone = async () => {
      const { structuredContent } = await client.callTool({ name: 'search_issues', arguments: { query: 'resolution = Done' } });
      return (structuredContent as { issues: { key: string }[] }).issues.map((issue) => issue.key);
    };
    const before = await resolvedDone();
    assert.not.ok(before.includes('PROJ-103'));
    const moved = await client.callTool({ name: 'update_issue', arguments: { key: 'PROJ-103', status: 'done' } });
    assert.not.ok(moved.isError, JSON.stringify(moved));
    assert.equal(await resolvedDone(), [...before, 'PROJ-103'].sort());
  } finally {
    await client.close();
  }
});

test("README's table of the server's bundles names every one, each within 10% of its size as built", () => {
  const readme = readFileSync('README.md', 'utf8');
  const rows = [...readme.matchAll(/^\| `(mcp-tracker[\w-]*\.[cm]js)` \|[^|]+\|[^|]+\| ([\d.]+) KiB \|$/gm)];
  assert.equal(
    rows.map((row) => row[1]).sort(),
    readdirSync('dist')
      .filter((name) => /^mcp-tracker.*\.[cm]js$/.test(name))
      .sort(),
  );
  for (const [, name, kib] of rows) {
    const built = statSync(join('dist', name ?? '')).size / 1024;
    assert.ok(Math.abs(built - Number(kib)) <= built / 10, `${name}: README says ${kib} KiB, built ${built.toFixed(1)} KiB`);
  }
});

// A tools/list result without inputSchema: the fixture's expectation matches it, the official
// schema does not. So the run fails only if schema validation is on, as it must be by default.
test('the lone runner validates against the official schemas by default, and not with --no-schema', () => {
  const folder = emptyFolder();
  try {
    copyFileSync(join('dist', 'mcp-conform.mjs'), join(folder, 'mcp-conform.mjs'));
    writeFileSync(
      join(folder, 'server.cjs'),
      `require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
        const m = JSON.parse(line);
        const send = (result) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result }) + '\\n');
        if (m.method === 'initialize') send({ protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } });
        else if (m.method === 'tools/list') send({ tools: [{ name: 'no_input_schema' }] });
      });`,
    );
    writeFileSync(
      join(folder, 'tools.txtar'),
      'A tool without inputSchema.\nprotocol: 2025-11-25\n\n-- client --\n{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n-- server --\n{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"no_input_schema"}]}}\n',
    );
    const server = `"${process.execPath}" "${join(folder, 'server.cjs')}"`;
    const validated = node(['mcp-conform.mjs', 'run', '--server', server, 'tools.txtar'], folder);
    assert.is(validated.status, 1, validated.stdout);
    assert.match(validated.stdout, 'does not match ListToolsResult');
    const unvalidated = node(['mcp-conform.mjs', 'run', '--no-schema', '--server', server, 'tools.txtar'], folder);
    assert.is(unvalidated.status, 0, unvalidated.stdout);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test('npm pack: the tarball holds the bundles, README, LICENSE and package.json only, and its bins work once installed', () => {
  const folder = emptyFolder();
  try {
    const npm = (args: string[], cwd: string) =>
      spawnSync('npm', args, { cwd, encoding: 'utf8', timeout: 120_000, env: { ...process.env, npm_config_loglevel: 'error' } });
    const packed = npm(['pack', '--ignore-scripts', '--json', '--pack-destination', folder], process.cwd());
    assert.is(packed.status, 0, packed.stderr);
    const [manifest] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    assert.equal(manifest?.files.map((file) => file.path).sort(), [
      'LICENSE',
      'README.md',
      'dist/mcp-conform.mjs',
      'dist/mcp-tracker-demo.mjs',
      'dist/mcp-tracker-help.mjs',
      'dist/mcp-tracker-http.mjs',
      'dist/mcp-tracker-io.mjs',
      'dist/mcp-tracker-postgres.mjs',
      'dist/mcp-tracker-prompts.mjs',
      'dist/mcp-tracker-reads.cjs',
      'dist/mcp-tracker-writes.mjs',
      'dist/mcp-tracker.mjs',
      'package.json',
    ]);

    const project = join(folder, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), '{ "name": "empty-project", "private": true }\n');
    const installed = npm(['install', '--offline', '--no-audit', '--no-fund', join(folder, manifest?.filename ?? '')], project);
    assert.is(installed.status, 0, installed.stderr);
    assert.equal(readdirSync(join(project, 'node_modules')).sort(), ['.bin', '.package-lock.json', 'mcp-by-hand'].sort());
    const bin = (name: string) => join(project, 'node_modules', '.bin', name);
    assert.match(spawnSync(bin('mcp-conform'), ['--version'], { encoding: 'utf8' }).stdout, /^\d+\.\d+\.\d+\n$/);
    assert.match(spawnSync(bin('mcp-tracker'), ['--version'], { encoding: 'utf8' }).stdout, /^\d+\.\d+\.\d+\n$/);
    assert.match(spawnSync(bin('mcp-tracker'), ['--help'], { encoding: 'utf8' }).stdout, /^Usage:\n/);
    const answer = spawnSync(bin('mcp-tracker'), ['--ephemeral'], { input: INITIALIZE, encoding: 'utf8', timeout: 30_000 });
    assert.match(answer.stdout, '"protocolVersion":"2025-11-25"');
    for (const { method, params, answered } of SEAMS)
      assert.match(answerTo(bin('mcp-tracker'), ['--ephemeral'], project, method, params), answered);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test.run();
