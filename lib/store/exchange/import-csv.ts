// `mcp-tracker import FILE.csv`: Jira CSV rows into the store, each through the store's
// import commands (import-commands.ts), which check it as the tools check theirs.
//
// A refused row never reaches the disk, and never refuses another. A row's parent or linked
// issue may come after it in the file, so the whole import first runs against a copy of the
// store in memory (memory-backend.ts), rows in one pass, parents and links in a second; the
// real run then writes only rows that passed, and a dry run is the rehearsal alone. A link or
// parent that cannot be made (its other end was refused, or is not in the file or the store)
// is left out and named in the report; its row is imported all the same.
//
// Jira's words become ours in jira-mapping.ts: people (display names, account ids, a user
// map) as handles, team statuses ("Code Review", "Won't Do") by name or by their status
// category, types ("Spike") by name. The report says what became what.
//
// Importing the same file again changes nothing, and a changed file updates its issues: a row
// whose key the store has updates that issue (import-commands.ts importUpdateSteps), a record
// per difference. Other rows are written in key order per project, and each keeps its key
// when its number is above every number its project has used (so into an empty store every
// key is kept); otherwise it takes the project's next number, and the report lists how keys
// moved. Projects and sprints a row names and the store lacks are created: a project with the
// row's Project name and Project lead, a sprint per name in any Sprint column (Jira writes one
// column per sprint an issue has been in: the last is its sprint now, the earlier ones are
// kept as closed sprints when no row has them as its sprint now).
import { parseIssueKey } from '../model/args.js';
import { isDomainError } from '../model/errors.js';
import { COLUMN, LINK_COLUMNS, jiraTime, readCommentCell, readJiraCsv, type JiraRow } from './jira-csv.js';
import type { LinkType } from '../model/schema.js';
import { MappingNotes, PeopleMap, mapPriority, mapResolution, mapStatus, mapType } from './jira-mapping.js';
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
   * Rows whose key names an issue already in the store (an earlier run of the import, perhaps
   * interrupted, issue 30): that issue is brought to the row, never written twice, with what
   * changed (none: the row was already so). Running an import again thus ends with exactly the
   * file's issues.
   */
  readonly alreadyPresent: readonly { readonly row: number; readonly key: string; readonly changes: readonly string[] }[];
  readonly projectsCreated: readonly string[];
  readonly sprintsCreated: readonly string[];
  readonly parentsLinked: number;
  /** Issue links made (blocks, relates to, duplicates): a link given at both ends counts once. */
  readonly issuesLinked: number;
  readonly ignoredColumns: readonly string[];
  /** Parents and links not made, each with its row and why: the row itself was imported. */
  readonly linksLeftOut: readonly string[];
  /** People, statuses, types, priorities and resolutions the file names otherwise than we do, and what they became. */
  readonly mapped: readonly string[];
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
  /** Names and account ids to handles (--user-map FILE, jira-mapping.ts readUserMap). */
  readonly userMap?: ReadonlyMap<string, string>;
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
        refused,
      );
  const all = [...refused, ...(options.dryRun ? [] : outcome.refused)].sort((a, b) => a.row - b.row);
  return { ...outcome, refused: all, dryRun: options.dryRun, rows: file.rows.length, ignoredColumns: file.ignoredColumns };
}

/** One run's reading of Jira's words, the same in the rehearsal and the real run. */
interface Words {
  readonly people: PeopleMap;
  readonly notes: MappingNotes;
  /** Per project, the sprint names no row has as its sprint now: created closed. */
  readonly pastSprints: ReadonlySet<string>;
}

function wordsOf(rows: readonly JiraRow[], options: CsvImportOptions): Words {
  const people = new PeopleMap(options.userMap ?? new Map());
  const current = new Set<string>();
  const named = new Set<string>();
  for (const row of rows) {
    people.learnAccount(row.cell(COLUMN.assigneeId), row.cell(COLUMN.assignee));
    people.learnAccount(row.cell(COLUMN.reporterId), row.cell(COLUMN.reporter));
    people.learnAccount(row.cell(COLUMN.creatorId), row.cell(COLUMN.creator));
    const project = projectOf(row);
    const sprints = row.cells(COLUMN.sprint).filter((name) => name !== '');
    for (const name of sprints) named.add(`${project}/${name.toLowerCase()}`);
    if (sprints.length > 0) current.add(`${project}/${sprints[sprints.length - 1]!.toLowerCase()}`);
  }
  return { people, notes: new MappingNotes(), pastSprints: new Set([...named].filter((name) => !current.has(name))) };
}

/** The row's project as its Project key or Issue key says (checked in inKeyOrder). */
function projectOf(row: JiraRow): string {
  const key = row.cell(COLUMN.key);
  return (row.cell(COLUMN.projectKey) || key.slice(0, key.lastIndexOf('-'))).toUpperCase();
}

/**
 * The run on a copy of the store in memory: the rows that pass there are the ones the real run
 * writes. One round is enough: a refused row takes nothing else with it (linkPass leaves its
 * links out), so the rows that pass pass again without it.
 */
async function rehearse(
  store: TrackerStore,
  rows: readonly JiraRow[],
  options: CsvImportOptions,
): Promise<{ rehearsal: RunOutcome; refused: RowRefusal[] }> {
  const rehearsal = await runRows(await copyOf(store, options), rows, options, []);
  return { rehearsal, refused: [...rehearsal.refused] };
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
  const words = wordsOf(rows, options);
  const projectsCreated: string[] = [];
  const sprintsCreated: string[] = [];
  const imported: { row: number; from: string | null; key: string; comments: number }[] = [];
  const alreadyPresent: { row: number; key: string; changes: string[] }[] = [];
  const written = new Map<JiraRow, string>();
  const keysInFile = new Map<string, string>();
  for (const { row, project, number } of inKeyOrder(rows, refuse)) {
    try {
      if (!store.listProjects().some((p) => p.key === project)) {
        const lead = row.cell(COLUMN.projectLead) || row.cell(COLUMN.reporter);
        await store.importProject({
          key: project,
          name: row.cell(COLUMN.projectName) || project,
          description: row.cell(COLUMN.projectDescription),
          lead: lead === '' ? (options.actor ?? 'assistant') : words.people.handle(lead),
        });
        projectsCreated.push(project);
      }
      let sprint: string | null = null;
      for (const name of row.cells(COLUMN.sprint).filter((cell) => cell !== '')) {
        sprint = await sprintOf(store, project, name, words, options.now(), sprintsCreated);
      }
      const key = number === null ? undefined : `${project}-${number}`;
      const input = issueInput(row, project, key, sprint, words);
      if (key !== undefined && hasIssue(store, key)) {
        const { changes } = await store.importUpdate(key, input);
        alreadyPresent.push({ row: row.row, key, changes });
        written.set(row, key);
      } else {
        const issue = await store.importIssue(input);
        written.set(row, issue.key);
        imported.push({ row: row.row, from: row.cell(COLUMN.key) || null, key: issue.key, comments: issue.comments.length });
      }
      for (const name of [row.cell(COLUMN.key), row.cell(COLUMN.id)])
        if (name !== '') keysInFile.set(name.toUpperCase(), written.get(row)!);
    } catch (error) {
      if (!isDomainError(error)) throw error;
      refuse(row, error.message);
    }
  }
  const linked = await linkPass(store, written, keysInFile, [...earlier, ...refused]);
  return {
    imported,
    refused,
    alreadyPresent,
    projectsCreated,
    sprintsCreated,
    ...linked,
    mapped: [...words.people.lines(), ...words.notes.lines()],
  };
}

/** Whether the store has an issue of that key. */
function hasIssue(store: TrackerStore, key: string): boolean {
  try {
    store.getIssue(key);
    return true;
  } catch (error) {
    if (isDomainError(error)) return false; // no such issue (or project)
    throw error;
  }
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
 * first. A link that cannot be made is left out and named; its row stays imported.
 */
async function linkPass(
  store: TrackerStore,
  written: ReadonlyMap<JiraRow, string>,
  keysInFile: ReadonlyMap<string, string>,
  refused: readonly RowRefusal[],
): Promise<{ parentsLinked: number; issuesLinked: number; linksLeftOut: string[] }> {
  let parentsLinked = 0;
  let issuesLinked = 0;
  const linksLeftOut: string[] = [];
  for (const [row, key] of written) {
    for (const link of linksOf(row)) {
      const what = `row ${row.row} (${key}): ${link.type === 'parent' ? `its parent ${link.other}` : `its link (${link.type}) with ${link.other}`}`;
      const otherRow = refused.find((r) => r.key !== null && r.key.toUpperCase() === link.other.toUpperCase());
      if (otherRow !== undefined) {
        linksLeftOut.push(`${what}: row ${otherRow.row}, that issue, was refused`);
        continue;
      }
      const other = keysInFile.get(link.other.toUpperCase()) ?? link.other;
      try {
        const made = await (link.inward ? store.linkIssues(other, link.type, key) : store.linkIssues(key, link.type, other));
        // A link the file gives at both ends (Jira writes both), or an earlier run made, is made once.
        if (made.change.issues.length === 0) continue;
        if (link.type === 'parent') parentsLinked++;
        else issuesLinked++;
      } catch (error) {
        if (!isDomainError(error)) throw error;
        linksLeftOut.push(`${what}: ${error.message}`);
      }
    }
  }
  return { parentsLinked, issuesLinked, linksLeftOut };
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

function issueInput(
  row: JiraRow,
  project: string,
  key: string | undefined,
  sprint: string | null,
  { people, notes }: Words,
): ImportIssueInput {
  const optional = (value: string): string | undefined => (value === '' ? undefined : value);
  const person = (value: string): string | undefined => (value === '' ? undefined : people.handle(value));
  const points = row.cell(COLUMN.storyPoints);
  const status = mapStatus(row.cell(COLUMN.status), row.cell(COLUMN.statusCategory), notes);
  const resolution = mapResolution(row.cell(COLUMN.resolution), status?.status, notes) ?? status?.resolution;
  return {
    project,
    key,
    title: row.cell(COLUMN.summary),
    description: row.cell(COLUMN.description),
    type: mapType(row.cell(COLUMN.type), notes),
    status: status?.status,
    priority: mapPriority(row.cell(COLUMN.priority), notes),
    resolution,
    assignee: person(row.cell(COLUMN.assignee)) ?? null,
    reporter: person(row.cell(COLUMN.reporter)),
    labels: row.cells(COLUMN.labels).flatMap((cell) => cell.split(/\s+/).filter((label) => label !== '')),
    sprint,
    story_points: points === '' ? null : Number(points.replace(',', '.')),
    created_at: optional(row.cell(COLUMN.created)) && jiraTime(row.cell(COLUMN.created)),
    updated_at: optional(row.cell(COLUMN.updated)) && jiraTime(row.cell(COLUMN.updated)),
    comments: row
      .cells(COLUMN.comment)
      .filter((cell) => cell !== '')
      .map(readCommentCell)
      .map((comment) => (comment.author === undefined ? comment : { ...comment, author: people.handle(comment.author) })),
  };
}

/** The project's sprint of that id or name (case aside), created when there is none: closed when no row has it now. */
async function sprintOf(
  store: TrackerStore,
  project: string,
  name: string,
  words: Words,
  now: Date,
  created: string[],
): Promise<string> {
  const wanted = name.toLowerCase();
  const found = store.listSprints({ project }).find((s) => s.id.toLowerCase() === wanted || s.name.toLowerCase() === wanted);
  if (found !== undefined) return found.id;
  const day = (offset: number): string => new Date(now.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  const past = words.pastSprints.has(`${project}/${wanted}`);
  const sprint = await store.importSprint({
    project,
    name,
    state: past ? 'closed' : 'future',
    start_date: day(past ? -14 : 0),
    end_date: day(past ? 0 : 14),
  });
  created.push(sprint.id);
  return sprint.id;
}

/** The report as the command prints it (on stderr: only export writes data to stdout). */
export function formatReport(report: ImportReport, source: string, target: string, seconds: number): string {
  const lines = [
    `${report.dryRun ? 'dry run: ' : ''}import of ${source} into ${target}${report.dryRun ? ' (nothing was written)' : ''}`,
    `${report.rows} rows read: ${report.imported.length} ${report.dryRun ? 'would be ' : ''}imported, ${report.refused.length} refused, in ${seconds.toFixed(2)} s`,
  ];
  const updated = report.alreadyPresent.filter((entry) => entry.changes.length > 0);
  if (report.alreadyPresent.length > 0) {
    lines.push(
      `${report.alreadyPresent.length} rows name issues the store has (by key): ${updated.length} ${report.dryRun ? 'would be ' : ''}updated, the others unchanged`,
    );
  }
  for (const entry of updated.slice(0, 50)) lines.push(`  row ${entry.row}, ${entry.key}: ${entry.changes.join('; ')}`);
  if (updated.length > 50) lines.push(`  ... and ${updated.length - 50} more`);
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
  if (report.mapped.length > 0)
    lines.push('mapped (the file named them otherwise):', ...report.mapped.map((line) => `  ${line}`));
  if (report.linksLeftOut.length > 0) {
    lines.push(`parents and links left out (their rows were imported): ${report.linksLeftOut.length}`);
    lines.push(...report.linksLeftOut.slice(0, 50).map((line) => `  ${line}`));
  }
  if (report.ignoredColumns.length > 0) lines.push(`columns not read: ${report.ignoredColumns.join(', ')}`);
  for (const refusal of report.refused) {
    lines.push(`refused: row ${refusal.row} (line ${refusal.line}${refusal.key ? `, ${refusal.key}` : ''}): ${refusal.reason}`);
  }
  return lines.join('\n');
}
