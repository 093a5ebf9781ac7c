// Jira's CSV format: the columns Jira's own CSV export writes, read into rows an import can
// hand to the store, and written from a snapshot of the store.
//
// Names follow Jira: Summary is our title, the Sprint column holds a sprint's name, Labels and
// Sprint may each repeat as several columns (Jira writes one column per label, and one per
// sprint an issue has been in: the last non-empty one is the issue's sprint now), priorities
// are Highest..Lowest. Times are written as ISO 8601 (UTC); Jira's own "02/Dec/26 5:28 AM"
// is read too, taken as UTC. Columns this reader does not know are reported, not read.
//
// Due Date, Component/s and Fix Version/s (repeated, one column per value) are the issue's
// fields of those names, and every other `Custom field (Name)` column a custom field of its
// project named Name (import-fields.ts defines them from the values the rows hold).
//
// Comments are one repeated Comment column, one comment per cell, as Jira's export writes
// them: "02/Dec/26 5:28 AM;alice;the body" (time, author, body; the body may hold further
// semicolons). Jira's importer also takes the body alone, and so does this one: the author is
// then the importing user and the time the issue's creation. Export writes Jira's form, whose
// time has no seconds: the JSON export keeps a comment's exact time.
import { CsvError, readCsv, writeCsv, type CsvLimits } from './csv.js';
import type { Comment, Issue, IssueType, Priority } from '../model/schema.js';
import { DEFAULT_WORKFLOW, workflowStatus, type StatusCategory } from '../model/workflow.js';
import type { SnapshotLink, TrackerSnapshot } from '../queries/snapshot.js';

/** What an import reads at most; past any of them the file is refused before a row is tried. */
export const IMPORT_LIMITS = {
  /** The file, in bytes. */
  fileBytes: 32 * 1024 * 1024,
  /** Data rows (the header not counted). */
  rows: 50_000,
  /** Columns per row: Jira repeats Labels, Sprint and Comment columns, so exports are wide. */
  fields: 500,
  /** Characters per field: a description is 10,000 at most, so this leaves room for what the store refuses with a reason. */
  fieldChars: 100_000,
} as const;

export const COLUMN = {
  key: 'Issue key',
  id: 'Issue id',
  summary: 'Summary',
  type: 'Issue Type',
  status: 'Status',
  priority: 'Priority',
  resolution: 'Resolution',
  assignee: 'Assignee',
  assigneeId: 'Assignee Id',
  reporter: 'Reporter',
  reporterId: 'Reporter Id',
  creator: 'Creator',
  creatorId: 'Creator Id',
  statusCategory: 'Status Category',
  sprint: 'Sprint',
  labels: 'Labels',
  description: 'Description',
  created: 'Created',
  updated: 'Updated',
  parent: 'Parent',
  projectKey: 'Project key',
  projectName: 'Project name',
  projectLead: 'Project lead',
  projectDescription: 'Project description',
  storyPoints: 'Custom field (Story Points)',
  dueDate: 'Due Date',
  components: 'Component/s',
  fixVersions: 'Fix Version/s',
  comment: 'Comment',
} as const;

/** Jira's custom columns: `Custom field (Team)` is the custom field Team. */
const CUSTOM_COLUMN = /^custom field \((.+)\)$/i;

/**
 * Jira's issue links, one column per link (repeated), on each end: the outward end says
 * "blocks", the inward one "is blocked by". Export writes the outward end only.
 */
export const LINK_COLUMNS = [
  { type: 'blocks', outward: 'Outward issue link (Blocks)', inward: 'Inward issue link (Blocks)' },
  { type: 'relates_to', outward: 'Outward issue link (Relates)', inward: 'Inward issue link (Relates)' },
  { type: 'duplicates', outward: 'Outward issue link (Duplicate)', inward: 'Inward issue link (Duplicate)' },
] as const;
type ColumnName =
  (typeof COLUMN)[keyof typeof COLUMN] | (typeof LINK_COLUMNS)[number]['outward'] | (typeof LINK_COLUMNS)[number]['inward'];

/** Columns that may appear several times; any other known column may appear once. */
const REPEATABLE: ReadonlySet<string> = new Set([
  COLUMN.labels,
  COLUMN.sprint,
  COLUMN.comment,
  COLUMN.components,
  COLUMN.fixVersions,
  ...LINK_COLUMNS.flatMap((link) => [link.outward, link.inward]),
]);
/** Other names Jira uses for story points, by version and template. */
const STORY_POINT_ALIASES = ['story points', 'story point estimate', 'custom field (story point estimate)'];
/** Other names a hand-made file gives comments ("Comment Body" is the field Jira's importer maps them to). */
const COMMENT_ALIASES = ['comments', 'comment body'];
/** Other names of the fields columns, by Jira version and by hand. */
const FIELD_ALIASES: readonly (readonly [string, ColumnName])[] = [
  ['due', COLUMN.dueDate],
  ['duedate', COLUMN.dueDate],
  ['component', COLUMN.components],
  ['components', COLUMN.components],
  ['fix version', COLUMN.fixVersions],
  ['fix versions', COLUMN.fixVersions],
];

/** One data row, its cells by column (a repeated column gives several). */
export interface JiraRow {
  /** As a spreadsheet numbers it: the header is row 1. */
  readonly row: number;
  /** The line of the file it starts on (a quoted cell may span lines). */
  readonly line: number;
  /** Set when the row cannot be read at all (more cells than the header has columns). */
  readonly unreadable?: string;
  cell(column: ColumnName): string;
  cells(column: ColumnName): string[];
  /** The cells of the custom column `Custom field (name)`, one per column of that name. */
  custom(name: string): string[];
}

export interface JiraFile {
  readonly rows: JiraRow[];
  /** Header names this reader does not know: named in the report. */
  readonly ignoredColumns: string[];
  /** The names of the custom columns (`Custom field (Team)` is Team), in header order. */
  readonly customColumns: string[];
}

export class JiraCsvError extends Error {}

export function readJiraCsv(text: string): JiraFile {
  const limits: CsvLimits = {
    maxRecords: IMPORT_LIMITS.rows + 1,
    maxFields: IMPORT_LIMITS.fields,
    maxFieldChars: IMPORT_LIMITS.fieldChars,
  };
  let records;
  try {
    records = readCsv(text, limits);
  } catch (error) {
    if (error instanceof CsvError) throw new JiraCsvError(`the file is not CSV this import can read: ${error.message}`);
    throw error;
  }
  const header = records[0];
  if (header === undefined) throw new JiraCsvError('the file is empty: a header row (Issue key, Summary, ...) comes first');
  const { columns, custom, ignored } = mapHeader(header.fields);
  const rows = records.slice(1).map((record, index): JiraRow => {
    const values = record.fields;
    const cells = (column: ColumnName): string[] => (columns.get(column) ?? []).map((at) => (values[at] ?? '').trim());
    const customCells = (name: string): string[] => (custom.get(name) ?? []).map((at) => (values[at] ?? '').trim());
    const extra = values.length > header.fields.length && values.slice(header.fields.length).some((value) => value.trim() !== '');
    return {
      row: index + 2,
      line: record.line,
      unreadable: extra ? `it has ${values.length} cells; the header has ${header.fields.length} columns` : undefined,
      cells,
      cell: (column) => cells(column).find((value) => value !== '') ?? '',
      custom: customCells,
    };
  });
  return { rows, ignoredColumns: ignored, customColumns: [...custom.keys()] };
}

/** Where each known column is; names compared without case or surrounding spaces. */
function mapHeader(header: readonly string[]): {
  columns: Map<ColumnName, number[]>;
  custom: Map<string, number[]>;
  ignored: string[];
} {
  const names: ColumnName[] = [...Object.values(COLUMN), ...LINK_COLUMNS.flatMap((link) => [link.outward, link.inward])];
  const known = new Map<string, ColumnName>(names.map((name) => [name.toLowerCase(), name]));
  for (const alias of STORY_POINT_ALIASES) known.set(alias, COLUMN.storyPoints);
  for (const alias of COMMENT_ALIASES) known.set(alias, COLUMN.comment);
  for (const [alias, column] of FIELD_ALIASES) known.set(alias, column);
  const columns = new Map<ColumnName, number[]>();
  const custom = new Map<string, number[]>();
  const ignored: string[] = [];
  header.forEach((raw, index) => {
    const name = known.get(raw.trim().toLowerCase());
    const customName = name === undefined ? CUSTOM_COLUMN.exec(raw.trim())?.[1]?.trim() : undefined;
    if (customName !== undefined) {
      // Repeated, a multi-select: Jira writes one column per value.
      custom.set(customName, [...(custom.get(customName) ?? []), index]);
      return;
    }
    if (name === undefined) {
      if (raw.trim() !== '' && !ignored.includes(raw.trim())) ignored.push(raw.trim());
      return;
    }
    const at = columns.get(name) ?? [];
    if (at.length > 0 && !REPEATABLE.has(name)) throw new JiraCsvError(`the header names the column ${name} twice`);
    columns.set(name, [...at, index]);
  });
  if (!columns.has(COLUMN.summary)) throw new JiraCsvError('the header has no Summary column (the issue title)');
  if (!columns.has(COLUMN.key) && !columns.has(COLUMN.projectKey)) {
    throw new JiraCsvError('the header has neither an Issue key nor a Project key column: each row needs its project');
  }
  return { columns, custom, ignored };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const JIRA_TIME = /^(\d{1,2})\/([A-Za-z]{3})\/(\d{2}|\d{4}) (\d{1,2}):(\d{2})(?::(\d{2}))? ?([AaPp][Mm])$/;

/** Jira's "02/Dec/26 5:28 AM" (UTC) as ISO 8601; anything else is passed on for the store to read or refuse. */
export function jiraTime(value: string): string {
  const match = JIRA_TIME.exec(value.trim());
  const month = match ? MONTHS.findIndex((name) => name.toLowerCase() === match[2]!.toLowerCase()) : -1;
  if (!match || month === -1) return value;
  const year = match[3]!.length === 2 ? 2000 + Number(match[3]) : Number(match[3]);
  const hour = (Number(match[4]) % 12) + (match[7]!.toLowerCase() === 'pm' ? 12 : 0);
  return new Date(Date.UTC(year, month, Number(match[1]), hour, Number(match[5]), Number(match[6] ?? 0))).toISOString();
}

/** An ISO 8601 time in Jira's "02/Dec/26 5:28 AM" (UTC, to the minute; a year outside 2000..2099 in four digits). */
export function jiraTimeText(iso: string): string {
  const time = new Date(iso);
  const year = time.getUTCFullYear();
  const hour = time.getUTCHours();
  const day = `${String(time.getUTCDate()).padStart(2, '0')}/${MONTHS[time.getUTCMonth()]}/`;
  const clock = `${hour % 12 === 0 ? 12 : hour % 12}:${String(time.getUTCMinutes()).padStart(2, '0')} ${hour < 12 ? 'AM' : 'PM'}`;
  return `${day}${year >= 2000 && year <= 2099 ? String(year).slice(2) : year} ${clock}`;
}

/** One comment as a cell holds it; author and time absent when the cell is the body alone. */
export interface CommentCell {
  readonly body: string;
  readonly author?: string;
  readonly created_at?: string;
}

/**
 * A Comment cell: "time;author;body" when what comes before the first semicolon is a time
 * (Jira's form or ISO 8601), else the whole cell is the body, semicolons and all. An empty
 * author is left for the importing user.
 */
export function readCommentCell(cell: string): CommentCell {
  const first = cell.indexOf(';');
  const second = first === -1 ? -1 : cell.indexOf(';', first + 1);
  const time = cell.slice(0, first).trim();
  const isTime = JIRA_TIME.test(time) || /^\d{4}-\d{2}-\d{2}T/.test(time);
  if (second === -1 || !isTime) return { body: cell };
  const author = cell.slice(first + 1, second).trim();
  return { body: cell.slice(second + 1), created_at: jiraTime(time), ...(author === '' ? {} : { author }) };
}

/** A comment as Jira's export writes it. */
export function writeCommentCell(comment: Comment): string {
  return `${jiraTimeText(comment.created_at)};${comment.author};${comment.body}`;
}

const PRIORITY_NAMES: Readonly<Record<Priority, string>> = { P0: 'Highest', P1: 'High', P2: 'Medium', P3: 'Low' };
const TYPE_NAMES: Readonly<Record<IssueType, string>> = { bug: 'Bug', story: 'Story', task: 'Task', epic: 'Epic' };
const CATEGORY_NAMES: Readonly<Record<StatusCategory, string>> = { todo: 'To Do', inprogress: 'In Progress', done: 'Done' };
const RESOLUTION_NAMES: Readonly<Record<string, string>> = {
  done: 'Done',
  wont_do: "Won't Do",
  duplicate: 'Duplicate',
  cannot_reproduce: 'Cannot Reproduce',
};

/**
 * Every issue of the snapshot as a Jira CSV row, keys ascending, with as many Labels, link and
 * Comment columns as the issue that has the most of each needs.
 */
export function writeJiraCsv(snapshot: TrackerSnapshot): string {
  const labelColumns = Math.max(
    1,
    most(snapshot.issues, (issue) => issue.labels.length),
  );
  const commentColumns = most(snapshot.issues, (issue) => issue.comments.length);
  const listed = (issue: Issue, name: string): readonly string[] => {
    const value = issue.fields?.[name];
    return value === undefined ? [] : Array.isArray(value) ? value : [String(value)];
  };
  // A column per value as Jira writes them; none when no issue has one, so a store without fields exports as before.
  const dueColumns = snapshot.issues.some((issue) => issue.fields?.due !== undefined) ? 1 : 0;
  const customNames = [...new Set((snapshot.fields ?? []).flatMap((entry) => entry.fields.custom.map((field) => field.name)))];
  const fieldColumns = [
    { header: COLUMN.components, name: 'components' },
    { header: COLUMN.fixVersions, name: 'fix_versions' },
    ...customNames.map((name) => ({ header: `Custom field (${name})`, name })),
  ].map((column) => ({
    ...column,
    count: most(snapshot.issues, (issue) => listed(issue, column.name).length),
  }));
  const outward = outwardLinks(snapshot);
  const linkColumns = LINK_COLUMNS.map((column) => ({
    ...column,
    count: most([...outward.values()], (links) => links.filter((link) => link.type === column.type).length),
  }));
  // A project's own statuses by their names, with Jira's Status Category beside them (an import
  // makes the workflow again from the two, import-workflow.ts); none when every project has the default.
  const workflows = new Map((snapshot.workflows ?? []).map((entry) => [entry.project, entry.workflow]));
  const categoryColumns = workflows.size > 0 ? 1 : 0;
  const statusOf = (issue: Issue) => workflowStatus(workflows.get(issue.project) ?? DEFAULT_WORKFLOW, issue.status);
  const header = [
    COLUMN.key,
    COLUMN.summary,
    COLUMN.type,
    COLUMN.status,
    ...Array<string>(categoryColumns).fill(COLUMN.statusCategory),
    COLUMN.priority,
    COLUMN.resolution,
    COLUMN.assignee,
    COLUMN.reporter,
    COLUMN.sprint,
    ...Array<string>(labelColumns).fill(COLUMN.labels),
    COLUMN.description,
    COLUMN.created,
    COLUMN.updated,
    COLUMN.parent,
    COLUMN.projectKey,
    COLUMN.projectName,
    COLUMN.projectLead,
    COLUMN.projectDescription,
    COLUMN.storyPoints,
    ...Array<string>(dueColumns).fill(COLUMN.dueDate),
    ...fieldColumns.flatMap((column) => Array<string>(column.count).fill(column.header)),
    ...linkColumns.flatMap((column) => Array<string>(column.count).fill(column.outward)),
    ...Array<string>(commentColumns).fill(COLUMN.comment),
  ];
  const projects = new Map(snapshot.projects.map((project) => [project.key, project]));
  const sprintNames = new Map(snapshot.sprints.map((sprint) => [sprint.id, sprint.name]));
  const row = (issue: Issue): string[] => {
    const project = projects.get(issue.project);
    return [
      issue.key,
      issue.title,
      TYPE_NAMES[issue.type],
      statusOf(issue)?.name ?? issue.status,
      ...Array.from({ length: categoryColumns }, () => CATEGORY_NAMES[statusOf(issue)?.category ?? 'todo']),
      PRIORITY_NAMES[issue.priority],
      issue.resolution
        ? ((Object.hasOwn(RESOLUTION_NAMES, issue.resolution) ? RESOLUTION_NAMES[issue.resolution] : undefined) ??
          issue.resolution)
        : '',
      issue.assignee ?? '',
      issue.reporter,
      issue.sprint === null ? '' : (sprintNames.get(issue.sprint) ?? issue.sprint),
      ...Array.from({ length: labelColumns }, (_, index) => issue.labels[index] ?? ''),
      issue.description,
      issue.created_at,
      issue.updated_at,
      issue.parent ?? '',
      issue.project,
      project?.name ?? '',
      project?.lead ?? '',
      project?.description ?? '',
      issue.story_points === null ? '' : String(issue.story_points),
      ...Array.from({ length: dueColumns }, () => String(issue.fields?.due ?? '')),
      ...fieldColumns.flatMap((column) =>
        Array.from({ length: column.count }, (_, index) => listed(issue, column.name)[index] ?? ''),
      ),
      ...linkColumns.flatMap((column) => {
        const others = (outward.get(issue.key) ?? []).filter((link) => link.type === column.type).map((link) => link.to);
        return Array.from({ length: column.count }, (_, index) => others[index] ?? '');
      }),
      ...Array.from({ length: commentColumns }, (_, index) => {
        const comment = issue.comments[index];
        return comment === undefined ? '' : writeCommentCell(comment);
      }),
    ];
  };
  return writeCsv([header, ...snapshot.issues.map(row)]);
}

/** The largest count over the items, 0 for none (a loop: spread into Math.max, a large store's issues overflow the stack). */
function most<T>(items: readonly T[], count: (item: T) => number): number {
  let largest = 0;
  for (const item of items) largest = Math.max(largest, count(item));
  return largest;
}

/** The snapshot's links by the issue that wrote them. */
function outwardLinks(snapshot: TrackerSnapshot): Map<string, SnapshotLink[]> {
  const byIssue = new Map<string, SnapshotLink[]>();
  for (const link of snapshot.links) byIssue.set(link.from, [...(byIssue.get(link.from) ?? []), link]);
  return byIssue;
}
