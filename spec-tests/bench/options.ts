// Command-line options and the two run sizes.

export interface Options {
  quick: boolean;
  rounds: number;
  coldStarts: number;
  warmup: number;
  latencyCount: number;
  pingThroughput: number;
  mixedThroughput: number;
  largeReads: number;
  rssRequests: number;
  storeSizes: number[];
  /** The PostgreSQL server for the team-mode rows (--postgres, else $MCP_TEST_POSTGRES_URL); none: skipped. */
  postgres: string | undefined;
  http: boolean;
  out: string;
  updateDocs: boolean;
  /** Start every server on the journal alone, without its snapshot (data.ts): each start replays it. */
  replay: boolean;
}

const FULL = {
  rounds: 5,
  coldStarts: 3,
  warmup: 500,
  latencyCount: 1000,
  pingThroughput: 20_000,
  mixedThroughput: 10_000,
  largeReads: 5,
  rssRequests: 100_000,
  storeSizes: [1_000, 100_000],
};
const QUICK = {
  rounds: 2,
  coldStarts: 2,
  warmup: 200,
  latencyCount: 200,
  pingThroughput: 5_000,
  mixedThroughput: 3_000,
  largeReads: 2,
  rssRequests: 20_000,
  storeSizes: [1_000],
};

/** Results go to an ignored folder: a run never leaves the work tree dirty. */
export const RESULTS_DIR = '.bench-results';

export const USAGE = `Usage: npm run bench -- [--quick] [--rounds N] [--out FILE] [--no-store] [--postgres URL] [--no-http] [--update-docs] [--replay]
  --quick          a short run: fewer rounds and requests, store figures at 1,000 issues only
  --rounds N       rounds of interleaving (default 5, quick 2)
  --out FILE       where to write the JSON results (default ${RESULTS_DIR}/latest.json)
  --no-store       skip the store figures (spec-tests/bench/store-bench.ts) and the team-mode ones
  --postgres URL   a PostgreSQL server for the team-mode store rows (default $MCP_TEST_POSTGRES_URL;
                   the user must be allowed to create databases); without one they are skipped
  --no-http        skip the HTTP rows
  --update-docs    also put this run's tables in docs/benchmarks.md
  --replay         start every server on the journal alone, without the snapshot a clean close
                   leaves beside it: each start replays the journal, as the first start does`;

/** `--name VALUE` from the command line, else `fallback`: the options of the bench's own tools (allocations.ts and its kin). */
export function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

export function parseOptions(argv: readonly string[]): Options {
  const quick = argv.includes('--quick');
  const options: Options = {
    quick,
    ...(quick ? QUICK : FULL),
    postgres: process.env.MCP_TEST_POSTGRES_URL || undefined,
    http: true,
    out: `${RESULTS_DIR}/latest.json`,
    updateDocs: false,
    replay: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') continue;
    else if (arg === '--rounds') options.rounds = positive(argv[++i]);
    else if (arg === '--out') options.out = argv[++i] ?? options.out;
    else if (arg === '--no-store') options.storeSizes = [];
    else if (arg === '--postgres') options.postgres = argv[++i];
    else if (arg === '--no-http') options.http = false;
    else if (arg === '--update-docs') options.updateDocs = true;
    else if (arg === '--replay') options.replay = true;
    else throw new Error(`unknown option ${arg}\n${USAGE}`);
  }
  return options;
}

function positive(text: string | undefined): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`--rounds needs a positive integer, got ${text}`);
  return n;
}
