// npm run bench: our server against the official SDK and the floor. See README.md here.
//
//   npx tsx spec-tests/bench/main.ts [--quick] [--rounds N] [--out FILE] [--no-store]
//
// Progress goes to stderr; the tables go to stdout and the figures to a JSON file.

import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { BENCH_DIST, buildBundles, fileSize } from './build-servers.js';
import { createLauncher } from './candidates.js';
import { answers, captureCanned, disagreements } from './correctness.js';
import { ensureDataFiles } from './data.js';
import { type Figure, roundFigures, singleFigure } from './figures.js';
import { parseOptions, type Options } from './options.js';
import { figureTable, storeTable } from './report.js';
import { type References, type Round, peakMemory, runRound } from './rounds.js';
import { storeFigures } from './store-figures.js';
import { CHECKS, LATENCY_OPS, type Call, issueKey, read } from './workload.js';

const log = (line: string): void => void process.stderr.write(`[bench] ${line}\n`);

/** What every session answers before it is timed, and what the floor's canned answers come from. */
const VERIFY_CALLS: Call[] = [
  ...Object.values(LATENCY_OPS).map((make) => make(0)),
  read(`jira://issue/${issueKey(1)}`),
  { method: 'tools/list' },
];

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const root = process.cwd();
  const started = Date.now();
  log('building the three bundles');
  const bundles = await buildBundles(root);
  const files = await ensureDataFiles(log);
  const canned = { issues: join(root, BENCH_DIST, 'canned-issues'), big: join(root, BENCH_DIST, 'canned-big') };
  const launcher = createLauncher(bundles, files, canned);
  const largeUri = `jira://issue/${files.bigKey}`;

  log(`correctness: ${CHECKS.length} checks on ours and on the SDK peer`);
  const oursAnswers = await answers(launcher.command('ours', 'issues'), CHECKS);
  const sdkAnswers = await answers(launcher.command('sdk', 'issues'), CHECKS);
  const differ = disagreements(CHECKS, oursAnswers, sdkAnswers);
  const [oursLarge] = await answers(launcher.command('ours', 'big'), [read(largeUri)]);
  const [sdkLarge] = await answers(launcher.command('sdk', 'big'), [read(largeUri)]);
  if (oursLarge !== sdkLarge) differ.push({ call: `resources/read ${largeUri}`, ours: '(5 MiB)', sdk: '(5 MiB, different)' });
  if (differ.length > 0) {
    for (const d of differ) log(`DIFFERENT: ${d.call}\n  ours: ${d.ours}\n  sdk:  ${d.sdk}`);
    log(`refusing to report: ours and the SDK peer answer ${differ.length} of the checks differently`);
    process.exit(1);
  }
  await captureCanned(launcher.command('ours', 'issues'), VERIFY_CALLS, canned.issues);
  await captureCanned(launcher.command('ours', 'big'), [read(largeUri)], canned.big);
  const refs: References = {
    calls: VERIFY_CALLS,
    answers: await answers(launcher.command('ours', 'issues'), VERIFY_CALLS),
    largeUri,
    largeAnswer: oursLarge ?? '',
  };

  const rounds: Round[] = [];
  for (let r = 1; r <= options.rounds; r++) {
    log(`round ${r} of ${options.rounds}`);
    rounds.push(await runRound(launcher, refs, options, log));
  }
  log(`peak RSS after ${options.rssRequests.toLocaleString('en-US')} mixed requests`);
  const rss = await peakMemory(launcher, options.rssRequests);
  const bundleBytes = { ours: fileSize(bundles.ours), sdk: fileSize(bundles.sdk), floor: fileSize(bundles.floor) };
  const figures: Figure[] = [
    ...roundFigures(rounds),
    singleFigure(`peak RSS after ${options.rssRequests / 1000}k mixed`, 'MiB', rss, {
      kind: 'max',
      value: 1.3,
      sdkInIssue: '~2.5x',
    }),
    singleFigure('bundle size', 'KiB', bundleBytes, { kind: 'kib', value: 180, sdkInIssue: '~726 KiB' }),
  ];
  log(`store figures at ${options.storeSizes.join(', ') || 'no'} issues (lib/store/bench.ts)`);
  const store = storeFigures(root, options.storeSizes);

  const largeBytes = rounds[0]?.ours.largeReadBytes ?? 0;
  // Other work on the machine skews absolute figures (ratios less so: rounds interleave).
  const load = loadavg()[0] ?? 0;
  if (load > cpus().length)
    log(`WARNING: load average ${load.toFixed(1)} on ${cpus().length} cores: other processes ran during the benchmark`);
  process.stdout.write(`\nmcp-by-hand benchmark, ${new Date().toISOString().slice(0, 10)}, ${machine()}\n`);
  process.stdout.write(
    `${options.rounds} rounds${options.quick ? ' (--quick)' : ''}; ${CHECKS.length} correctness checks agreed; ` +
      `5 MiB read = ${largeUri} (${(largeBytes / 2 ** 20).toFixed(2)} MiB on the wire)\n\n`,
  );
  process.stdout.write(figureTable(figures));
  if (store.length > 0) process.stdout.write(`\nstore (lib/store/bench.ts)\n${storeTable(store)}`);
  const out = resolve(root, options.out);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(
    out,
    `${JSON.stringify(results(options, figures, rounds, rss, bundleBytes, store, largeUri, largeBytes), null, 2)}\n`,
  );
  log(`wrote ${out} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

function machine(): string {
  const cpu = cpus();
  return `${cpu.length} x ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${process.platform}, load ${(loadavg()[0] ?? 0).toFixed(1)}`;
}

function results(
  options: Options,
  figures: Figure[],
  rounds: Round[],
  rss: unknown,
  bundles: unknown,
  store: unknown,
  largeUri: string,
  largeBytes: number,
) {
  return {
    date: new Date().toISOString(),
    machine: machine(),
    options,
    correctness: { checks: CHECKS.length, agreed: true },
    largeRead: { uri: largeUri, bytes: largeBytes },
    figures,
    rounds,
    peakRssBytes: rss,
    bundleBytes: bundles,
    store,
  };
}

main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
