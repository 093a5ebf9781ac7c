// `mcp-conform run`: finds and loads the fixtures, runs them against server processes (shared
// where a fixture allows it, process-sharing.ts) or fresh sessions of an HTTP endpoint, applies
// --update and the expected-failures list, and reports. Returns the exit code.
import { existsSync, writeFileSync } from 'node:fs';
import type { RunArguments } from './cli-args.js';
import type { FixtureResult } from './fixture-result.js';
import type { LoadedFixture } from './run-fixture.js';
import type { Reporter, Write } from './reporter.js';
import type { ExpectedFailure } from './expected-failures.js';
import type { JudgedFixture } from './verdicts.js';
import { findFixtureFiles, type FixtureFile } from './fixture-files.js';
import type { SchemaSource } from './schema-source.js';
import { loadFixture, runFixture } from './run-fixture.js';
import { readExpectedFailures } from './expected-failures.js';
import { judge, summarize, unmatchedEntries } from './verdicts.js';
import { runInOrder } from './ordered-pool.js';
import { SchemaValidator } from './schema-validator.js';
import { schemaDirectory } from './schema-source.js';
import { BUILTIN_PREFIX, builtinFixtures, builtinSchemas } from './builtin.js';
import { type AdoptProbe, ServerStartError, detectServer, nothingOffered } from './detect.js';
import { detectHttpServer } from './detect-http.js';
import { NEWEST_HANDSHAKE_VERSION, RUNNER_VERSION } from './handshake.js';
import { LARGE_RAW_BYTES, processNeed, rawByteCount, sentMessages } from './process-sharing.js';
import { mayChangeServer } from './server-effects.js';
import { UsageError } from './cli-args.js';
import { updatedFixtureText } from './fixture-update.js';
import { TextReporter } from './report-text.js';
import { JsonReporter } from './report-json.js';
import { JunitReporter } from './report-junit.js';
import { MarkdownReporter } from './report-markdown.js';
import { choosePalette } from './terminal-colors.js';
import { ServerPool } from './process-pool.js';
import { RUN_MARK, serverProcesses, signalEach } from './process-tree.js';

export interface Output {
  write: Write;
  isTerminal: boolean;
  env: NodeJS.ProcessEnv;
  /** Where to say why the run is an error (stderr); the report still goes to `write`. */
  warn?: Write;
}

const SWEEP_PASSES = 10;
const SWEEP_PAUSE_MS = 50;

/**
 * Whatever this run started and is still alive (a server's detached child): gone before the
 * report ends. Killed again until a pass finds nothing, because a process caught between fork and
 * exec, or one a dying server was starting, can escape a single reading of /proc.
 */
async function sweepRun(): Promise<void> {
  for (let pass = 0; pass < SWEEP_PASSES; pass++) {
    const left = serverProcesses({ mark: `${RUN_MARK}-`, prefix: true });
    if (left.length === 0 && pass > 0) return;
    signalEach(left, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, SWEEP_PAUSE_MS));
  }
}

export async function runCommand(args: RunArguments, output: Output): Promise<number> {
  if (args.schemaDir !== undefined && !existsSync(args.schemaDir))
    throw new UsageError(`--schema-dir ${args.schemaDir} does not exist`);
  const fixtures = fixtureFiles(args.paths, args.url !== undefined)
    .filter((file) => args.filters.length === 0 || args.filters.some((filter) => file.name.includes(filter)))
    .map(loadFixture);
  if (args.update && fixtures.some((fixture) => fixture.ok && fixture.fixture.path.startsWith(BUILTIN_PREFIX)))
    throw new Error('--update rewrites fixture files: name the fixture files or folders to update');
  const schema = args.schema ? await SchemaValidator.load(schemaSource(args.schemaDir)) : undefined;
  const entries = args.expectedFailures === undefined ? [] : readExpectedFailures(args.expectedFailures);
  const reporter = createReporter(args, output);
  const probing = Date.now();
  const pool = args.url === undefined ? new ServerPool(args.server, args.timeoutMs) : undefined;
  const detection =
    args.url === undefined
      ? await detectServer(args.server, args.startupTimeoutMs, pool && !args.update ? probeAdopter(pool, fixtures) : undefined)
      : await detectHttpServer(args.url, args.startupTimeoutMs);
  const noRevision = nothingOffered(detection);
  if (noRevision !== undefined) {
    await pool?.close();
    await sweepRun();
    throw new ServerStartError(noRevision);
  }
  const serverCommand = args.url ?? args.server;
  reporter.start({ runnerVersion: RUNNER_VERSION, serverCommand, detection, detectionMs: Date.now() - probing });
  const options = {
    serverCommand: args.server,
    ...(args.url === undefined ? {} : { url: args.url, urlServerArgs: args.urlServerArgs }),
    stepTimeoutMs: args.timeoutMs,
    // A fixture's server starts afresh: it gets the step timeout plus twice what starting took while probing.
    startupTimeoutMs: args.timeoutMs + 2 * detection.startupMs,
    detection,
    schema,
    update: args.update,
  };
  const judged = await runInOrder(
    fixtures,
    args.jobs,
    async (fixture) => finishFixture(fixture, await runSafely(fixture, { ...options, pool }), entries, args),
    (fixture) => reporter.fixtureDone(fixture),
    startRank,
  ).finally(() => pool?.close());
  await sweepRun();
  const summary = summarize(judged, staleEntries(entries, fixtures, args.filters));
  reporter.finish(summary);
  const nothing = nothingTested(judged);
  if (nothing !== undefined) {
    output.warn?.(`mcp-conform: ${nothing}\n`);
    return 2;
  }
  return summary.failed > 0 ? 1 : 0;
}

/**
 * Which fixtures start first: one that writes megabytes (oversized-line: 33 MiB, seconds for a
 * server to read), so that the others run beside it, and those that may continue a probe's
 * process, before any other fixture takes it; then those that may change the server (server-effects.ts),
 * so that the others find shared processes nothing has changed, on which a failure needs no
 * second run on a fresh process (run-fixture.ts); last, those that end their process, so that
 * they end one the run would stop anyway (process-sharing.ts).
 */
function startRank(loaded: LoadedFixture): number {
  if (!loaded.ok) return 1;
  const need = processNeed(loaded.fixture);
  if (rawByteCount(loaded.fixture) > LARGE_RAW_BYTES || 'continuesProbe' in need || 'beforeInitialize' in need) return 0;
  if ('endsProcess' in need) return 3;
  return sentMessages(loaded.fixture).some(mayChangeServer) ? 2 : 1;
}

/**
 * Hands a detection probe's process to the pool when fixtures will continue its session: those
 * that open it with the same initialize (`protocol: VERSION`, or `any` for the newest), or repeat
 * the probe itself (the initialize-VERSION fixtures), for a revision the server offers (or the
 * newest, which `protocol: any` fixtures ask for whatever the server answers); and a legacy
 * server's server/discover probe, for a fixture that drives the lifecycle itself. Other probes
 * are stopped.
 */
function probeAdopter(pool: ServerPool, fixtures: LoadedFixture[]): AdoptProbe {
  const keys = new Set(
    fixtures.flatMap((loaded) => {
      const need = loaded.ok ? processNeed(loaded.fixture) : undefined;
      if (need !== undefined && 'continuesProbe' in need) return [`handshake ${need.continuesProbe}`];
      return need !== undefined && 'shareKey' in need ? [need.shareKey] : [];
    }),
  );
  const beforeInitialize = fixtures.some((loaded) => loaded.ok && 'beforeInitialize' in processNeed(loaded.fixture));
  return (server, initialize) => {
    if (initialize === undefined) {
      if (beforeInitialize) pool.adoptUninitialized(server);
      return beforeInitialize;
    }
    const { version, result } = initialize;
    const key = `handshake ${version}`;
    if (!keys.has(key) || (result.protocolVersion !== version && version !== NEWEST_HANDSHAKE_VERSION)) return false;
    pool.adopt(key, server, result);
    return true;
  };
}

/**
 * A run in which no fixture reached a verdict tested nothing: that is an error (exit 2), never a
 * pass, and says why (the reasons the fixtures did not run, most frequent first).
 */
export function nothingTested(judged: JudgedFixture[]): string | undefined {
  if (judged.length === 0) return 'nothing was tested: no fixture matched';
  if (judged.some((item) => item.verdict !== 'skipped' && item.verdict !== 'not-applicable')) return undefined;
  const reasons = new Map<string, number>();
  for (const item of judged) {
    const reason = item.result.skipReason ?? item.verdict;
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }
  const top = [...reasons.entries()].sort((left, right) => right[1] - left[1]).slice(0, 3);
  const lines = top.map(([reason, count]) => `  ${count} x ${reason}`);
  return `nothing was tested: none of the ${judged.length} fixtures applied to this server or ran; the reasons:\n${lines.join('\n')}`;
}

function finishFixture(
  fixture: LoadedFixture,
  result: FixtureResult,
  entries: ExpectedFailure[],
  args: RunArguments,
): JudgedFixture {
  const judged = judge(result, entries, args.failOn);
  if (!args.update || !fixture.ok || !result.completed || result.failures.length > 0) return judged;
  const text = updatedFixtureText(fixture.fixture, result.observations);
  if (text === undefined) return judged;
  writeFileSync(fixture.fixture.path, text);
  return { ...judged, updated: true };
}

/** With --filter some fixtures do not run, so only an unfiltered run can call an entry stale. */
function staleEntries(entries: ExpectedFailure[], fixtures: LoadedFixture[], filters: string[]): ExpectedFailure[] {
  if (filters.length > 0) return [];
  return unmatchedEntries(
    entries,
    fixtures.map((item) => (item.ok ? item.fixture.name : item.file.name)),
  );
}

async function runSafely(fixture: LoadedFixture, options: Parameters<typeof runFixture>[1]): Promise<FixtureResult> {
  try {
    return await runFixture(fixture, options);
  } catch (error) {
    const file = fixture.ok ? { path: fixture.fixture.path, name: fixture.fixture.name } : fixture.file;
    return runFixture(
      { ok: false, file, error: `the runner failed on this fixture: ${(error as Error).stack ?? String(error)}` },
      options,
    );
  }
}

function createReporter(args: RunArguments, output: Output): Reporter {
  if (args.reporter === 'json') return new JsonReporter(output.write);
  if (args.reporter === 'junit') return new JunitReporter(output.write);
  if (args.reporter === 'markdown') return new MarkdownReporter(output.write);
  return new TextReporter(output.write, choosePalette(output.isTerminal, output.env), args.verbose === true);
}

/** The fixtures named on the command line, or the built-in set (with the HTTP transport's when `overHttp`). */
export function fixtureFiles(paths: string[], overHttp: boolean): FixtureFile[] {
  return paths.length > 0 ? findFixtureFiles(paths) : builtinFixtures(overHttp);
}

function schemaSource(schemaDir: string | undefined): SchemaSource {
  return schemaDir === undefined ? builtinSchemas() : schemaDirectory(schemaDir);
}
