// An import or an export as text in and text out, with a dry run: what `mcp-tracker import` and
// `export` do on their files, and what the import_issues and export_issues tools do on their
// arguments (lib/tracker/tools-exchange.ts), so the two say the same and refuse the same.
//
// A dry run is the import's rehearsal alone: it runs against a copy of the store in memory
// (import-csv.ts for CSV, importSnapshotText below for JSON) and reports what the real run
// would import, update and refuse; the store itself is never written to.
import { domainError } from '../model/errors.js';
import { parseSnapshot } from '../model/snapshot-format.js';
import { silentLogger } from '../model/log.js';
import { openMemoryBackend } from '../backend/memory-backend.js';
import { storeOn } from '../store.js';
import type { TrackerStore } from '../store-api.js';
import { importJiraCsv } from './import-csv.js';
import { formatReport, type ImportReport } from './import-report.js';
import { JiraCsvError, writeJiraCsv } from './jira-csv.js';
import { importSnapshot, type SnapshotImport } from './snapshot-import.js';

export type ExchangeFormat = 'csv' | 'json';

export interface TextImportOptions {
  readonly dryRun: boolean;
  /** The day sprints created by a CSV import start on; tests pass a fixed clock. */
  readonly now: () => Date;
  /** Reporter of rows that name none. */
  readonly actor?: string;
  /** Names and account ids to handles (jira-mapping.ts readUserMap). */
  readonly userMap?: ReadonlyMap<string, string>;
}

/** What an import did, or would do: a CSV's report row by row, or a JSON document's counts. */
export type TextImport =
  | { readonly format: 'csv'; readonly dryRun: boolean; readonly report: ImportReport }
  | { readonly format: 'json'; readonly dryRun: boolean; readonly counts: SnapshotImport };

/** A JSON export is an object; anything else is read as a Jira CSV. */
export function formatOf(text: string): ExchangeFormat {
  return text.trimStart().startsWith('{') ? 'json' : 'csv';
}

/** Imports `text` in `format`; a file that cannot be read at all is refused as a domain error, nothing written. */
export async function importText(
  store: TrackerStore,
  text: string,
  format: ExchangeFormat,
  options: TextImportOptions,
): Promise<TextImport> {
  if (format === 'json') return { format, dryRun: options.dryRun, counts: await importSnapshotText(store, text, options) };
  try {
    return { format, dryRun: options.dryRun, report: await importJiraCsv(store, text, options) };
  } catch (error) {
    if (error instanceof JiraCsvError) throw domainError('invalid_argument', error.message);
    throw error;
  }
}

/**
 * A JSON export into an empty store. Rehearsed in memory first, as a CSV import is: a document
 * the store refuses halfway (a link the rules forbid) writes nothing at all; a dry run stops there.
 */
export async function importSnapshotText(
  store: TrackerStore,
  text: string,
  { dryRun, now }: Pick<TextImportOptions, 'dryRun' | 'now'>,
): Promise<SnapshotImport> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw domainError('invalid_argument', `Not JSON: ${(error as Error).message}.`);
  }
  const snapshot = parseSnapshot(parsed);
  const present = store.listProjects();
  if (present.length > 0)
    throw domainError(
      'conflict',
      `A JSON export goes into an empty store; ${store.path} holds projects ${present.map((p) => p.key).join(', ')}. Nothing was imported.`,
    );
  const counts = await importSnapshot(storeOn(openMemoryBackend(now), { log: silentLogger, now, watch: false }), snapshot);
  if (!dryRun) await importSnapshot(store, snapshot);
  return counts;
}

/** The whole store as a Jira CSV (issues) or a JSON export (everything), with what it holds. */
export function exportText(store: TrackerStore, format: ExchangeFormat): { text: string; issues: number; projects: number } {
  const snapshot = store.exportSnapshot();
  const text = format === 'json' ? `${JSON.stringify(snapshot, null, 2)}\n` : writeJiraCsv(snapshot);
  return { text, issues: snapshot.issues.length, projects: snapshot.projects.length };
}

/** What an import did (or would do), in numbers and as the report the command prints. */
export interface ImportSummary {
  /** Issues written new. */
  readonly imported: number;
  /** Rows naming an issue the store has, and what they changed. */
  readonly updated: number;
  readonly unchanged: number;
  readonly refused: number;
  readonly report: string;
}

/** The summary of an import of `source` into `where` that took `seconds`. */
export function describeImport(done: TextImport, source: string, where: string, seconds: number): ImportSummary {
  if (done.format === 'json') {
    return {
      imported: done.counts.issues,
      updated: 0,
      unchanged: 0,
      refused: 0,
      report: formatSnapshotImport(done.counts, done.dryRun, source, where, seconds),
    };
  }
  const { report } = done;
  const updated = report.alreadyPresent.filter((entry) => entry.changes.length > 0).length;
  return {
    imported: report.imported.length,
    updated,
    unchanged: report.alreadyPresent.length - updated,
    refused: report.refused.length,
    report: formatReport(report, source, where, seconds),
  };
}

const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** A JSON import's one line: what it brought, or would bring, from where into where. */
export function formatSnapshotImport(
  counts: SnapshotImport,
  dryRun: boolean,
  source: string,
  where: string,
  seconds: number,
): string {
  // The kinds a document may leave out, when it has them: " (and 1 attachment and 5 people)".
  const also = [
    ...(counts.attachments > 0 ? [count(counts.attachments, 'attachment')] : []),
    ...(counts.people > 0 ? [`${counts.people} ${counts.people === 1 ? 'person' : 'people'}`] : []),
  ];
  return (
    `${dryRun ? 'dry run (nothing was written): would import' : 'imported'} ${count(counts.projects, 'project')}, ` +
    `${count(counts.sprints, 'sprint')}, ${count(counts.issues, 'issue')} and ${count(counts.links, 'link')}` +
    `${also.length === 0 ? '' : ` (and ${also.join(' and ')})`} from ${source} into ${where} in ${seconds.toFixed(2)} s`
  );
}
