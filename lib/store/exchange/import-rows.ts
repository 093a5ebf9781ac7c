// A Jira CSV's rows read as the import's input (import-csv.ts runs them): the run's reading of
// Jira's words (people, and the sprints no row has now), each row's place in key order, its
// fields as an imported issue, and the parent and links it asks for.
import { parseIssueKey } from '../model/args.js';
import { isDomainError } from '../model/errors.js';
import { COLUMN, LINK_COLUMNS, jiraTime, readCommentCell, type JiraRow } from './jira-csv.js';
import type { LinkType } from '../model/schema.js';
import { MappingNotes, PeopleMap, mapPriority, mapResolution, mapStatus, mapType } from './jira-mapping.js';
import type { ImportIssueInput } from '../domain/import-commands.js';
import type { Workflow } from '../model/workflow.js';
import { compareStrings, issueNumber } from '../state/state.js';
import { fileFields, rowFields, type FileFields } from './import-fields.js';

/** One run's reading of Jira's words, the same in the rehearsal and the real run. */
export interface Words {
  readonly people: PeopleMap;
  readonly notes: MappingNotes;
  /** Per project, the sprint names no row has as its sprint now: created closed. */
  readonly pastSprints: ReadonlySet<string>;
  /** The file's custom columns, each a field of its type (import-fields.ts). */
  readonly fields: FileFields;
}

/** `userMap`: names and account ids to handles (--user-map FILE, jira-mapping.ts readUserMap). */
export function wordsOf(
  rows: readonly JiraRow[],
  customColumns: readonly string[],
  userMap: ReadonlyMap<string, string> = new Map(),
): Words {
  const people = new PeopleMap(userMap);
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
  return {
    people,
    notes: new MappingNotes(),
    pastSprints: new Set([...named].filter((name) => !current.has(name))),
    fields: fileFields(rows, customColumns),
  };
}

/** The row's project as its Project key or Issue key says (checked in inKeyOrder). */
function projectOf(row: JiraRow): string {
  const key = row.cell(COLUMN.key);
  return (row.cell(COLUMN.projectKey) || key.slice(0, key.lastIndexOf('-'))).toUpperCase();
}

/** One link a row asks for: its parent, or a Jira issue link, outward (this row → other) or inward. */
export interface RowLink {
  readonly type: 'parent' | LinkType;
  readonly other: string;
  readonly inward: boolean;
}

export function linksOf(row: JiraRow): RowLink[] {
  const links: RowLink[] = [];
  if (row.cell(COLUMN.parent) !== '') links.push({ type: 'parent', other: row.cell(COLUMN.parent), inward: false });
  for (const { type, outward, inward } of LINK_COLUMNS) {
    for (const other of row.cells(outward)) if (other !== '') links.push({ type, other, inward: false });
    for (const other of row.cells(inward)) if (other !== '') links.push({ type, other, inward: true });
  }
  return links;
}

export interface PlacedRow {
  readonly row: JiraRow;
  readonly project: string;
  /** The number of the row's key, when it has one. */
  readonly number: number | null;
}

/** Rows by project, then by the number of their key (rows without a key after, in file order); unreadable ones refused. */
export function inKeyOrder(rows: readonly JiraRow[], refuse: (row: JiraRow, reason: string) => void): PlacedRow[] {
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

export function issueInput(
  row: JiraRow,
  project: string,
  key: string | undefined,
  sprint: string | null,
  { people, notes, fields }: Words,
  workflow: Workflow,
): ImportIssueInput {
  const optional = (value: string): string | undefined => (value === '' ? undefined : value);
  const person = (value: string): string | undefined => (value === '' ? undefined : people.handle(value));
  const points = row.cell(COLUMN.storyPoints);
  const status = mapStatus(row.cell(COLUMN.status), row.cell(COLUMN.statusCategory), notes, workflow);
  const resolution = mapResolution(row.cell(COLUMN.resolution), status?.status, notes, workflow) ?? status?.resolution;
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
    fields: rowFields(row, fields),
    created_at: optional(row.cell(COLUMN.created)) && jiraTime(row.cell(COLUMN.created)),
    updated_at: optional(row.cell(COLUMN.updated)) && jiraTime(row.cell(COLUMN.updated)),
    comments: row
      .cells(COLUMN.comment)
      .filter((cell) => cell !== '')
      .map(readCommentCell)
      .map((comment) => (comment.author === undefined ? comment : { ...comment, author: people.handle(comment.author) })),
  };
}
