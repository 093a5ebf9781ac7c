// mcp-tracker: the entry point of the bundled server (dist/mcp-tracker.mjs).
//
// The first import redirects console.* and process.stdout.write to stderr, before any other
// module runs: from then on only the protocol's writer can reach stdout.
import '../protocol/stdout-guard.js';

import { readFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { encodeLineBytes } from '../protocol/json-rpc.js';
import { createServer } from '../protocol/server.js';
import { serveStdio } from '../protocol/stdio.js';
import { claimStdout } from '../protocol/stdout-guard.js';
import { afterCodeCache } from './after-code-cache.js';
import { parseCommandLine, type CommandLine } from './cli.js';
import { CompanionMissing } from './companion-bundle.js';
import { loadDemo } from './demo/demo-loader.js';
import { makeEphemeralFolder } from './ephemeral-folder.js';
import { loadHelp } from './help-loader.js';
import { loadHttpServing } from './http-loader.js';
import { loadImportExport } from './import-export-loader.js';
import { pendingImportNotice } from './import-pending.js';
import {
  isDomainError,
  isStoreFileError,
  loadWrites,
  openStore,
  queryLanguage,
  resolveDataPath,
  stderrLogger,
  type TrackerStore,
} from './store/index.js';
import { loadPostgresBackend } from './store/store-loader.js';
import { resolveStoreUrl, type PostgresStoreUrl } from './store/store-url.js';
import { SERVER_INFO, createTrackerServer } from './tracker/server.js';
import { type ToolSelection, parseReadOnlyVariable, parseToolsets } from './tracker/toolsets.js';

/** How long stdin stays quiet before the companions are loaded ahead of the first write and query. */
const QUIET_BEFORE_LOADING_COMPANIONS_MS = 500;

const report = (line: string): void => {
  process.stderr.write(`[mcp-tracker] ${line}\n`);
};

async function main(): Promise<void> {
  let line: CommandLine;
  try {
    line = parseCommandLine(process.argv.slice(2));
  } catch (error) {
    report(`${(error as Error).message}\n\`mcp-tracker --help\` lists the commands and options.`);
    process.exit(2);
  }
  if (line.command !== 'serve') {
    // Not serving: stdout is ours to print on.
    const write = claimStdout();
    const print = (text: string) => write(`${text}\n`);
    if (line.command === 'help') print((await loadHelp()).USAGE);
    else if (line.command === 'version') print(SERVER_INFO.version);
    else if (line.command === 'migrate' || line.command === 'copy-journal') process.exitCode = await manageDatabase(line, print);
    else if (line.command === 'import' || line.command === 'export')
      process.exitCode = await (await loadImportExport()).runImportExport(line, write);
    else if (line.command === 'workflow') process.exitCode = await (await loadImportExport()).runWorkflowCommand(line, print);
    else if (line.command === 'people') process.exitCode = await (await loadImportExport()).runPeopleCommand(line, print);
    else if (line.tour) {
      const { runTour } = await loadDemo();
      const run = await runTour({ chapter: line.tour.chapter, serverScript: process.argv[1] ?? '', print });
      process.exitCode = run.exitCode;
    } else process.exitCode = await (await loadDemo()).runDemo({ trace: line.trace, serverScript: process.argv[1] ?? '', print });
    return;
  }
  await serve(line);
}

/** `migrate` and `copy-journal`: what was done on stdout, a failure on stderr with exit code 1. */
async function manageDatabase(line: CommandLine, print: (text: string) => void): Promise<number> {
  try {
    const database = resolveStoreUrl(line.store, process.env);
    if (database === undefined) throw new Error(`${line.command} needs --store postgres://... (or MCP_TRACKER_STORE)`);
    const postgres = await loadPostgresBackend();
    if (line.command === 'migrate') {
      await postgres.migrateDatabase(database.url, database.shown, stderrLogger);
      print(`${database.shown} is at the schema this mcp-tracker knows`);
    } else {
      const copied = await postgres.copyJournal(line.journal ?? '', database.url, database.shown, stderrLogger);
      print(`copied ${copied} records from ${line.journal} into ${database.shown}`);
    }
    return 0;
  } catch (error) {
    report(`${line.command} failed: ${(error as Error).message}`);
    return 1;
  }
}

/** The PostgreSQL store when --store (or MCP_TRACKER_STORE) names one; reported by its URL without credentials. */
async function openPostgres(database: PostgresStoreUrl, user: string | undefined): Promise<TrackerStore> {
  const postgres = await loadPostgresBackend();
  return postgres.openPostgresStore({ url: database.url, shown: database.shown, log: stderrLogger, user });
}

async function serve(line: CommandLine): Promise<void> {
  // V8 grows the young generation from 1 to 16 MiB per semi-space under a steady stream of
  // requests, and lets the old generation grow far past what it holds before collecting it:
  // much more resident memory for a little more throughput (docs/performance.md). A server
  // that sits beside many others in a host is better off small. Both are decided at each
  // collection, so changing the flags now, before serving, takes effect. In the bundle they wait
  // for its code cache to be written, if this start writes one (lib/after-code-cache.ts).
  afterCodeCache(() => {
    setFlagsFromString('--semi-space-growth-factor=1');
    setFlagsFromString('--optimize-for-size');
  });
  let database: PostgresStoreUrl | undefined;
  let tools: ToolSelection;
  try {
    database = line.data || line.ephemeral ? undefined : resolveStoreUrl(line.store, process.env);
    tools = toolSelection(line);
  } catch (error) {
    report((error as Error).message);
    process.exit(2);
  }
  // The HTTP transport's bundle before the store: a missing file is reported before any data file is made.
  const http = line.http ? await loadHttpServing() : undefined;
  const temporary = line.ephemeral ? ephemeralFolder() : undefined;
  const dataPath = temporary
    ? join(temporary, 'tracker.jsonl')
    : resolveDataPath({ argv: line.data ? ['--data', line.data] : [], env: process.env, home: homedir(), cwd: process.cwd() })
        .path;

  let store;
  const where = database?.shown ?? dataPath;
  try {
    // --user wins over MCP_TRACKER_USER; an empty variable is no user.
    const user = line.user ?? (process.env.MCP_TRACKER_USER || undefined);
    store = database ? await openPostgres(database, user) : await openStore({ path: dataPath, log: stderrLogger, user });
  } catch (error) {
    // A data file we cannot read is reported with where it is, and left as it is.
    report(isStoreFileError(error) || isDomainError(error) ? error.message : `cannot open ${where}: ${(error as Error).message}`);
    process.exit(1);
  }
  report(`serving ${where}`);
  const pendingImport = database ? undefined : pendingImportNotice(dataPath);
  if (pendingImport !== undefined) report(pendingImport);

  const tracker = createTrackerServer(store, { pageSize: line.pageSize, requestStateKey: stateKey(line), tools });
  const server = createServer(tracker.definition, report);
  const disconnect = tracker.connect(server, report);
  const release = (): void => {
    disconnect();
    store.close();
    if (temporary) rmSync(temporary, { recursive: true, force: true });
  };
  if (http && line.http) {
    // A token file we cannot read or an address in use: say so and stop, before serving anything.
    return http
      .serveTrackerOverHttp({ server, store, line, address: line.http, release, report, encodeLine: encodeLineBytes })
      .catch((error: Error) => {
        report(`cannot serve over HTTP: ${error.message}`);
        release();
        process.exit(1);
      });
  }
  serveStdio(server, {
    maxMessageBytes: line.maxMessageBytes,
    maxInFlight: line.maxInFlight,
    maxQueuedBytes: line.maxQueuedBytes,
    maxDepth: line.maxDepth,
    report,
    onShutdown: release,
  });
  loadCompanionsWhenQuiet(tools.readOnly === true);
}

/** --ephemeral's folder, after removing those of earlier ephemeral servers that are gone (lib/ephemeral-folder.ts). */
function ephemeralFolder(): string {
  try {
    return makeEphemeralFolder(report);
  } catch (error) {
    report(`cannot make a temporary folder for --ephemeral: ${(error as Error).message}`);
    process.exit(1);
  }
}

/**
 * The store's commands (dist/mcp-tracker-writes.mjs) are loaded on the first write, and the
 * occasional reads (dist/mcp-tracker-reads.cjs: the query language, the sprint reports, the
 * completions, the chart; one file, which `require` keeps once loaded, so loading the query
 * language loads them all) on the first query, so a start does not parse them; the first
 * write or query then paid for loading them, most of it evaluating the module (docs/performance.md).
 * A host starts a server, lists what it offers, and its first call comes seconds later, when a
 * person asks: so once stdin has been quiet for a moment after the start, they are loaded, and the
 * first write or query finds them loaded. The load runs on this thread:
 * a request that arrives during it waits for it, once. A read-only server never writes.
 */
function loadCompanionsWhenQuiet(readOnly: boolean): void {
  let lastInput = performance.now();
  const heard = (): void => {
    lastInput = performance.now();
  };
  process.stdin.on('data', heard);
  const load = (): void => {
    const quiet = performance.now() - lastInput;
    if (quiet < QUIET_BEFORE_LOADING_COMPANIONS_MS) {
      setTimeout(load, QUIET_BEFORE_LOADING_COMPANIONS_MS - quiet).unref();
      return;
    }
    process.stdin.off('data', heard);
    if (process.stdin.readableEnded || process.stdin.destroyed) return; // shutting down: nothing left to serve
    // A companion missing or unreadable: the first write or query names the file to copy (lib/companion-bundle.ts).
    try {
      queryLanguage();
    } catch {
      // named again by the first query
    }
    if (!readOnly) loadWrites().catch(() => undefined);
  };
  setTimeout(load, QUIET_BEFORE_LOADING_COMPANIONS_MS).unref();
}

/** --toolsets wins over MCP_TRACKER_TOOLSETS; --read-only or MCP_TRACKER_READ_ONLY turns read-only on. */
function toolSelection(line: CommandLine): ToolSelection {
  const fromEnv = process.env.MCP_TRACKER_TOOLSETS;
  const toolsets = line.toolsets ?? (fromEnv ? parseToolsets(fromEnv, 'MCP_TRACKER_TOOLSETS') : undefined);
  return { toolsets, readOnly: line.readOnly || parseReadOnlyVariable(process.env.MCP_TRACKER_READ_ONLY) };
}

/**
 * The MRTR requestState key, when instances share one: the bytes of --state-key-file, else
 * $MCP_TRACKER_STATE_KEY as hex (64 characters or more); else none (random per process).
 */
function stateKey(line: CommandLine): Uint8Array | undefined {
  const key = line.stateKeyFile
    ? readFileSync(line.stateKeyFile)
    : process.env.MCP_TRACKER_STATE_KEY
      ? Buffer.from(process.env.MCP_TRACKER_STATE_KEY, 'hex')
      : undefined;
  if (key && key.length < 32) {
    report('the requestState key needs at least 32 bytes (64 hex characters in MCP_TRACKER_STATE_KEY)');
    process.exit(2);
  }
  return key;
}

// A bug must not take the server down with a request half-answered: report it and go on.
process.on('uncaughtException', (error) => report(`internal error: ${error.stack ?? error.message}`));
process.on('unhandledRejection', (reason) =>
  report(`internal error: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`),
);

void main().catch((error: unknown) => {
  if (!(error instanceof CompanionMissing)) throw error;
  report(error.message);
  process.exit(1);
});
