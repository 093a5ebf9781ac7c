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
import { importJiraCsv } from '../store/exchange/import-csv.js';
import type { ImportReport } from '../store/exchange/import-report.js';
import { writeJiraCsv } from '../store/exchange/jira-csv.js';
import { readUserMap } from '../store/exchange/jira-mapping.js';
import { openStore, type TrackerStore } from '../store/index.js';
import { UNNAMED, jiraCloudCsv } from './jira-cloud-csv.js';

const NOW = new Date('2026-12-02T09:00:00.000Z');
const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'jira-migration-'));
test.after(() => fs.rmSync(directory, { recursive: true, force: true }));

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
  // …and written into the people directory: Jira's display name, the account ids as aliases.
  const { assigned: _count, ...zoe } = store.listPeople().people.find((person) => person.handle === 'zoe.angstrom')!;
  assert.equal(zoe, {
    handle: 'zoe.angstrom',
    name: 'Zoë Ångström',
    email: null,
    aliases: ['557058:0a1b2c3d-aaaa-4bbb-8ccc-000000000001'],
  });
  assert.is(store.personHandle('557058:0a1b2c3d-aaaa-4bbb-8ccc-000000000001'), 'zoe.angstrom');
  assert.is(store.personHandle('Siân Ó Briain'), 'sian.o.briain');
  assert.is(store.personHandle(UNNAMED), 'dmitri.k');

  // One step: PAY is new and its rows name statuses the default lacks, so it gets a workflow of
  // the file's statuses (categories from the Status Category column) and every row keeps its own.
  const issue = (n: number) => store.getIssue(`PAY-${n}`);
  const workflow = store.getWorkflow('PAY');
  assert.equal(
    workflow.statuses.map((s) => [s.id, s.name, s.category]),
    [
      ['todo', 'To Do', 'todo'],
      ['in_progress', 'In Progress', 'inprogress'],
      ['code_review', 'Code Review', 'inprogress'],
      ['qa', 'QA', 'inprogress'],
      ['done', 'Done', 'done'],
      ['ready_for_release', 'Ready for Release', 'done'],
      ['wont_do', "Won't Do", 'done'],
    ],
  );
  assert.equal(workflow.resolutions, ['done', 'wont_do', 'duplicate', 'cannot_reproduce']);
  assert.equal(first.workflowsSet, [
    "PAY's own workflow, from the file's statuses: To Do (to do), In Progress (in progress), Code Review (in progress), " +
      "QA (in progress), Done (done), Ready for Release (done), Won't Do (done); resolutions done, wont_do, duplicate, " +
      'cannot_reproduce; any status may move to any other (mcp-tracker workflow PAY sets the moves)',
  ]);
  assert.equal([issue(2).status, issue(2).resolution ?? null], ['code_review', null]); // Code Review
  assert.equal([issue(3).status, issue(3).resolution ?? null], ['qa', null]); // QA
  assert.equal([issue(5).status, issue(5).resolution ?? null], ['wont_do', 'wont_do']); // Won't Do
  assert.equal([issue(6).status, issue(6).resolution ?? null], ['ready_for_release', 'done']); // Ready for Release
  assert.not.ok(
    first.mapped.some((line) => line.startsWith('status ')),
    first.mapped.join('\n'),
  );
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

  // Due Date, Component/s, Fix Version/s and the custom columns kept as the project's fields: defined from the rows' values.
  assert.equal(store.getProjectFields('PAY'), {
    components: ['checkout'],
    versions: ['2026.12'],
    custom: [
      { name: 'Team', type: 'select', options: ['Risk', 'Platform', 'Payments'] },
      { name: 'Platforms', type: 'multiselect', options: ['Web', 'iOS'] },
      { name: 'Hours', type: 'number' },
    ],
  });
  assert.equal(issue(12).fields, {
    Platforms: ['Web', 'iOS'],
    Team: 'Payments',
    components: ['checkout'],
    fix_versions: ['2026.12'],
  });
  assert.equal(issue(35).fields, { Hours: 5, Team: 'Platform', due: '2026-12-24' });
  const count = (query: string) => store.searchIssues({ query, limit: 1 }).total;
  assert.equal(
    [
      '"Team" = Risk',
      'component = checkout',
      'fixVersion = "2026.12"',
      'due = 2026-12-24',
      '"Platforms" = iOS',
      '"Hours" >= 20',
    ].map(count),
    [70, 70, 52, 42, 35, 11],
  );
  for (const line of [
    'Custom field (Team) → "Team", a select field',
    'Custom field (Platforms) → "Platforms", a multiselect field',
    'Custom field (Hours) → "Hours", a number field',
    "Sprint columns → each issue's sprint history (105 issues were in earlier sprints)",
  ])
    assert.ok(first.mapped.includes(line), `${line}\n${first.mapped.join('\n')}`);
  // Time tracking has no place in the model: named as not kept, not dropped silently.
  assert.equal(first.ignoredColumns, [
    'Time Spent (not kept: the tracker has no time tracking or work log)',
    'Log Work (not kept: the tracker has no time tracking or work log)',
  ]);
  // An issue in two sprint columns was in both: created in the first, moved to the second.
  const sprintId = (name: string) => sprints.find((s) => s.name === name)!.id;
  assert.equal(
    store
      .getHistory('PAY-1')
      .entries.filter((entry) => entry.type === 'sprint_changed')
      .map((entry) => entry.change),
    [`PAY-1 moved from ${sprintId('PAY Sprint 1')} to ${sprintId('PAY Sprint 3')}`],
  );
  assert.is(issue(1).sprint, sprintId('PAY Sprint 3'));

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
    [issue(2).title, issue(2).status, issue(2).resolution, issue(2).fields?.due],
    ['Reworded: Bug 2 of the payments migration', 'done', 'done', '2027-01-15'],
  );
  assert.ok(changed.alreadyPresent.find((entry) => entry.key === 'PAY-2')!.changes.some((c) => c.includes('fields')));
  assert.is(store.listIssues({ project: 'PAY', limit: 1 }).total, 210);
  assert.equal(again.workflowsSet, [], 'PAY has its own workflow now: the import leaves it as it is');

  // A duplicate found in To Do is closed in one call, with its resolution, along PAY's own workflow.
  assert.is(issue(14).status, 'todo');
  await store.updateStatus('PAY-14', 'Done', { resolution: 'Duplicate' });
  assert.equal([issue(14).status, issue(14).resolution], ['done', 'duplicate']);

  // Exported as Jira writes them (Due Date, Component/s, Fix Version/s, Custom field (Name)) and read back the same.
  const exported = writeJiraCsv(store.exportSnapshot());
  const copy = await openStore({
    path: path.join(directory, 'copy.jsonl'),
    log: () => {},
    watch: false,
    seed: false,
    now: () => NOW,
  });
  assert.equal((await run(copy, exported)).refused, []);
  assert.equal(copy.getProjectFields('PAY'), store.getProjectFields('PAY'));
  assert.equal(copy.getWorkflow('PAY'), store.getWorkflow('PAY'), 'Status and Status Category make the workflow again');
  for (const n of [2, 12, 35, 60]) assert.equal(copy.getIssue(`PAY-${n}`).fields, issue(n).fields, `PAY-${n}`);
  copy.close();
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
