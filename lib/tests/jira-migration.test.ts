// A team moving off Jira Cloud (issue 33): its CSV export as Jira writes it, with display
// names (diacritics and all), account ids in the comments and the Id columns, decimal story
// points, its own statuses (Code Review, QA, Won't Do, Ready for Release) and types (Spike,
// Sub-task under stories), several sprints per issue and custom columns, imported with no row
// refused, then imported again: nothing duplicated, the changed rows updated.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { writeCsv } from '../store/exchange/csv.js';
import { importJiraCsv, type ImportReport } from '../store/exchange/import-csv.js';
import { readUserMap } from '../store/exchange/jira-mapping.js';
import { openStore, type TrackerStore } from '../store/index.js';

const NOW = new Date('2026-12-02T09:00:00.000Z');
const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'jira-migration-'));
test.after(() => fs.rmSync(directory, { recursive: true, force: true }));

const PEOPLE = [
  { name: 'Zoë Ångström', id: '557058:0a1b2c3d-aaaa-4bbb-8ccc-000000000001' },
  { name: 'Jürgen Müller', id: '557058:0a1b2c3d-aaaa-4bbb-8ccc-000000000002' },
  { name: 'Siân Ó Briain', id: '557058:0a1b2c3d-aaaa-4bbb-8ccc-000000000003' },
  { name: 'Ana López', id: '5b10ac8d82e05b22cc7d4ef5' },
];
/** Named only by account id, in comments: the user map says who. */
const UNNAMED = '557058:0a1b2c3d-aaaa-4bbb-8ccc-00000000dead';
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
  'Comment',
  'Comment',
];

/** Row n of the export: an epic every 25th, stories under it, two sub-tasks after each 5th story. */
function jiraCloudCsv(rows: number, edited: ReadonlySet<number> = new Set()): string {
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
      n % 5 === 0 ? '2026-12-24' : '',
      `02/Dec/26 ${(n % 11) + 1}:28 AM;${commenter};Looked at it, ${n}; fine`,
      n % 4 === 0 ? `03/Dec/26 9:00 PM;${reporter.id};Second thoughts on ${n}` : '',
    ]);
  }
  return writeCsv(lines);
}

const userMap = readUserMap(`# who the account ids no column names are\n${UNNAMED},dmitri.k\n`);
const run = (store: TrackerStore, text: string, dryRun = false): Promise<ImportReport> =>
  importJiraCsv(store, text, { dryRun, now: () => NOW, userMap });

test('a 210-row Jira Cloud export: every row imported, people, statuses, types, sub-tasks and sprints mapped; again: nothing duplicated, the edited rows updated', async () => {
  const store = await openStore({
    path: path.join(directory, 'pay.jsonl'),
    log: () => {},
    watch: false,
    seed: false,
    now: () => NOW,
  });
  const first = await run(store, jiraCloudCsv(210));
  assert.equal(first.refused, [], first.refused.map((r) => `${r.row}: ${r.reason}`).join('\n'));
  assert.is(first.imported.length, 210);
  assert.ok(
    first.imported.every((entry) => entry.from === entry.key),
    'every key kept',
  );
  assert.equal(first.linksLeftOut, []);
  assert.is(store.listIssues({ project: 'PAY', limit: 1 }).total, 210);

  // People: display names folded, account ids through the Id columns or the user map.
  assert.is(store.listProjects().find((p) => p.key === 'PAY')!.lead, 'zoe.angstrom');
  const pay2 = store.getIssue('PAY-2');
  assert.is(pay2.assignee, 'sian.o.briain');
  assert.is(pay2.reporter, 'ana.lopez');
  assert.is(pay2.comments[0]!.author, 'zoe.angstrom'); // Zoë's account id, named beside her in Assignee Id
  assert.is(store.getIssue('PAY-7').comments[0]!.author, 'dmitri.k');
  assert.ok(first.mapped.includes(`${UNNAMED} → dmitri.k (by the user map)`), first.mapped.join('\n'));
  assert.ok(first.mapped.includes('Jürgen Müller → jurgen.muller (display name)'), first.mapped.join('\n'));

  // Statuses by name or category, Won't Do closing with its resolution; Spike a task; Lowest our lowest.
  const issue = (n: number) => store.getIssue(`PAY-${n}`);
  assert.equal([issue(2).status, issue(2).resolution ?? null], ['in_review', null]); // Code Review
  assert.equal([issue(5).status, issue(5).resolution ?? null], ['done', 'wont_do']); // Won't Do
  assert.equal([issue(6).status, issue(6).resolution ?? null], ['done', 'done']); // Ready for Release, category Done
  assert.ok(first.mapped.some((line) => line.startsWith('status Ready for Release → done, by its status category Done')));
  assert.is(issue(4).type, 'task'); // a Spike
  assert.is(issue(4).priority, 'P3'); // Lowest

  // Decimal points; sub-tasks under stories, stories under epics (Parent holds Jira's issue id).
  assert.is(issue(3).story_points, 3.5);
  assert.is(issue(2).story_points, 2.5);
  assert.is(issue(3).parent, 'PAY-2');
  assert.is(issue(2).parent, 'PAY-1');
  assert.is(issue(1).type, 'epic');

  // Every sprint a column names is kept; those no row has now are closed.
  const sprints = store.listSprints({ project: 'PAY' });
  assert.equal(sprints.map((s) => [s.name, s.state]).sort(), [
    ['PAY Sprint 1', 'closed'],
    ['PAY Sprint 2', 'future'],
    ['PAY Sprint 3', 'future'],
    ['PAY Sprint 4', 'future'],
  ]);

  // Again, the same file: nothing written twice, nothing changed.
  const again = await run(store, jiraCloudCsv(210));
  assert.equal([again.imported.length, again.refused.length, again.alreadyPresent.length], [0, 0, 210]);
  assert.ok(again.alreadyPresent.every((entry) => entry.changes.length === 0));
  assert.is(store.listIssues({ project: 'PAY', limit: 1 }).total, 210);

  // A changed file: its 21 edited rows updated in place (title, status, resolution), by key; still 210 issues.
  const edited = new Set(Array.from({ length: 21 }, (_, i) => i * 10 + 2));
  const dry = await run(store, jiraCloudCsv(210, edited), true);
  assert.is(dry.alreadyPresent.filter((entry) => entry.changes.length > 0).length, 21);
  assert.is(issue(2).title, 'Bug 2 of the payments migration', 'the dry run wrote nothing');
  const changed = await run(store, jiraCloudCsv(210, edited));
  assert.equal([changed.imported.length, changed.refused.length], [0, 0]);
  assert.equal(
    changed.alreadyPresent.filter((entry) => entry.changes.length > 0).map((entry) => entry.key),
    [...edited].sort((a, b) => a - b).map((n) => `PAY-${n}`),
  );
  assert.equal(
    [issue(2).title, issue(2).status, issue(2).resolution],
    ['Reworded: Bug 2 of the payments migration', 'done', 'done'],
  );
  assert.is(store.listIssues({ project: 'PAY', limit: 1 }).total, 210);
  store.close();
});

test('display names as handles: diacritics folded, spaces to dots, nothing invented for what folds to nothing', async () => {
  const { handleFromName } = await import('../store/exchange/jira-mapping.js');
  assert.is(handleFromName('Zoë Ångström'), 'zoe.angstrom');
  assert.is(handleFromName('Łukasz Żółć'), 'lukasz.zolc');
  assert.is(handleFromName('Siân Ó Briain'), 'sian.o.briain');
  assert.is(handleFromName('Straße'), 'strasse');
  assert.is(handleFromName('李小龍'), null);
});

test.run();
