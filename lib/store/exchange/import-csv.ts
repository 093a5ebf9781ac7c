// `mcp-tracker import FILE.csv`: Jira CSV rows into the store, each through the store's
// import commands (import-commands.ts), which check it as the tools check theirs.
//
// A refused row never reaches the disk, and a row's parent or linked issue may come after it
// in the file. Both are kept by a rehearsal: the whole import first runs against a copy of the
// store in memory (memory-backend.ts), rows in one pass, parents and links in a second. A row
// is imported whole (fields, parent, links) or refused; a refused row is left out and the
// rehearsal runs again, until no row is refused, so a row linked to a refused one is refused
// too. The real run then writes only rows that passed. A dry run is the rehearsal alone.
//
// Projects and sprints a row names and the store lacks are created: a project with the
// row's Project name and Project lead (else its key and the row's reporter), a sprint by the
// name in the Sprint column, as a future sprint of two weeks from the day of the import.
// Keys: rows are written in key order per project, and each keeps its key when its number is
// above every number its project has used (so into an empty store every key is kept);
// otherwise it takes the project's next number, and the report lists how keys moved.
// Comments come with their row (jira-csv.ts reads their cells) and are checked with it: a
// comment the store refuses (too long, an author that is no handle) refuses its whole row.
import { parseIssueKey } from '../model/args.js';
import { isDomainError } from '../model/errors.js';
import { COLUMN, LINK_COLUMNS, jiraTime, readCommentCell, readJiraCsv, type JiraRow } from './jira-csv.js';
import type { Issue, LinkType } from '../model/schema.js';
import type { ImportIssueInput } from '../domain/import-commands.js';
import { openMemoryBackend } from '../backend/memory-backend.js';
import { importSnapshot } from './snapshot-import.js';
import { compareStrings, issueNumber } from '../state/state.js';
import { storeOn } from '../store.js';
import type { TrackerStore } from '../store-api.js';
import { silentLogger } from '../model/log.js';

export interface ImportReport {
  readonly dryRun: boolean;
  readonly rows: number;
  /** Each imported row with the key it had in the file (null: none), the key it has now, and its comments. */
  readonly imported: readonly {
    readonly row: number;
    readonly from: string | null;
    readonly key: string;
    readonly comments: number;
  }[];
  readonly refused: readonly RowRefusal[];
  /**
   * Rows whose key names an issue of the same title already in the store: an earlier run of the
   * same import wrote them (one interrupted, issue 30), so they are not written again. Running an
   * import again thus ends with exactly the file's issues.
   */
  readonly alreadyPresent: readonly { readonly row: number; readonly key: string }[];
  readonly projectsCreated: readonly string[];
  readonly sprintsCreated: readonly string[];
  readonly parentsLinked: number;
  /** Issue links made (blocks, relates to, duplicates): a link given at both ends counts once. */
  readonly issuesLinked: number;
  readonly ignoredColumns: readonly string[];
}

export interface RowRefusal {
  readonly row: number;
  readonly line: number;
  readonly key: string | null;
  readonly reason: string;
}

export interface CsvImportOptions {
  readonly dryRun: boolean;
  /** The day sprints created by the import start on; tests pass a fixed clock. */
  readonly now: () => Date;
  /** Reporter of rows that name none, and the rehearsal's actor: the store's own. */
  readonly actor?: string;
}

/** Reads the text (JiraCsvError when it cannot be read at all), rehearses, then writes what passed. */
export async function importJiraCsv(store: TrackerStore, text: string, options: CsvImportOptions): Promise<ImportReport> {
  const file = readJiraCsv(text);
  const { rehearsal, refused } = await rehearse(store, file.rows, options);
  const passed = new Set([...rehearsal.imported, ...rehearsal.alreadyPresent].map((entry) => entry.row));
  const outcome = options.dryRun
    ? rehearsal
    : await runRows(
        store,
        file.rows.filter((row) => passed.has(row.row)),
        options,
        [],
      );
  const all = [...refused, ...(options.dryRun ? [] : outcome.refused)].sort((a, b) => a.row - b.row);
  return { ...outcome, refused: all, dryRun: options.dryRun, rows: file.rows.length, ignoredColumns: file.ignoredColumns };
}

/**
 * Runs the rows on a fresh copy until no new row is refused: a row refused in the link pass
 * (after rows that link to it were linked) takes those rows' links away in the real run, so
 * they are tried again without it. Each round refuses at least one more row, or ends.
 */
async function rehearse(
  store: TrackerStore,
  rows: readonly JiraRow[],
  options: CsvImportOptions,
): Promise<{ rehearsal: RunOutcome; refused: RowRefusal[] }> {
  const refused: RowRefusal[] = [];
  for (;;) {
    const gone = new Set(refused.map((refusal) => refusal.row));
    const rehearsal = await runRows(
      await copyOf(store, options),
      rows.filter((row) => !gone.has(row.row)),
      options,
      refused,
    );
    refused.push(...rehearsal.refused);
    if (rehearsal.refused.length === 0) return { rehearsal, refused };
  }
}

/** The store's data in a store in memory, through the JSON export and import (a round trip the tests prove). */
async function copyOf(store: TrackerStore, options: CsvImportOptions): Promise<TrackerStore> {
  const copy = storeOn(openMemoryBackend(options.now), {
    log: silentLogger,
    now: options.now,
    actor: options.actor,
    watch: false,
  });
  await importSnapshot(copy, store.exportSnapshot());
  return copy;
}

type RunOutcome = Omit<ImportReport, 'dryRun' | 'rows' | 'ignoredColumns'>;

async function runRows(
  store: TrackerStore,
  rows: readonly JiraRow[],
  options: CsvImportOptions,
  earlier: readonly RowRefusal[],
): Promise<RunOutcome> {
  const refused: RowRefusal[] = [];
  const refuse = (row: JiraRow, reason: string): void => {
    refused.push({ row: row.row, line: row.line, key: row.cell(COLUMN.key) || null, reason });
  };
  const projectsCreated: string[] = [];
  const sprintsCreated: string[] = [];
  const imported: { row: number; from: string | null; key: string; comments: number }[] = [];
  const alreadyPresent: { row: number; key: string }[] = [];
  const written = new Map<JiraRow, string>();
  const keysInFile = new Map<string, string>();
  for (const { row, project, number } of inKeyOrder(rows, refuse)) {
    try {
      if (!store.listProjects().some((p) => p.key === project)) {
        await store.importProject({
          key: project,
          name: row.cell(COLUMN.projectName) || project,
          description: row.cell(COLUMN.projectDescription),
          lead: row.cell(COLUMN.projectLead) || row.cell(COLUMN.reporter) || (options.actor ?? 'assistant'),
        });
        projectsCreated.push(project);
      }
      const present = number === null ? undefined : samePresent(store, `${project}-${number}`, row.cell(COLUMN.summary));
      const sprint = await sprintOf(store, project, lastFilled(row.cells(COLUMN.sprint)), options.now(), sprintsCreated);
      const issue =
        present ??
        (await store.importIssue(issueInput(row, project, number === null ? undefined : `${project}-${number}`, sprint)));
      // Its links are made again (a link made before is made once: linkPass), in case the earlier run stopped before them.
      written.set(row, issue.key);
      for (const name of [row.cell(COLUMN.key), row.cell(COLUMN.id)])
        if (name !== '') keysInFile.set(name.toUpperCase(), issue.key);
      if (present !== undefined) alreadyPresent.push({ row: row.row, key: issue.key });
      else imported.push({ row: row.row, from: row.cell(COLUMN.key) || null, key: issue.key, comments: issue.comments.length });
    } catch (error) {
      if (!isDomainError(error)) throw error;
      refuse(row, error.message);
    }
  }
  const linked = await linkPass(store, written, keysInFile, [...earlier, ...refused], refuse);
  const refusedNow = new Set(refused.map((r) => r.row));
  return {
    imported: imported.filter((entry) => !refusedNow.has(entry.row)),
    refused,
    alreadyPresent,
    projectsCreated,
    sprintsCreated,
    ...linked,
  };
}

/** The issue a row's key names, when it is there with the row's title: the row was imported before. */
function samePresent(store: TrackerStore, key: string, title: string): Issue | undefined {
  let issue: Issue;
  try {
    issue = store.getIssue(key);
  } catch (error) {
    if (isDomainError(error)) return undefined; // no such issue (or project)
    throw error;
  }
  return issue.title === title.trim() ? issue : undefined;
}

/** One link a row asks for: its parent, or a Jira issue link, outward (this row → other) or inward. */
interface RowLink {
  readonly type: 'parent' | LinkType;
  readonly other: string;
  readonly inward: boolean;
}

function linksOf(row: JiraRow): RowLink[] {
  const links: RowLink[] = [];
  if (row.cell(COLUMN.parent) !== '') links.push({ type: 'parent', other: row.cell(COLUMN.parent), inward: false });
  for (const { type, outward, inward } of LINK_COLUMNS) {
    for (const other of row.cells(outward)) if (other !== '') links.push({ type, other, inward: false });
    for (const other of row.cells(inward)) if (other !== '') links.push({ type, other, inward: true });
  }
  return links;
}

/**
 * The second pass, once every row is written: parents and issue links, whichever row came
 * first. A row whose link cannot be made is refused (and the rehearsal tries again without it).
 */
async function linkPass(
  store: TrackerStore,
  written: ReadonlyMap<JiraRow, string>,
  keysInFile: ReadonlyMap<string, string>,
  refused: readonly RowRefusal[],
  refuse: (row: JiraRow, reason: string) => void,
): Promise<{ parentsLinked: number; issuesLinked: number }> {
  let parentsLinked = 0;
  let issuesLinked = 0;
  for (const [row, key] of written) {
    for (const link of linksOf(row)) {
      const what = link.type === 'parent' ? `its parent ${link.other}` : `its link (${link.type}) with ${link.other}`;
      const otherRow = refused.find((r) => r.key !== null && r.key.toUpperCase() === link.other.toUpperCase());
      if (otherRow !== undefined) {
        refuse(row, `${what}: row ${otherRow.row}, that issue, was refused`);
        break;
      }
      const other = keysInFile.get(link.other.toUpperCase()) ?? link.other;
      try {
        const made = await (link.inward ? store.linkIssues(other, link.type, key) : store.linkIssues(key, link.type, other));
        // A link the file gives at both ends (Jira writes both) is made once.
        if (made.change.issues.length === 0) continue;
        if (link.type === 'parent') parentsLinked++;
        else issuesLinked++;
      } catch (error) {
        if (!isDomainError(error)) throw error;
        refuse(row, `${what}: ${error.message}`);
        break;
      }
    }
  }
  return { parentsLinked, issuesLinked };
}

interface PlacedRow {
  readonly row: JiraRow;
  readonly project: string;
  /** The number of the row's key, when it has one. */
  readonly number: number | null;
}

/** Rows by project, then by the number of their key (rows without a key after, in file order); unreadable ones refused. */
function inKeyOrder(rows: readonly JiraRow[], refuse: (row: JiraRow, reason: string) => void): PlacedRow[] {
  const placed: PlacedRow[] = [];
  for (const row of rows) {
    if (row.unreadable !== undefined) {
      refuse(row, `the row cannot be read: ${row.unreadable}`);
      continue;
    }
    try {
      const key = row.cell(COLUMN.key) === '' ? null : parseIssueKey(row.cell(COLUMN.key));
      const project = (row.cell(COLUMN.projectKey) || (key === null ? '' : key.slice(0, key.lastIndexOf('-')))).toUpperCase();
      if (key !== null && row.cell(COLUMN.projectKey) !== '' && !key.startsWith(`${project}-`)) {
        refuse(row, `its Issue key ${key} is not in its Project key ${project}`);
        continue;
      }
      placed.push({ row, project, number: key === null ? null : issueNumber(key) });
    } catch (error) {
      if (!isDomainError(error)) throw error;
      refuse(row, error.message);
    }
  }
  const order = (entry: PlacedRow): number => entry.number ?? Number.MAX_SAFE_INTEGER;
  return placed.sort((a, b) => compareStrings(a.project, b.project) || order(a) - order(b) || a.row.row - b.row.row);
}

function issueInput(row: JiraRow, project: string, key: string | undefined, sprint: string | null): ImportIssueInput {
  const optional = (value: string): string | undefined => (value === '' ? undefined : value);
  const points = row.cell(COLUMN.storyPoints);
  return {
    project,
    key,
    title: row.cell(COLUMN.summary),
    description: row.cell(COLUMN.description),
    type: optional(row.cell(COLUMN.type)),
    status: optional(row.cell(COLUMN.status)),
    priority: optional(row.cell(COLUMN.priority)),
    resolution: optional(row.cell(COLUMN.resolution)),
    assignee: optional(row.cell(COLUMN.assignee)) ?? null,
    reporter: optional(row.cell(COLUMN.reporter)),
    labels: row.cells(COLUMN.labels).flatMap((cell) => cell.split(/\s+/).filter((label) => label !== '')),
    sprint,
    story_points: points === '' ? null : Number(points),
    created_at: optional(row.cell(COLUMN.created)) && jiraTime(row.cell(COLUMN.created)),
    updated_at: optional(row.cell(COLUMN.updated)) && jiraTime(row.cell(COLUMN.updated)),
    comments: row
      .cells(COLUMN.comment)
      .filter((cell) => cell !== '')
      .map(readCommentCell),
  };
}

function lastFilled(values: readonly string[]): string {
  return [...values].reverse().find((value) => value !== '') ?? '';
}

/** The project's sprint of that id or name (case aside), created as a future sprint when there is none. */
async function sprintOf(
  store: TrackerStore,
  project: string,
  name: string,
  now: Date,
  created: string[],
): Promise<string | null> {
  if (name === '') return null;
  const wanted = name.toLowerCase();
  const found = store.listSprints({ project }).find((s) => s.id.toLowerCase() === wanted || s.name.toLowerCase() === wanted);
  if (found !== undefined) return found.id;
  const day = (offset: number): string => new Date(now.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  const sprint = await store.importSprint({ project, name, start_date: day(0), end_date: day(14) });
  created.push(sprint.id);
  return sprint.id;
}

/** The report as the command prints it (on stderr: only export writes data to stdout). */
export function formatReport(report: ImportReport, source: string, target: string, seconds: number): string {
  const lines = [
    `${report.dryRun ? 'dry run: ' : ''}import of ${source} into ${target}${report.dryRun ? ' (nothing was written)' : ''}`,
    `${report.rows} rows read: ${report.imported.length} ${report.dryRun ? 'would be ' : ''}imported, ${report.refused.length} refused, in ${seconds.toFixed(2)} s`,
  ];
  if (report.alreadyPresent.length > 0)
    lines.push(`${report.alreadyPresent.length} rows already imported (same key and title in the store): not written again`);
  if (report.projectsCreated.length > 0) lines.push(`projects created: ${report.projectsCreated.join(', ')}`);
  if (report.sprintsCreated.length > 0) lines.push(`sprints created: ${report.sprintsCreated.join(', ')}`);
  if (report.parentsLinked > 0) lines.push(`parent epics linked: ${report.parentsLinked}`);
  if (report.issuesLinked > 0) lines.push(`issue links made: ${report.issuesLinked}`);
  const comments = report.imported.reduce((sum, entry) => sum + entry.comments, 0);
  if (comments > 0)
    lines.push(`comments: ${comments}, on ${report.imported.filter((entry) => entry.comments > 0).length} issues`);
  const moved = report.imported.filter((entry) => entry.from !== null && entry.from.toUpperCase() !== entry.key);
  const fresh = report.imported.filter((entry) => entry.from === null).length;
  lines.push(
    moved.length === 0
      ? 'keys: every key in the file was kept'
      : `keys: ${moved.length} renumbered (the project had used those numbers):`,
  );
  for (const entry of moved.slice(0, 50)) lines.push(`  row ${entry.row}: ${entry.from} -> ${entry.key}`);
  if (moved.length > 50) lines.push(`  ... and ${moved.length - 50} more`);
  if (fresh > 0) lines.push(`${fresh} rows without an Issue key got their project's next keys`);
  if (report.ignoredColumns.length > 0) lines.push(`columns not read: ${report.ignoredColumns.join(', ')}`);
  for (const refusal of report.refused) {
    lines.push(`refused: row ${refusal.row} (line ${refusal.line}${refusal.key ? `, ${refusal.key}` : ''}): ${refusal.reason}`);
  }
  return lines.join('\n');
}
