// `mcp-tracker import FILE [--dry-run]` and `mcp-tracker export [--format csv|json] [--out FILE]`,
// on whichever store the other options name: the journal file (--data, or the default path)
// or PostgreSQL (--store, or MCP_TRACKER_STORE). Only export writes data to stdout; the import
// report and every message go to stderr.
//
// An import never seeds demo data: a missing data file, or an empty database, starts empty.
import fs from 'node:fs';
import { homedir } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { CommandLine } from './cli.js';
import { openStore, resolveDataPath, stderrLogger, type TrackerStore } from './store/index.js';
import { formatReport, importJiraCsv } from './store/import-csv.js';
import { IMPORT_LIMITS, writeJiraCsv } from './store/jira-csv.js';
import { openMemoryBackend } from './store/memory-backend.js';
import { importSnapshot } from './store/snapshot.js';
import { parseSnapshot } from './store/snapshot-format.js';
import { storeOn } from './store/store.js';
import { loadPostgresBackend } from './store/store-loader.js';
import { resolveStoreUrl } from './store/store-url.js';

/** A JSON export holds the whole store: it may be larger than a CSV import may be. */
export const JSON_IMPORT_MAX_BYTES = 256 * 1024 * 1024;

interface Target {
  readonly store: TrackerStore;
  /** --user: the reporter of rows that name none, and a new project's lead when its rows name none. */
  readonly user: string | undefined;
  /** The data file, or the database URL without its password. */
  readonly where: string;
}

const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

const report = (text: string): void => {
  process.stderr.write(`[mcp-tracker] ${text}\n`);
};

/** Runs the command; the exit code: 0 done, 1 refused rows or a failure (said on stderr). */
export async function runImportExport(line: CommandLine, write: (text: string) => void): Promise<number> {
  let target: Target | undefined;
  try {
    target = await openTarget(line);
    if (line.command === 'export') return exportTo(target.store, line, write);
    return await importFrom(target, line);
  } catch (error) {
    report(`${line.command} failed: ${(error as Error).message}`);
    return 1;
  } finally {
    target?.store.close();
  }
}

async function openTarget(line: CommandLine): Promise<Target> {
  const user = line.user ?? (process.env.MCP_TRACKER_USER || undefined);
  const database = line.data ? undefined : resolveStoreUrl(line.store, process.env);
  if (database !== undefined) {
    const postgres = await loadPostgresBackend();
    const store = await postgres.openPostgresStore({
      url: database.url,
      shown: database.shown,
      log: stderrLogger,
      user,
      seed: false,
      watch: false,
    });
    return { store, where: database.shown, user };
  }
  const path = resolveDataPath({
    argv: line.data ? ['--data', line.data] : [],
    env: process.env,
    home: homedir(),
    cwd: process.cwd(),
  }).path;
  const missing = !fs.existsSync(path);
  if (missing && line.command === 'export') throw new Error(`there is no data file at ${path} to export`);
  if (missing && line.dryRun) {
    // A dry run writes nothing, not even the empty file a real import would start.
    const store = storeOn(
      openMemoryBackend(() => new Date()),
      { log: stderrLogger, user, watch: false },
    );
    return { store, where: `${path} (which does not exist yet)`, user };
  }
  return { store: await openStore({ path, log: stderrLogger, user, seed: false, watch: false }), where: path, user };
}

function exportTo(store: TrackerStore, line: CommandLine, write: (text: string) => void): number {
  const snapshot = store.exportSnapshot();
  const text = line.format === 'json' ? `${JSON.stringify(snapshot, null, 2)}\n` : writeJiraCsv(snapshot);
  if (line.out === undefined) write(text);
  else fs.writeFileSync(line.out, text);
  report(
    `exported ${count(snapshot.issues.length, 'issue')}${line.format === 'json' ? ` of ${count(snapshot.projects.length, 'project')}` : ''}${line.out ? ` to ${line.out}` : ''}`,
  );
  return 0;
}

async function importFrom(target: Target, line: CommandLine): Promise<number> {
  const file = line.importFile ?? '';
  const bytes = fs.statSync(file).size;
  const json = file.toLowerCase().endsWith('.json');
  const limit = json ? JSON_IMPORT_MAX_BYTES : IMPORT_LIMITS.fileBytes;
  if (bytes > limit)
    throw new Error(`${file} is ${bytes} bytes; an import reads at most ${limit} bytes of ${json ? 'JSON' : 'CSV'}`);
  const text = fs.readFileSync(file, 'utf8');
  const started = performance.now();
  if (json) return importJson(target, text, file, line.dryRun, started);
  const result = await importJiraCsv(target.store, text, { dryRun: line.dryRun, now: () => new Date(), actor: target.user });
  report(formatReport(result, file, target.where, (performance.now() - started) / 1000));
  return result.refused.length === 0 ? 0 : 1;
}

async function importJson(target: Target, text: string, file: string, dryRun: boolean, started: number): Promise<number> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not JSON: ${(error as Error).message}`);
  }
  const snapshot = parseSnapshot(parsed);
  const present = target.store.listProjects();
  if (present.length > 0)
    throw new Error(
      `a JSON export goes into an empty store; ${target.where} holds projects ${present.map((p) => p.key).join(', ')}`,
    );
  // Rehearsed in memory first, as a CSV import is: a document the store refuses halfway
  // (a link the rules forbid) writes nothing at all.
  const counts = await importSnapshot(
    storeOn(
      openMemoryBackend(() => new Date()),
      { log: stderrLogger, watch: false },
    ),
    snapshot,
  );
  if (!dryRun) await importSnapshot(target.store, snapshot);
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  report(
    `${dryRun ? 'dry run (nothing was written): would import' : 'imported'} ${count(counts.projects, 'project')}, ${count(counts.sprints, 'sprint')}, ` +
      `${count(counts.issues, 'issue')} and ${count(counts.links, 'link')}${counts.attachments > 0 ? ` (and ${count(counts.attachments, 'attachment')})` : ''} ` +
      `from ${file} into ${target.where} in ${seconds} s`,
  );
  return 0;
}
