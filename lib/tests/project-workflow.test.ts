// Workflows per project: a project with statuses of its own (Code Review, QA, Won't Do), its
// moves, its resolutions, closing a duplicate in one call through the tools, and a change of
// workflow that would orphan issues refused with their list, or made with a mapping.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { transcript } from '../../protocol/tests/harness.js';
import { createTrackerServer } from '../tracker/server.js';
import { DEFAULT_WORKFLOW } from '../store/model/workflow.js';
import { importJiraCsv } from '../store/exchange/index.js';
import { demoStores, domainFailure } from './demo-stores.js';

const demo = demoStores('tracker-project-workflow');
test.after(demo.removeAll);

/** WEB's own workflow, as a team writes it (docs/workflows.md): ids come from the names. */
const TEAM_WORKFLOW = {
  statuses: [
    { name: 'To Do', category: 'To Do' },
    { name: 'In Progress', category: 'In Progress' },
    { name: 'Code Review', category: 'In Progress' },
    { name: 'QA', category: 'In Progress' },
    { name: 'Done', category: 'Done' },
    { name: "Won't Do", category: 'Done' },
  ],
  transitions: {
    'To Do': ['In Progress'],
    'In Progress': ['Code Review'],
    'Code Review': ['QA', 'In Progress'],
    QA: ['Done', 'In Progress'],
    Done: ['To Do'],
    "Won't Do": ['To Do'],
  },
  resolutions: ['Done', 'Duplicate', "Won't Do"],
  close_from_any_open: true,
};

/** The same without QA: what issues in QA then need a mapping for. */
const WITHOUT_QA = {
  ...TEAM_WORKFLOW,
  statuses: TEAM_WORKFLOW.statuses.filter((status) => status.name !== 'QA'),
  transitions: { ...TEAM_WORKFLOW.transitions, QA: undefined, 'Code Review': ['Done', 'In Progress'] },
};
delete (WITHOUT_QA.transitions as Record<string, unknown>)['QA'];

test('a project with its own workflow closes a duplicate in one call: the transcript', async () => {
  const store = await demo.open();
  await store.setWorkflow('WEB', TEAM_WORKFLOW);
  const t = transcript(createTrackerServer(store).definition);
  await t.initialize('2025-11-25');
  const call = async (id: number, name: string, args: Record<string, unknown>) => {
    t.client({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
    const answers = (await t.until((messages) => messages.some((message) => (message as { id?: number }).id === id))) as {
      id?: number;
    }[];
    return answers.find((message) => message.id === id) as {
      result: { structuredContent: any; isError?: boolean; content: any[] };
    };
  };

  // → get_issue WEB-3 (To Do): the moves come from WEB's workflow.
  const before = await call(1, 'get_issue', { key: 'WEB-3' });
  assert.is(before.result.structuredContent.issue.status, 'todo');
  assert.equal(before.result.structuredContent.transitions, ['in_progress']);

  // → update_issue {"key":"WEB-3","status":"Done","resolution":"Duplicate"}: one call, one move.
  const closed = await call(2, 'update_issue', { key: 'WEB-3', status: 'Done', resolution: 'Duplicate' });
  assert.not.ok(closed.result.isError, JSON.stringify(closed.result.content));
  assert.is(closed.result.structuredContent.issue.status, 'done');
  assert.is(store.getIssue('WEB-3').resolution, 'duplicate');
  const moves = store.getHistory('WEB-3').entries.filter((entry) => entry.type === 'status_changed');
  assert.equal(
    moves.map((entry) => entry.change),
    ['WEB-3 status: todo → done (duplicate)'],
  );

  // → a move WEB's workflow does not have is refused, naming the ones it has.
  const skipped = await call(3, 'update_issue', { key: 'WEB-1', status: 'QA' });
  assert.ok(skipped.result.isError);
  assert.match(
    skipped.result.content[0].text,
    'WEB-1 cannot move from in_progress to qa. From in_progress it can move to: code_review.',
  );

  // → along the workflow by the team's names; Won't Do is a done status of WEB's own.
  assert.not.ok((await call(4, 'update_issue', { key: 'WEB-1', status: 'Code Review' })).result.isError);
  const review = await call(5, 'get_issue', { key: 'WEB-1' });
  assert.equal(review.result.structuredContent.transitions, ['qa', 'in_progress']);
  const wontDo = await call(6, 'update_issue', { key: 'WEB-1', status: "Won't Do", resolution: "won't do" });
  assert.is(wontDo.result.structuredContent.issue.status, 'wont_do');
  assert.is(store.getIssue('WEB-1').resolution, 'wont_do');

  // PROJ keeps the default workflow: its statuses and moves are as before.
  const proj = await call(7, 'update_issue', { key: 'PROJ-104', status: 'Code Review' });
  assert.match(
    proj.result.content[0].text,
    "Unknown status 'Code Review'. Use one of: todo, in_progress, in_review, blocked, done, reopened.",
  );

  // A change of workflow changes the moves get_issue shows, for issues it does not move too (no answer kept from before).
  assert.equal((await call(8, 'get_issue', { key: 'WEB-2' })).result.structuredContent.transitions, ['todo']);
  await store.setWorkflow('WEB', { ...TEAM_WORKFLOW, transitions: { ...TEAM_WORKFLOW.transitions, Done: [] } });
  assert.equal((await call(9, 'get_issue', { key: 'WEB-2' })).result.structuredContent.transitions, []);
  store.close();
});

test("completion of a status offers the chosen project's own statuses, by id or name; without a project every workflow's", async () => {
  const store = await demo.open();
  await store.setWorkflow('WEB', TEAM_WORKFLOW);
  const t = transcript(createTrackerServer(store).definition);
  await t.initialize('2025-11-25');
  const complete = async (id: number, value: string, project?: string) => {
    t.client({
      jsonrpc: '2.0',
      id,
      method: 'completion/complete',
      params: {
        ref: { type: 'ref/resource', uri: 'jira://project/{project_key}/issues{?status,assignee,priority}' },
        argument: { name: 'status', value },
        ...(project === undefined ? {} : { context: { arguments: { project_key: project } } }),
      },
    });
    const answers = (await t.until((messages) => messages.some((message) => (message as { id?: number }).id === id))) as {
      id?: number;
      result?: { completion: { values: string[] } };
    }[];
    return answers.find((message) => message.id === id)!.result!.completion.values;
  };
  assert.equal(await complete(1, 'q', 'WEB'), ['qa'], "WEB's QA");
  assert.equal(await complete(2, "won't", 'web'), ['wont_do'], 'by its name, in any case');
  assert.equal(await complete(3, 'in_r', 'WEB'), [], 'WEB has no in_review');
  assert.equal(await complete(4, 'in_r', 'PROJ'), ['in_review'], "PROJ's default workflow");
  assert.equal(await complete(5, 'co', 'PROJ'), []);
  assert.equal(await complete(6, 'co'), ['code_review'], 'no project chosen: every workflow');
  store.close();
});

test('without close_from_any_open, closing goes along the moves like any other status', async () => {
  const store = await demo.open();
  await store.setWorkflow('WEB', { ...TEAM_WORKFLOW, close_from_any_open: false });
  const message = await domainFailure(() => store.updateIssue('WEB-3', { status: 'done', resolution: 'duplicate' }));
  assert.match(message, 'WEB-3 cannot move from todo to done. From todo it can move to: in_progress.');
  store.close();
});

test('a change of workflow that would orphan issues is refused with their list; nothing is written', async () => {
  const store = await demo.open();
  await store.setWorkflow('WEB', TEAM_WORKFLOW);
  await store.updateStatus('WEB-1', 'code review');
  await store.updateStatus('WEB-1', 'qa');
  const size = fs.statSync(store.path).size;
  const message = await domainFailure(() => store.setWorkflow('WEB', WITHOUT_QA));
  assert.is(
    message,
    "WEB's workflow was not changed: issues sit in statuses the new workflow drops: qa (1: WEB-1). " +
      'Say where each goes (--map qa=todo), or move them first.',
  );
  assert.is(fs.statSync(store.path).size, size, 'nothing written');
  assert.is(store.getIssue('WEB-1').status, 'qa');
  assert.equal(
    store.getWorkflow('WEB').statuses.map((status) => status.id),
    ['todo', 'in_progress', 'code_review', 'qa', 'done', 'wont_do'],
  );
  store.close();
});

test('a change of workflow with a mapping moves the issues in dropped statuses in the same record', async () => {
  const store = await demo.open();
  await store.setWorkflow('WEB', TEAM_WORKFLOW);
  await store.updateStatus('WEB-1', 'Code Review');
  await store.updateStatus('WEB-1', 'QA');
  const { change } = await store.setWorkflow('WEB', WITHOUT_QA, { QA: 'Code Review' });
  assert.is(change.description, "WEB's workflow set (5 statuses); 1 issue moved: qa → code_review");
  assert.equal(change.issues, ['WEB-1']);
  assert.is(store.getIssue('WEB-1').status, 'code_review');
  assert.equal(store.getTransitions('WEB-1'), ['done', 'in_progress']);
  const last = store.getHistory('WEB-1').entries[0];
  assert.is(last?.type, 'project.workflow_set');
  // A mapping keeps an issue open or done, and names a status of the new workflow.
  assert.match(await domainFailure(() => store.setWorkflow('WEB', TEAM_WORKFLOW, { code_review: 'done' })), 'keeps');
  assert.match(
    await domainFailure(() =>
      store.setWorkflow(
        'WEB',
        { ...WITHOUT_QA, statuses: WITHOUT_QA.statuses.slice(0, 2).concat(WITHOUT_QA.statuses.slice(3)), transitions: {} },
        { code_review: 'done' },
      ),
    ),
    'cannot map to done (done): a mapping keeps an issue open or done',
  );
  store.close();
});

test('a status has one category everywhere; a workflow with moves to unknown statuses is not one', async () => {
  const store = await demo.open();
  const inReviewDone = {
    ...TEAM_WORKFLOW,
    statuses: [...TEAM_WORKFLOW.statuses, { id: 'in_review', name: 'Reviewed', category: 'done' }],
  };
  assert.match(
    await domainFailure(() => store.setWorkflow('WEB', inReviewDone)),
    'Status in_review is in the in progress category in the default workflow; a status has one category everywhere',
  );
  assert.match(
    await domainFailure(() => store.setWorkflow('WEB', { ...TEAM_WORKFLOW, transitions: { 'To Do': ['Shipped'] } })),
    "Not a workflow: transitions of To Do: 'Shipped' is not a status of the workflow",
  );
  assert.match(
    await domainFailure(() =>
      store.setWorkflow('WEB', { ...TEAM_WORKFLOW, statuses: TEAM_WORKFLOW.statuses.slice(0, 4), transitions: {} }),
    ),
    'a workflow needs a status in the done category',
  );
  store.close();
});

test("JQL knows each project's statuses: status by name, statusCategory, Unresolved, ORDER BY status", async () => {
  const store = await demo.open();
  await store.setWorkflow('WEB', TEAM_WORKFLOW);
  await store.updateStatus('WEB-1', 'Code Review');
  await store.updateIssue('WEB-3', { status: "Won't Do", resolution: 'duplicate' });
  const keys = (query: string) => store.searchIssues({ query, limit: 100 }).items.map((issue) => issue.key);
  assert.equal(keys('status = "Code Review"'), ['WEB-1']);
  assert.ok(keys('statusCategory = "In Progress"').includes('WEB-1'));
  assert.equal(keys('statusCategory = Done AND project = WEB'), ['WEB-2', 'WEB-3']);
  assert.equal(keys('resolution = Unresolved AND project = WEB'), ['WEB-1']);
  assert.equal(keys('resolution = Duplicate AND project = WEB'), ['WEB-3']);
  assert.equal(keys('project = WEB ORDER BY status'), ['WEB-2', 'WEB-1', 'WEB-3'], 'done, then code_review, wont_do by id');
  assert.equal(
    store.searchIssues({ status: 'code review', limit: 10 }).items.map((issue) => issue.key),
    ['WEB-1'],
  );
  assert.throws(() => keys('status = Shipped'), /Unknown status 'Shipped'.*code_review/);
  store.close();
});

test('a workflow is kept: a reopened journal (replayed, and from its snapshot) has it and its statuses', async () => {
  const store = await demo.open();
  await store.setWorkflow('WEB', TEAM_WORKFLOW);
  await store.updateStatus('WEB-1', 'Code Review');
  const file = store.path;
  store.close();
  for (const round of ['snapshot', 'replay']) {
    if (round === 'replay') fs.rmSync(`${file}.snapshot`, { force: true });
    const again = await demo.open(file);
    assert.equal(
      again.getWorkflow('WEB').statuses.map((status) => status.id),
      ['todo', 'in_progress', 'code_review', 'qa', 'done', 'wont_do'],
      round,
    );
    assert.equal(again.getTransitions('WEB-1'), ['qa', 'in_progress'], round);
    assert.equal(
      again.searchIssues({ query: 'statusCategory = "In Progress" AND project = WEB' }).items.map((i) => i.key),
      ['WEB-1'],
      round,
    );
    assert.equal(
      again.getWorkflow('PROJ').statuses.map((status) => status.id),
      ['todo', 'in_progress', 'in_review', 'blocked', 'done', 'reopened'],
    );
    again.close();
  }
});

test('a journal whose workflow record would leave an issue in a status the workflow lacks does not open', async () => {
  const store = await demo.open();
  await store.setWorkflow('WEB', TEAM_WORKFLOW);
  await store.updateStatus('WEB-1', 'Code Review');
  const file = store.path;
  store.close();
  fs.rmSync(`${file}.snapshot`, { force: true });
  const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
  const last = JSON.parse(lines.at(-1) ?? '{}') as { seq: number; at: string };
  const orphaning = { seq: last.seq + 1, at: last.at, type: 'project.workflow_set', project: 'WEB', workflow: DEFAULT_WORKFLOW };
  fs.appendFileSync(file, `${JSON.stringify(orphaning)}\n`);
  let message = 'it opened';
  try {
    (await demo.open(file)).close();
  } catch (error) {
    message = (error as Error).message;
  }
  assert.match(message, 'WEB-1 would be left in code_review, which the workflow of WEB lacks');
});

test("a Jira migration keeps the team's statuses in one step: a new project gets a workflow of the file's statuses; a project with its own keeps it", async () => {
  const store = await demo.open();
  const csv = [
    'Summary,Issue key,Issue Type,Status,Status Category,Resolution,Reporter',
    'Refund API,PAY-1,Story,Code Review,In Progress,,alice',
    'Ledger export,PAY-2,Task,QA,In Progress,,alice',
    "Old invoice path,PAY-3,Task,Won't Do,Done,Won't Do,alice",
    'Card vault,PAY-4,Task,To Do,To Do,,alice',
  ].join('\n');
  const now = () => new Date();
  const first = await importJiraCsv(store, csv, { dryRun: false, now });
  const statuses = () => ['PAY-1', 'PAY-2', 'PAY-3', 'PAY-4'].map((key) => store.getIssue(key).status);
  assert.equal(statuses(), ['code_review', 'qa', 'wont_do', 'todo'], "PAY's own statuses, in one import");
  assert.equal(
    ['PAY-3', 'PAY-4'].map((key) => store.getIssue(key).resolution),
    ['wont_do', null],
  );
  assert.equal(
    store.getWorkflow('PAY').statuses.map((status) => status.name),
    ['To Do', 'Code Review', 'QA', "Won't Do"],
  );
  assert.is(first.workflowsSet.length, 1);
  // The team tightens the moves; the same file again changes nothing and leaves the workflow as set.
  await store.setWorkflow('PAY', TEAM_WORKFLOW);
  const again = await importJiraCsv(store, csv, { dryRun: false, now });
  assert.equal([again.refused.length, again.workflowsSet.length], [0, 0]);
  assert.ok(again.alreadyPresent.every((entry) => entry.changes.length === 0));
  assert.equal(statuses(), ['code_review', 'qa', 'wont_do', 'todo']);
  // PROJ has issues on the default workflow and the file names only the default's statuses: it stays on the default.
  const proj = await importJiraCsv(store, 'Summary,Issue key,Status,Reporter\nMore,PROJ-900,In Progress,alice', {
    dryRun: false,
    now,
  });
  assert.equal([proj.refused.length, proj.workflowsSet.length], [0, 0]);
  assert.equal(store.getWorkflow('PROJ'), DEFAULT_WORKFLOW);
  store.close();
});

test('a Jira import into a project still on the default workflow, with issues, keeps the statuses they sit in', async () => {
  const store = await demo.open();
  const held = ['todo', 'in_progress', 'in_review', 'blocked', 'done'].filter(
    (status) => store.searchIssues({ project: 'WEB', status, limit: 1 }).total > 0,
  );
  const report = await importJiraCsv(
    store,
    'Summary,Issue key,Status,Status Category,Reporter\nTriage,WEB-900,Triage,To Do,alice\nShip it,WEB-901,Done,Done,alice',
    { dryRun: false, now: () => new Date() },
  );
  assert.equal(report.refused, []);
  const ids = store.getWorkflow('WEB').statuses.map((status) => status.id);
  assert.ok(ids.includes('triage'), ids.join(', '));
  for (const status of held) assert.ok(ids.includes(status), `${status} kept: WEB's issues sit in it`);
  assert.is(store.getIssue('WEB-900').status, 'triage');
  store.close();
});

/** The built command, as an administrator runs it: stdout and stderr apart. */
function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['dist/mcp-tracker.mjs', ...args], {
    encoding: 'utf8',
    env: { ...process.env, MCP_TRACKER_STORE: '' },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

test('mcp-tracker workflow prints a workflow in the form it sets, refuses an orphaning change, and maps with --map', async () => {
  const store = await demo.open();
  const file = store.path;
  store.close();
  const printed = cli('workflow', 'WEB', '--data', file);
  assert.is(printed.status, 0, printed.stderr);
  assert.equal(JSON.parse(printed.stdout), DEFAULT_WORKFLOW, 'no workflow of its own: the default');
  const team = path.join(path.dirname(file), 'team.json');
  fs.writeFileSync(team, JSON.stringify(TEAM_WORKFLOW));
  assert.is(cli('workflow', 'WEB', team, '--data', file).stderr, "[mcp-tracker] WEB's workflow set (6 statuses)\n");
  const reopened = await demo.open(file);
  await reopened.updateStatus('WEB-1', 'Code Review');
  await reopened.updateStatus('WEB-1', 'QA');
  reopened.close();
  const smaller = path.join(path.dirname(file), 'smaller.json');
  fs.writeFileSync(smaller, JSON.stringify(WITHOUT_QA));
  const refused = cli('workflow', 'WEB', smaller, '--data', file);
  assert.is(refused.status, 1);
  assert.match(
    refused.stderr,
    'issues sit in statuses the new workflow drops: qa (1: WEB-1). Say where each goes (--map qa=todo)',
  );
  const mapped = cli('workflow', 'WEB', smaller, '--map', 'QA=Code Review', '--data', file);
  assert.is(mapped.stderr, "[mcp-tracker] WEB's workflow set (5 statuses); 1 issue moved: qa → code_review\n");
  const statuses = JSON.parse(cli('workflow', 'WEB', '--data', file).stdout).statuses.map((s: { id: string }) => s.id);
  assert.equal(statuses, ['todo', 'in_progress', 'code_review', 'done', 'wont_do']);
});

test.run();
