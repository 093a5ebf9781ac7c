// npm run bench: our server against the official SDKs (v1 and v2) and the floor, in both eras
// over stdio and over HTTP. See README.md in this folder.
//
//   npm run bench -- [--quick] [--rounds N] [--out FILE] [--no-store] [--postgres URL] [--no-http] [--update-docs]
//
// Progress goes to stderr; the tables go to stdout and the figures to a JSON file in an
// ignored folder.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parsePostgresUrl } from '../../lib/store/store-url.js';
import { BENCH_DIST, buildBundles, fileSize } from './build-servers.js';
import { CANDIDATES_IN, type CannedDirs, HTTP_CANDIDATES, type Launcher, createLauncher } from './candidates.js';
import { answers, captureCanned, disagreements } from './correctness.js';
import { ensureDataFiles } from './data.js';
import { HTTP_FIGURES, STDIO_FIGURES } from './definitions.js';
import { type Figure, type RoundOf, figuresOf, singleFigure } from './figures.js';
import { type HttpSample, runHttpRound } from './http-rounds.js';
import { parseOptions } from './options.js';
import { pythonPeerMissing } from './python-peer.js';
import { BENCHMARKS_PAGE, updateBenchmarksPage } from './docs-table.js';
import { figureTable, storeTable, teamTables } from './report.js';
import { type References, type Round, peakMemory, runRound } from './rounds.js';
import { storeFigures } from './store-figures.js';
import { type TeamFigures, teamFigures } from './team-figures.js';
import {
  CHECKS,
  ERAS,
  type Era,
  LATENCY_OPS,
  STATELESS_VERSION,
  PROTOCOL_VERSION,
  type Call,
  issueKey,
  read,
  tool,
} from './workload.js';

const log = (line: string): void => void process.stderr.write(`[bench] ${line}\n`);

/** What every session answers before it is timed, and what the floor's canned answers come from (2026-07-28 has no ping). */
const verifyCalls = (era: Era): Call[] =>
  [...Object.values(LATENCY_OPS).map((make) => make(0)), read(`jira://issue/${issueKey(1)}`), { method: 'tools/list' }].filter(
    (call) => era === 'handshake' || call.method !== 'ping',
  );
/** What every HTTP candidate answers before it is timed: the measured call (the floor has one answer per tool). */
const HTTP_CHECKS: Call[] = [tool('get_issue', { key: issueKey(0) })];

const ERA_TITLE: Record<Era, string> = {
  handshake: `handshake era (${PROTOCOL_VERSION}, initialize first)`,
  stateless: `${STATELESS_VERSION} (stateless: no initialize, _meta on every request)`,
};

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const root = process.cwd();
  // Ours keeps its code cache in the user's cache folder (lib/code-cache.ts): a folder of the
  // run's own, so the later starts measured are on the cache this bundle's first start wrote.
  const cacheHome = mkdtempSync(join(tmpdir(), 'mcp-bench-cache-'));
  process.env.XDG_CACHE_HOME = cacheHome;
  process.once('exit', () => rmSync(cacheHome, { recursive: true, force: true }));
  const started = Date.now();
  log('building the bundles');
  const bundles = await buildBundles(root);
  const files = await ensureDataFiles(log);
  const cannedDir = (era: Era, data: string) => join(root, BENCH_DIST, `canned-${era}-${data}`);
  const canned = Object.fromEntries(
    ERAS.map((era) => [era, { issues: cannedDir(era, 'issues'), big: cannedDir(era, 'big') }]),
  ) as CannedDirs;
  const launcher = createLauncher(bundles, files, canned, options.replay);
  log(options.replay ? 'servers start on the journal alone (--replay)' : 'servers start on the journal and its snapshot');
  const largeUri = `jira://issue/${files.bigKey}`;

  const refs = {} as Record<Era, References>;
  const httpChecks = {} as Record<Era, { calls: Call[]; answers: string[] }>;
  for (const era of ERAS) {
    refs[era] = await checkAgreement(launcher, era, largeUri);
    await captureCanned(launcher.command('ours', 'issues', era), verifyCalls(era), canned[era].issues, era);
    await captureCanned(launcher.command('ours', 'big', era), [read(largeUri)], canned[era].big, era);
    httpChecks[era] = { calls: HTTP_CHECKS, answers: await answers(launcher.command('ours', 'issues', era), HTTP_CHECKS, era) };
  }
  const python = pythonPeerMissing();
  const pythonLine =
    python === null
      ? 'Python peer: python3 imports mcp, but this benchmark has no Python peer yet'
      : `Python peer skipped: ${python}`;
  log(pythonLine);

  const rounds: Record<Era, Round[]> = { handshake: [], stateless: [] };
  const httpRounds: Record<Era, RoundOf<HttpSample>[]> = { handshake: [], stateless: [] };
  for (let r = 1; r <= options.rounds; r++) {
    log(`round ${r} of ${options.rounds}`);
    for (const era of ERAS) rounds[era].push(await runRound(launcher, refs[era], options, era, log));
    if (options.http)
      for (const era of ERAS) httpRounds[era].push(await runHttpRound(launcher, httpChecks[era], options, era, log));
  }
  log(`peak RSS after ${options.rssRequests.toLocaleString('en-US')} mixed requests`);
  const rss = await peakMemory(launcher, options.rssRequests);
  const bundleBytes = {
    ours: fileSize(bundles.ours),
    sdk1: fileSize(bundles.sdk1),
    sdk2: fileSize(bundles.sdk2),
    floor: fileSize(bundles.floor),
  };
  const figures: Record<Era, Figure[]> = {
    handshake: [
      ...figuresOf(STDIO_FIGURES, rounds.handshake),
      singleFigure('peak-rss', `peak RSS after ${options.rssRequests / 1000}k mixed`, 'MiB', rss),
      singleFigure('bundle', 'bundle size', 'KiB', bundleBytes),
    ],
    stateless: figuresOf(STDIO_FIGURES, rounds.stateless),
  };
  const httpFigures: Record<Era, Figure[]> = {
    handshake: figuresOf(HTTP_FIGURES, httpRounds.handshake),
    stateless: figuresOf(HTTP_FIGURES, httpRounds.stateless),
  };
  log(`store figures at ${options.storeSizes.join(', ') || 'no'} issues (spec-tests/bench/store-bench.ts)`);
  const store = storeFigures(root, options.storeSizes);
  const team = await teamSection(options.postgres, options.storeSizes);

  const largeBytes = rounds.handshake[0]?.ours?.largeReadBytes ?? 0;
  // Other work on the machine skews absolute figures (ratios less so: rounds interleave).
  const load = loadavg()[0] ?? 0;
  if (load > cpus().length)
    log(`WARNING: load average ${load.toFixed(1)} on ${cpus().length} cores: other processes ran during the benchmark`);
  const sections = [
    `mcp-by-hand benchmark, ${new Date().toISOString().slice(0, 10)}, ${machine()}`,
    `${options.rounds} rounds${options.quick ? ' (--quick)' : ''}; ${CHECKS.length} correctness checks agreed in each era; ` +
      `5 MiB read = ${largeUri} (${(largeBytes / 2 ** 20).toFixed(2)} MiB on the wire); ${pythonLine}`,
    'ratios: ours/X of the medians, then (lowest-highest) of the per-round ratios; met: the rounds in which the target held (4 of 5 needed)',
    ...ERAS.map((era) => `stdio, ${ERA_TITLE[era]}\n${figureTable(figures[era], CANDIDATES_IN[era])}`),
    ...(options.http ? ERAS.map((era) => `HTTP, ${ERA_TITLE[era]}\n${figureTable(httpFigures[era], HTTP_CANDIDATES)}`) : []),
    ...(store.length > 0 ? [`store (spec-tests/bench/store-bench.ts)\n${storeTable(store)}`] : []),
    ...(options.storeSizes.length > 0 ? [team.text] : []),
  ];
  const report = sections.join('\n\n');
  process.stdout.write(`\n${report}`);
  const out = resolve(root, options.out);
  mkdirSync(dirname(out), { recursive: true });
  const results = {
    date: new Date().toISOString(),
    machine: machine(),
    // The URL may carry a password: the results keep only its redacted form.
    options: { ...options, postgres: options.postgres && parsePostgresUrl(options.postgres).shown },
    python: pythonLine,
    largeRead: { uri: largeUri, bytes: largeBytes },
    figures,
    httpFigures,
    rounds,
    httpRounds,
    peakRssBytes: rss,
    bundleBytes,
    store,
    team: team.figures,
  };
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(dirname(out), 'latest.txt'), report);
  log(`wrote ${out} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  if (options.updateDocs) {
    updateBenchmarksPage(join(root, BENCHMARKS_PAGE), report);
    log(`updated the table in ${BENCHMARKS_PAGE}`);
  }
}

/** The team-mode store rows, or the line saying why they were skipped. */
async function teamSection(
  postgres: string | undefined,
  sizes: readonly number[],
): Promise<{ text: string; figures: TeamFigures | null }> {
  const title = 'store, team mode: the journal and PostgreSQL (spec-tests/bench/backends-bench.ts, team-instances.ts)';
  if (sizes.length === 0) return { text: '', figures: null };
  if (postgres === undefined) {
    const skipped = `${title}\nskipped: no PostgreSQL server (give --postgres URL or set MCP_TEST_POSTGRES_URL; npm run db:start prints one)`;
    log(skipped.split('\n')[1]!);
    return { text: skipped, figures: null };
  }
  const figures = await teamFigures(postgres, sizes, log);
  return { text: `${title}\n${teamTables(figures)}`, figures };
}

/** Every real server in `era` must answer the checks as ours does; returns the references for the timed sessions. */
async function checkAgreement(launcher: Launcher, era: Era, largeUri: string): Promise<References> {
  log(`correctness (${era}): ${CHECKS.length} checks on every real server`);
  const oursAnswers = await answers(launcher.command('ours', 'issues', era), CHECKS, era);
  const [oursLarge] = await answers(launcher.command('ours', 'big', era), [read(largeUri)], era);
  for (const name of CANDIDATES_IN[era].filter((c) => c !== 'ours' && c !== 'floor')) {
    const differ = disagreements(CHECKS, oursAnswers, await answers(launcher.command(name, 'issues', era), CHECKS, era));
    const [large] = await answers(launcher.command(name, 'big', era), [read(largeUri)], era);
    if (large !== oursLarge) differ.push({ call: `resources/read ${largeUri}`, ours: '(5 MiB)', other: '(5 MiB, different)' });
    if (differ.length > 0) {
      for (const d of differ) log(`DIFFERENT: ${d.call}\n  ours: ${d.ours}\n  ${name}: ${d.other}`);
      log(`refusing to report: ours and ${name} answer ${differ.length} of the checks differently (${era})`);
      process.exit(1);
    }
  }
  return {
    calls: verifyCalls(era),
    answers: await answers(launcher.command('ours', 'issues', era), verifyCalls(era), era),
    largeUri,
    largeAnswer: oursLarge ?? '',
  };
}

function machine(): string {
  const cpu = cpus();
  return `${cpu.length} x ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${process.platform}, load ${(loadavg()[0] ?? 0).toFixed(1)}`;
}

main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
