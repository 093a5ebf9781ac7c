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
import { importPendingPath } from './import-pending.js';
import { isDomainError, openStore, resolveDataPath, stderrLogger, type TrackerStore } from './store/index.js';
import {
  exportText,
  formatReport,
  formatSnapshotImport,
  importSnapshotText,
  importJiraCsv,
  readUserMap,
  IMPORT_LIMITS,
  openMemoryBackend,
  readJiraCsv,
  storeOn,
} from './store/exchange/index.js';
import { loadPostgresBackend } from './store/store-loader.js';
import { resolveStoreUrl } from './store/store-url.js';

/** What the import_issues and export_issues tools call (lib/tracker/tools-exchange.ts), from this companion file. */
export { describeImport, exportText, formatOf, importText, IMPORT_LIMITS, readUserMap } from './store/exchange/index.js';

/** A JSON export holds the whole store: it may be larger than a CSV import may be. */
export const JSON_IMPORT_MAX_BYTES = 256 * 1024 * 1024;

interface Target {
  readonly store: TrackerStore;
  /** --user: the reporter of rows that name none, and a new project's lead when its rows name none. */
  readonly user: string | undefined;
  /** The data file, or the database URL without its password. */
  readonly where: string;
  /** The data file, when the store is one. */
  readonly file?: string;
}

/** An import's file, read and checked before any store is opened: a refused import leaves nothing behind (issue 30 item 13). */
interface ImportSource {
  readonly file: string;
  readonly text: string;
  readonly json: boolean;
}

const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

const report = (text: string): void => {
  process.stderr.write(`[mcp-tracker] ${text}\n`);
};

/** Runs the command; the exit code: 0 done, 1 refused rows or a failure (said on stderr). */
export async function runImportExport(line: CommandLine, write: (text: string) => void): Promise<number> {
  let target: Target | undefined;
  try {
    const source = line.command === 'import' ? readImportSource(line.importFile ?? '') : undefined;
    target = await openTarget(line);
    if (source === undefined) return exportTo(target.store, line, write);
    const userMap = line.userMap === undefined ? undefined : readUserMap(fs.readFileSync(line.userMap, 'utf8'));
    return await importFrom(target, source, line.dryRun, userMap);
  } catch (error) {
    report(`${line.command} failed: ${(error as Error).message}`);
    return 1;
  } finally {
    target?.store.close();
  }
}

/**
 * `mcp-tracker workflow PROJECT [FILE] [--map FROM=TO]...`: prints the project's workflow as
 * JSON (the form FILE takes: print, edit, set), or sets it from FILE. Setting is an
 * administrator's act on the command line, not a tool: a tool would cost the tools/list budget
 * every session pays, for a change made once in a project's life (docs/workflows.md).
 */
export async function runWorkflowCommand(line: CommandLine, print: (text: string) => void): Promise<number> {
  const { project, file, mapping } = line.workflow ?? { project: '', mapping: {} };
  let target: Target | undefined;
  try {
    const input = file === undefined ? undefined : readWorkflowFile(file);
    target = await openTarget(line);
    if (input === undefined) {
      print(JSON.stringify(target.store.getWorkflow(project), null, 2));
      return 0;
    }
    const { change } = await target.store.setWorkflow(project, input, mapping);
    report(change.description);
    return 0;
  } catch (error) {
    report(`workflow failed: ${(error as Error).message}`);
    return 1;
  } finally {
    target?.store.close();
  }
}

/**
 * `mcp-tracker people`: prints the directory as jira://people shows it; `people add HANDLE NAME`
 * adds a person (refused when the handle is someone's already); `people rename PERSON NAME`
 * gives the person a handle, name, e-mail or alias names a new display name (their handle, and
 * so every issue's assignee, stays). The store's checks apply as they do to a users file or an
 * import (domain/people.ts). A command, not a tool: people come from whoever runs the tracker,
 * never from the model (lib/store/domain/people.ts says why).
 */
export async function runPeopleCommand(line: CommandLine, print: (text: string) => void): Promise<number> {
  const action = line.people ?? { action: 'list' };
  let target: Target | undefined;
  try {
    target = await openTarget(line);
    const { store } = target;
    if (action.action === 'list') {
      print(JSON.stringify(store.listPeople(), null, 2));
      return 0;
    }
    if (action.action === 'add') {
      const handle = action.handle.trim().toLowerCase();
      if (knows(store, handle)) throw new Error(`${handle} is known already; people rename ${handle} NAME changes the name`);
      const { email, aliases } = action;
      report((await store.savePerson({ handle: action.handle, name: action.name, email, aliases })).description);
      return 0;
    }
    const handle = store.personHandle(action.person);
    report((await store.savePerson({ handle, name: action.name })).description);
    return 0;
  } catch (error) {
    report(`people failed: ${(error as Error).message}`);
    return 1;
  } finally {
    target?.store.close();
  }
}

/** Whether `handle` is someone's handle (not only a name that finds them). */
function knows(store: TrackerStore, handle: string): boolean {
  try {
    return store.personHandle(handle) === handle;
  } catch (error) {
    if (isDomainError(error)) return false;
    throw error;
  }
}

/** A workflow of 30 statuses with every move between them is under 40 KB. */
const WORKFLOW_FILE_MAX_BYTES = 65_536;

function readWorkflowFile(file: string): unknown {
  const bytes = fs.statSync(file).size;
  if (bytes > WORKFLOW_FILE_MAX_BYTES)
    throw new Error(`${file} is ${bytes} bytes; a workflow file is at most ${WORKFLOW_FILE_MAX_BYTES}`);
  const text = fs.readFileSync(file, 'utf8');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not JSON: ${(error as Error).message}`);
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
  if (missing && (line.command === 'export' || line.command === 'workflow' || line.command === 'people'))
    throw new Error(`there is no data file at ${path} to ${line.command === 'export' ? 'export' : 'change'}`);
  if (missing && line.dryRun) {
    // A dry run writes nothing, not even the empty file a real import would start.
    const store = storeOn(
      openMemoryBackend(() => new Date()),
      { log: stderrLogger, user, watch: false },
    );
    return { store, where: `${path} (which does not exist yet)`, user };
  }
  return { store: await openStore({ path, log: stderrLogger, user, seed: false, watch: false }), where: path, user, file: path };
}

function exportTo(store: TrackerStore, line: CommandLine, write: (text: string) => void): number {
  const { text, issues, projects } = exportText(store, line.format ?? 'csv');
  if (line.out === undefined) write(text);
  else fs.writeFileSync(line.out, text);
  report(
    `exported ${count(issues, 'issue')}${line.format === 'json' ? ` of ${count(projects, 'project')}` : ''}${line.out ? ` to ${line.out}` : ''}`,
  );
  return 0;
}

function readImportSource(file: string): ImportSource {
  const bytes = fs.statSync(file).size;
  const json = file.toLowerCase().endsWith('.json');
  const limit = json ? JSON_IMPORT_MAX_BYTES : IMPORT_LIMITS.fileBytes;
  if (bytes > limit)
    throw new Error(`${file} is ${bytes} bytes; an import reads at most ${limit} bytes of ${json ? 'JSON' : 'CSV'}`);
  const text = fs.readFileSync(file, 'utf8');
  if (!json) readJiraCsv(text); // unreadable: refused here, before a store (and a new data file) is opened
  return { file, text, json };
}

async function importFrom(
  target: Target,
  source: ImportSource,
  dryRun: boolean,
  userMap: ReadonlyMap<string, string> | undefined,
): Promise<number> {
  const { file, text } = source;
  const started = performance.now();
  if (source.json) return importJson(target, text, file, dryRun, started);
  const pending = dryRun || target.file === undefined ? undefined : markImportPending(target.file, file);
  const result = await importJiraCsv(target.store, text, { dryRun, now: () => new Date(), actor: target.user, userMap });
  report(formatReport(result, file, target.where, (performance.now() - started) / 1000));
  if (pending !== undefined) fs.rmSync(pending, { force: true });
  return result.refused.length === 0 ? 0 : 1;
}

/**
 * A file beside the data file while an import writes, removed when it ends: if it is there when
 * an import starts, the last one was interrupted (killed, the machine stopped), and we say so.
 * Running the import again is then safe: the rows it wrote are there with their keys and titles,
 * and are not written twice (import-csv.ts alreadyPresent: updated by key).
 */
function markImportPending(dataFile: string, source: string): string {
  const marker = importPendingPath(dataFile);
  if (fs.existsSync(marker)) {
    let earlier = '';
    try {
      earlier = fs.readFileSync(marker, 'utf8').trim();
    } catch {
      // unreadable: said without its details
    }
    report(
      `an earlier import did not finish${earlier ? ` (${earlier})` : ''}; the rows it wrote are recognised by key and not written again`,
    );
  }
  fs.writeFileSync(marker, `${source}, started ${new Date().toISOString()}, process ${process.pid}\n`);
  return marker;
}

async function importJson(target: Target, text: string, file: string, dryRun: boolean, started: number): Promise<number> {
  const counts = await importSnapshotText(target.store, text, { dryRun, now: () => new Date() });
  report(formatSnapshotImport(counts, dryRun, file, target.where, (performance.now() - started) / 1000));
  return 0;
}
