// Runs one fixture file against a server process (its own, or its turn on a shared one:
// process-pool.ts), or a fresh session of an HTTP endpoint. A fixture that cannot be read or
// parsed is reported as a failure of that fixture, never as a crash of the whole run.
import { readFileSync } from 'node:fs';
import type { Fixture } from './fixture-types.js';
import type { Detection } from './detect.js';
import { revisionOf } from './fixture-types.js';
import { notApplicable, otherServerArgs } from './applicability.js';
import type { FixtureResult } from './fixture-result.js';
import type { FixtureFile } from './fixture-files.js';
import type { SchemaValidator } from './schema-validator.js';
import { parseFixture } from './fixture-parser.js';
import { ServerProcess } from './server-process.js';
import { HttpConnection } from './http-connection.js';
import { Session } from './session.js';
import type { ProcessLease, ServerPool } from './process-pool.js';
import { asWrittenIds, processNeed } from './process-sharing.js';

export interface FixtureRunOptions {
  serverCommand: string;
  /** With --url: the Streamable HTTP endpoint each fixture opens its own session with. */
  url?: string;
  /** With --url: the arguments that server was started with. */
  urlServerArgs?: string;
  stepTimeoutMs: number;
  /** How long the server may take to say anything at all (it may be starting). */
  startupTimeoutMs: number;
  /** What the server speaks (detect.ts); fixtures for other revisions do not run. */
  detection?: Detection;
  schema: SchemaValidator | undefined;
  update: boolean;
  /** Server processes that fixtures may share (stdio only); without it every fixture gets a fresh one. */
  pool?: ServerPool;
}

export type LoadedFixture = { ok: true; fixture: Fixture } | { ok: false; file: FixtureFile; error: string };

export function loadFixture(file: FixtureFile): LoadedFixture {
  try {
    return { ok: true, fixture: parseFixture(file.text ?? readFileSync(file.path, 'utf8'), file.path, file.name) };
  } catch (error) {
    return { ok: false, file, error: (error as Error).message };
  }
}

export async function runFixture(loaded: LoadedFixture, options: FixtureRunOptions): Promise<FixtureResult> {
  if (!loaded.ok) return unreadableFixture(loaded.file, loaded.error);
  const reason =
    options.url !== undefined
      ? (otherServerArgs(loaded.fixture, options.urlServerArgs) ?? applicability(loaded.fixture, options))
      : applicability(loaded.fixture, options);
  if (reason !== undefined) return notApplicableFixture(loaded.fixture, reason);
  const started = Date.now();
  if (options.pool !== undefined && options.url === undefined && !options.update) {
    const pooled = await runOnPool(loaded.fixture, options.pool, options);
    if (pooled !== undefined) return { ...pooled, durationMs: Date.now() - started };
  }
  const extraArgs = loaded.fixture.header.serverArgs;
  const server =
    options.url === undefined
      ? new ServerProcess(extraArgs === undefined ? options.serverCommand : `${options.serverCommand} ${extraArgs}`)
      : new HttpConnection(
          options.url,
          options.startupTimeoutMs,
          !loaded.fixture.steps.some((step) => step.kind === 'http-request'),
        );
  const session = new Session(loaded.fixture, server, options);
  const result = await session.run();
  return { ...result, durationMs: Date.now() - started };
}

/** The fixture's verdict from a turn on the pool's processes (process-sharing.ts says which); undefined to play it on a process of its own. */
async function runOnPool(
  fixture: Fixture,
  pool: ServerPool,
  options: FixtureRunOptions,
): Promise<Omit<FixtureResult, 'durationMs'> | undefined> {
  const need = processNeed(fixture);
  const lease =
    'continuesProbe' in need
      ? pool.continueProbe(need.continuesProbe, need.initializeId)
      : 'beforeInitialize' in need
        ? pool.continueDiscover()
        : undefined;
  if (lease !== undefined) return probeTurnVerdict(await takeTurn(fixture, lease, pool, options));
  if (!('shareKey' in need)) return undefined;
  const idsAsWritten = need.idsAsWritten === undefined ? undefined : asWrittenIds(fixture);
  if (need.endsProcess)
    return lastTurnVerdict(await takeTurn(fixture, pool.acquire(need.shareKey, idsAsWritten, true), pool, options));
  return runOnSharedProcess(fixture, need.shareKey, idsAsWritten, pool, options);
}

/**
 * The fixture's turn on a shared process. A fixture that fails there, or whose turn does not end
 * clean (process-pool.ts), is played again as the first turn of a new process, which then serves
 * on; undefined when even that was not decided (firstTurnVerdict). A failure on a process that
 * no earlier fixture changed (server-effects.ts), in a turn that ended clean and got answers only
 * to its own requests, is final: a fresh process has nothing that one lacks but the renamed ids.
 */
async function runOnSharedProcess(
  fixture: Fixture,
  shareKey: string,
  idsAsWritten: readonly string[] | undefined,
  pool: ServerPool,
  options: FixtureRunOptions,
): Promise<Omit<FixtureResult, 'durationMs'> | undefined> {
  const shared = await takeTurn(fixture, pool.acquire(shareKey, idsAsWritten), pool, options);
  if (shared.firstTurn) return firstTurnVerdict(shared);
  if (shared.clean && (shared.result.outcome !== 'failed' || shared.onUnchangedServer)) return shared.result;
  return firstTurnVerdict(await takeTurn(fixture, pool.acquireNew(shareKey), pool, options));
}

/**
 * A turn on a probe's process saw what a process of its own shows after that initialize (or,
 * continuing the server/discover probe, after a refused request and a ping): a pass (or a skip)
 * there is final. A failure is played again on a process of its own, so that the probe's process
 * (started earlier, idle since) never decides one.
 */
function probeTurnVerdict(turn: Turn): Omit<FixtureResult, 'durationMs'> | undefined {
  return turn.clean && turn.result.outcome !== 'failed' ? turn.result : undefined;
}

/**
 * The last turn of a process (the fixture closed stdin or waited for an exit), which never ends
 * clean: as on any shared process, a pass is final, and a failure is final where no earlier
 * fixture changed the server; else the fixture is played on a process of its own. On a process
 * started for it the turn was a process of its own.
 */
function lastTurnVerdict(turn: Turn): Omit<FixtureResult, 'durationMs'> | undefined {
  return turn.firstTurn || turn.result.outcome !== 'failed' || turn.onUnchangedServer ? turn.result : undefined;
}

/**
 * A first turn on a new process plays as a process of its own, handshake included, but for
 * stdin, left open at its end, so that sharing never decides a verdict. A failure (or a skip) is
 * final there: up to the fixture's last step a first turn is a process of its own. Undefined
 * when the fixture passed but its turn did not end clean: the caller plays it on a process of its
 * own, which closes stdin and reports what comes until the exit.
 */
function firstTurnVerdict(turn: Turn): Omit<FixtureResult, 'durationMs'> | undefined {
  return turn.clean || turn.result.outcome !== 'passed' ? turn.result : undefined;
}

interface Turn {
  result: Omit<FixtureResult, 'durationMs'>;
  clean: boolean;
  firstTurn: boolean;
  onUnchangedServer: boolean;
}

async function takeTurn(fixture: Fixture, lease: ProcessLease, pool: ServerPool, options: FixtureRunOptions): Promise<Turn> {
  const openedWith = lease.openedWith;
  const result = await new Session(fixture, lease, { ...options, ...(openedWith ? { openedWith } : {}) }).run();
  const turn = { result, clean: lease.endedClean, firstTurn: lease.firstTurn, onUnchangedServer: lease.onUnchangedServer };
  // A turn that ended clean leaves the process fit for the next fixture, whatever this one's verdict.
  pool.release(lease);
  return turn;
}

const applicability = (fixture: Fixture, options: FixtureRunOptions): string | undefined =>
  options.detection === undefined ? undefined : notApplicable(fixture, options.detection);

function notApplicableFixture(fixture: Fixture, reason: string): FixtureResult {
  const { name, path } = fixture;
  const revision = revisionOf(fixture.header.protocol);
  return {
    name,
    path,
    revision,
    level: 'must',
    outcome: 'not-applicable',
    skipReason: reason,
    failures: [],
    stderr: '',
    durationMs: 0,
    observations: [],
    completed: false,
  };
}

function unreadableFixture(file: FixtureFile, error: string): FixtureResult {
  return {
    name: file.name,
    path: file.path,
    revision: 'unreadable',
    level: 'must',
    outcome: 'failed',
    failures: [{ where: 'fixture file', summary: `cannot read the fixture: ${error}`, rule: ['spec-tests/FORMAT.md'] }],
    stderr: '',
    durationMs: 0,
    observations: [],
    completed: false,
  };
}
