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
// category, types ("Spike") by name. The report says what became what. A project that is new, or
// still on the default workflow, whose rows name statuses the default lacks, first gets a
// workflow of those statuses (import-workflow.ts): then each row keeps its own status.
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
//
// How a row is read is in import-rows.ts; the report and how it is printed in import-report.ts.
import { isDomainError } from '../model/errors.js';
import { COLUMN, readJiraCsv, type JiraFile, type JiraRow } from './jira-csv.js';
import { fileFields, grownDefinition, notKept } from './import-fields.js';
import { setWorkflowFromRows } from './import-workflow.js';
import { openMemoryBackend } from '../backend/memory-backend.js';
import { importSnapshot } from './snapshot-import.js';
import type { ImportReport, RowRefusal } from './import-report.js';
import { inKeyOrder, issueInput, linksOf, wordsOf, type Words } from './import-rows.js';
import { storeOn } from '../store.js';
import type { TrackerStore } from '../store-api.js';
import { silentLogger } from '../model/log.js';

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
  const { rehearsal, refused } = await rehearse(store, file, options);
  const passed = new Set([...rehearsal.imported, ...rehearsal.alreadyPresent].map((entry) => entry.row));
  const outcome = options.dryRun
    ? rehearsal
    : await runRows(store, { ...file, rows: file.rows.filter((row) => passed.has(row.row)) }, options, refused, file.rows);
  const all = [...refused, ...(options.dryRun ? [] : outcome.refused)].sort((a, b) => a.row - b.row);
  const ignoredColumns = [...file.ignoredColumns.map(notKept), ...fileFields(file.rows, file.customColumns).notRead];
  return { ...outcome, refused: all, dryRun: options.dryRun, rows: file.rows.length, ignoredColumns };
}

/**
 * The run on a copy of the store in memory: the rows that pass there are the ones the real run
 * writes. One round is enough: a refused row takes nothing else with it (linkPass leaves its
 * links out), so the rows that pass pass again without it.
 */
async function rehearse(
  store: TrackerStore,
  file: JiraFile,
  options: CsvImportOptions,
): Promise<{ rehearsal: RunOutcome; refused: RowRefusal[] }> {
  const rehearsal = await runRows(await copyOf(store, options), file, options, [], file.rows);
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
  { rows, customColumns }: Pick<JiraFile, 'rows' | 'customColumns'>,
  options: CsvImportOptions,
  earlier: readonly RowRefusal[],
  fileRows: readonly JiraRow[],
): Promise<RunOutcome> {
  const refused: RowRefusal[] = [];
  const refuse = (row: JiraRow, reason: string): void => {
    refused.push({ row: row.row, line: row.line, key: row.cell(COLUMN.key) || null, reason });
  };
  const words = wordsOf(rows, customColumns, options.userMap);
  const placedRows = inKeyOrder(rows, refuse);
  const filePlaced = inKeyOrder(fileRows, () => undefined);
  const fieldsDefined = new Set<string>();
  let sprintMoves = 0;
  const projectsCreated: string[] = [];
  const workflowsSet: string[] = [];
  const sprintsCreated: string[] = [];
  const imported: { row: number; from: string | null; key: string; comments: number }[] = [];
  const alreadyPresent: { row: number; key: string; changes: string[] }[] = [];
  const written = new Map<JiraRow, string>();
  const keysInFile = new Map<string, string>();
  for (const { row, project, number } of placedRows) {
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
      if (!fieldsDefined.has(project)) {
        fieldsDefined.add(project);
        const projectRows = placedRows.filter((placed) => placed.project === project).map((placed) => placed.row);
        // From every row of the file, refused ones too: the rehearsal and the real run make the same workflow.
        const statusRows = filePlaced.filter((placed) => placed.project === project).map((placed) => placed.row);
        const workflow = await setWorkflowFromRows(store, project, statusRows);
        if (workflow !== null) workflowsSet.push(workflow);
        const grown = grownDefinition(store.getProjectFields(project), projectRows, words.fields);
        if (grown !== null) await store.defineFields(project, grown);
      }
      // Every sprint the row names, oldest first (Jira writes a column per sprint an issue was in): its history.
      const sprints: string[] = [];
      for (const name of row.cells(COLUMN.sprint).filter((cell) => cell !== '')) {
        const id = await sprintOf(store, project, name, words, options.now(), sprintsCreated);
        if (!sprints.includes(id)) sprints.push(id);
      }
      const sprint = sprints.at(-1) ?? null;
      const key = number === null ? undefined : `${project}-${number}`;
      const input = issueInput(row, project, key, sprint, words, store.getWorkflow(project));
      if (key !== undefined && hasIssue(store, key)) {
        const { changes } = await store.importUpdate(key, input);
        alreadyPresent.push({ row: row.row, key, changes });
        written.set(row, key);
      } else {
        // Created in its first sprint and moved through the others, so its history says it was in each.
        const issue = await store.importIssue({ ...input, sprint: sprints[0] ?? null });
        for (const later of sprints.slice(1)) await store.importUpdate(issue.key, { ...input, sprint: later });
        sprintMoves += sprints.length > 1 ? 1 : 0;
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
  // The people the rows named go into the directory with the names and account ids Jira gave them.
  await store.meetPeople(words.people.people());
  return {
    imported,
    refused,
    alreadyPresent,
    projectsCreated,
    workflowsSet,
    sprintsCreated,
    ...linked,
    mapped: [
      ...words.people.lines(),
      ...words.notes.lines(),
      ...words.fields.mapped,
      ...(sprintMoves === 0
        ? []
        : [`Sprint columns → each issue's sprint history (${sprintMoves} issues were in earlier sprints)`]),
    ],
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
