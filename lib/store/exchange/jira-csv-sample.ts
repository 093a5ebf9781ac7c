// First reading: skip this file. It writes Jira-format CSV files for the import's tests and
// its measured run (spec-tests/bench/import-bench.ts): the shape of a real Jira export, not real data.
//
// Newest issue first, as Jira lists them, so every child comes before its epic and the
// parent links need the import's second pass; Jira's names for types, statuses and
// priorities; one Labels column per label and two Sprint columns; Jira's own time format;
// two Comment columns, as Jira's export writes them ("time;author;body", a semicolon, a comma
// and quotes in the body) and as a hand-made file may (the body alone); a column this
// importer does not read. Every `badEvery`-th row has a status no workflow
// knows, so the report has refusals to show (never an epic: 20 does not divide n - 1 then, for
// the n of 100 used).
import { writeCsv } from './csv.js';
import { jiraTimeText } from './jira-csv.js';

export interface SampleOptions {
  readonly rows: number;
  /** Project key of every row. Default: FIN. */
  readonly project?: string;
  /** Every n-th row is refused (an unknown status); 0 for none. Default: 0. */
  readonly badEvery?: number;
}

const TYPES = ['Story', 'Bug', 'Task', 'Sub-task'];
const STATUSES = ['To Do', 'In Progress', 'In Review', 'Done', 'Open', 'Closed'];
const PRIORITIES = ['Highest', 'High', 'Medium', 'Low', 'Lowest'];
const PEOPLE = ['alice', 'bob', 'carol', 'dmitri', 'priya'];
const LABELS = ['backend', 'frontend', 'payments', 'api', 'infra'];

/** Every 20th issue is an epic; the others belong to the epic numbered just above them. */
export function jiraSampleCsv(options: SampleOptions): string {
  const project = options.project ?? 'FIN';
  const header = ['Summary', 'Issue key', 'Issue id', 'Issue Type', 'Status', 'Priority', 'Resolution', 'Assignee', 'Reporter'];
  header.push('Created', 'Updated', 'Sprint', 'Sprint', 'Labels', 'Labels', 'Description', 'Parent', 'Watchers');
  header.push('Comment', 'Comment');
  const rows: string[][] = [header];
  for (let number = options.rows; number >= 1; number--) {
    const epic = number % 20 === 0;
    const parent = epic ? '' : `${project}-${Math.min(options.rows, Math.ceil(number / 20) * 20)}`;
    const status =
      options.badEvery && number % options.badEvery === options.badEvery - 1
        ? 'Waiting for Godot'
        : STATUSES[number % STATUSES.length]!;
    const done = status === 'Done' || status === 'Closed';
    rows.push([
      `${epic ? 'Epic' : 'Work item'} ${number}: ${number % 3 === 0 ? 'fix, then "verify"' : 'plain'}`,
      `${project}-${number}`,
      String(10_000 + number),
      epic ? 'Epic' : TYPES[number % TYPES.length]!,
      status,
      PRIORITIES[number % PRIORITIES.length]!,
      done ? "Won't Do" : '',
      number % 4 === 0 ? '' : PEOPLE[number % PEOPLE.length]!,
      PEOPLE[(number + 2) % PEOPLE.length]!,
      jiraDay(number),
      jiraDay(number + 1),
      number % 2 === 0 ? `${project} Sprint ${Math.floor(number / 200)}` : '',
      number % 2 === 0 ? `${project} Sprint ${Math.floor(number / 200) + 1}` : '',
      LABELS[number % LABELS.length]!,
      number % 3 === 0 ? LABELS[(number + 1) % LABELS.length]! : '',
      `Line one of ${number}.\nLine two, with a comma.`,
      parent === `${project}-${number}` ? '' : parent,
      'someone',
      number % 3 === 0 ? `${jiraDay(number + 1)};${PEOPLE[number % PEOPLE.length]};Seen on ${number}; "retry", then ship.` : '',
      number % 6 === 0 ? 'Body only: the importing user wrote it when the issue was created.' : '',
    ]);
  }
  return `\uFEFF${writeCsv(rows)}`;
}

/** Jira's "02/Dec/26 5:28 PM" form, seven hours apart per number. */
function jiraDay(number: number): string {
  return jiraTimeText(new Date(Date.UTC(2026, 0, 1) + number * 3_600_000 * 7).toISOString());
}
