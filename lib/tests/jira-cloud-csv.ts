// A Jira Cloud CSV export as Jira writes it, for the migration tests of both backends
// (jira-migration.test.ts, spec-tests/tests-postgres/jira-migration-postgres.test.ts).
import { writeCsv } from '../store/exchange/csv.js';

const PEOPLE = [
  { name: 'Zoë Ångström', id: '557058:0a1b2c3d-aaaa-4bbb-8ccc-000000000001' },
  { name: 'Jürgen Müller', id: '557058:0a1b2c3d-aaaa-4bbb-8ccc-000000000002' },
  { name: 'Siân Ó Briain', id: '557058:0a1b2c3d-aaaa-4bbb-8ccc-000000000003' },
  { name: 'Ana López', id: '5b10ac8d82e05b22cc7d4ef5' },
];
/** Named only by account id, in comments: the user map says who. */
export const UNNAMED = '557058:0a1b2c3d-aaaa-4bbb-8ccc-00000000dead';
const STATUSES = [
  ['To Do', 'To Do'],
  ['In Progress', 'In Progress'],
  ['Code Review', 'In Progress'],
  ['QA', 'In Progress'],
  ['Done', 'Done'],
  ["Won't Do", 'Done'],
  ['Ready for Release', 'Done'],
] as const;
const PRIORITIES = ['Highest', 'High', 'Medium', 'Low', 'Lowest'];
const POINTS = ['0.5', '1', '2.5', '3.5', '8', ''];
const SPRINTS = ['PAY Sprint 1', 'PAY Sprint 2', 'PAY Sprint 3', 'PAY Sprint 4'];
const HEADER = [
  'Summary',
  'Issue key',
  'Issue id',
  'Issue Type',
  'Status',
  'Status Category',
  'Project key',
  'Project name',
  'Project lead',
  'Priority',
  'Resolution',
  'Assignee',
  'Assignee Id',
  'Reporter',
  'Reporter Id',
  'Created',
  'Updated',
  'Sprint',
  'Sprint',
  'Sprint',
  'Labels',
  'Description',
  'Parent',
  'Custom field (Story Points)',
  'Custom field (Team)',
  'Fix Version/s',
  'Component/s',
  'Due Date',
  'Custom field (Platforms)',
  'Custom field (Platforms)',
  'Custom field (Hours)',
  'Time Spent',
  'Log Work',
  'Comment',
  'Comment',
];

/** Row n of the export: an epic every 25th, stories under it, two sub-tasks after each 5th story. */
export function jiraCloudCsv(rows: number, edited: ReadonlySet<number> = new Set()): string {
  const lines: string[][] = [HEADER];
  let epic = 0;
  let story = 0;
  for (let n = 1; n <= rows; n++) {
    const type = n % 25 === 1 ? 'Epic' : n % 5 === 3 || n % 5 === 4 ? 'Sub-task' : ['Story', 'Task', 'Bug', 'Spike'][n % 4]!;
    if (type === 'Epic') epic = n;
    if (type === 'Story' || type === 'Task' || type === 'Bug' || type === 'Spike') story = n;
    const parent = type === 'Epic' ? '' : type === 'Sub-task' && story > epic ? story : epic;
    const [status, category] = STATUSES[n % STATUSES.length]!;
    const assignee = PEOPLE[n % PEOPLE.length]!;
    const reporter = PEOPLE[(n + 1) % PEOPLE.length]!;
    // Odd rows were in Sprint 1 before their sprint now: Jira writes a column per sprint.
    const sprints = n % 2 === 1 ? [SPRINTS[0]!, SPRINTS[1 + (n % 3)]!] : [SPRINTS[1 + (n % 3)]!];
    const resolution = status === 'Done' ? 'Done' : status === "Won't Do" ? "Won't Do" : '';
    const commenter = n % 7 === 0 ? UNNAMED : PEOPLE[(n + 2) % PEOPLE.length]!.id;
    lines.push([
      `${edited.has(n) ? 'Reworded: ' : ''}${type} ${n} of the payments migration`,
      `PAY-${n}`,
      String(10_000 + n),
      type,
      edited.has(n) ? 'Done' : status,
      edited.has(n) ? 'Done' : category,
      'PAY',
      'Payments',
      'Zoë Ångström',
      PRIORITIES[n % PRIORITIES.length]!,
      edited.has(n) ? 'Done' : resolution,
      n % 6 === 0 ? '' : assignee.name,
      n % 6 === 0 ? '' : assignee.id,
      reporter.name,
      reporter.id,
      `0${(n % 9) + 1}/Nov/26 ${(n % 11) + 1}:0${n % 10} AM`,
      `2${n % 9}/Nov/26 4:15 PM`,
      sprints[0] ?? '',
      sprints[1] ?? '',
      '',
      n % 2 === 0 ? 'payments' : '',
      `Moved from Jira; see ${n}.`,
      parent === '' ? '' : String(10_000 + parent),
      POINTS[n % POINTS.length]!,
      ['Payments', 'Risk', 'Platform'][n % 3]!,
      n % 4 === 0 ? '2026.12' : '',
      n % 3 === 0 ? 'checkout' : '',
      edited.has(n) ? '15/Jan/27 12:00 AM' : n % 5 === 0 ? '2026-12-24' : '',
      n % 2 === 0 ? 'Web' : '',
      n % 6 === 0 ? 'iOS' : '',
      n % 7 === 0 ? String(n / 7) : '',
      n % 8 === 0 ? '7200' : '',
      n % 8 === 0 ? `Fixed it;02/Dec/26 9:00 AM;${assignee.id};7200` : '',
      `02/Dec/26 ${(n % 11) + 1}:28 AM;${commenter};Looked at it, ${n}; fine`,
      n % 4 === 0 ? `03/Dec/26 9:00 PM;${reporter.id};Second thoughts on ${n}` : '',
    ]);
  }
  return writeCsv(lines);
}
