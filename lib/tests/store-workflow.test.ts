// The workflow: forgiving status names, the moves allowed from each status, resolutions,
// blocked and back, and a journal written before the rule still opening.
import fs from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseResolution, parseStatus } from '../store/index.js';
import { demoStores, domainFailure } from './demo-stores.js';
import { allowedMoves, DEFAULT_WORKFLOW } from '../store/model/workflow.js';

const demo = demoStores('tracker-workflow');
test.after(demo.removeAll);
const openDemo = demo.open;

test('one status parser forgives case, spaces, dashes and Jira names, and refuses the rest', async () => {
  for (const spelling of ['In Progress', 'in-progress', 'IN_PROGRESS', ' inprogress ']) {
    assert.is(parseStatus(spelling), 'in_progress', spelling);
  }
  assert.is(parseStatus('To Do'), 'todo');
  assert.is(parseStatus('Open'), 'todo');
  assert.is(parseStatus('Closed'), 'done');
  assert.is(parseStatus('Re-opened'), 'reopened');
  assert.throws(() => parseStatus('finished'), /Unknown status 'finished'. Use one of: todo, in_progress/);
  assert.throws(() => parseStatus(42), /Unknown status '42'/);
  assert.is(parseResolution("Won't Do"), 'wont_do');
  assert.throws(() => parseResolution('fixed'), /Use one of: done, wont_do, duplicate, cannot_reproduce/);
});

test('an illegal move is refused, naming the moves allowed from where the issue is; nothing is written', async () => {
  const store = await openDemo();
  const before = fs.statSync(store.path).size;
  const message = await domainFailure(() => store.updateStatus('PROJ-104', 'done'));
  assert.match(message, 'PROJ-104 cannot move from todo to done. From todo it can move to: in_progress, blocked.');
  assert.is(fs.statSync(store.path).size, before);
  assert.equal(store.getTransitions('PROJ-104'), ['in_progress', 'blocked']);
  store.close();
});

test('done takes a resolution (default done), reopening clears it; a resolution on another move is refused', async () => {
  const store = await openDemo();
  const done = await store.updateStatus('PROJ-103', 'Done', { resolution: "won't do" });
  assert.is(done.issue.resolution, 'wont_do');
  assert.is(done.change.description, 'PROJ-103 status: in_review → done (wont_do)');
  assert.match(await domainFailure(() => store.updateStatus('PROJ-103', 'done', { resolution: 'duplicate' })), 'reopen it');
  const reopened = await store.updateStatus('PROJ-103', 'reopened');
  assert.is(reopened.issue.resolution, null);
  assert.match(await domainFailure(() => store.updateStatus('PROJ-103', 'in_progress', { resolution: 'done' })), 'Leave it out');
  await store.updateStatus('PROJ-103', 'in_progress');
  await store.updateStatus('PROJ-103', 'in_review');
  assert.is((await store.updateStatus('PROJ-103', 'done')).issue.resolution, 'done');
  store.close();
});

test('closing: from any open status straight to done in one call when a resolution says why, no time in progress recorded', async () => {
  const store = await openDemo();
  assert.is(store.getIssue('PROJ-104').status, 'todo');
  const closed = await store.updateIssue('PROJ-104', { status: 'done', resolution: 'duplicate' });
  assert.equal([closed.issue.status, closed.issue.resolution], ['done', 'duplicate']);
  assert.is(closed.change.description, 'PROJ-104 status: todo → done (duplicate)');
  // One move, todo → done: the issue was never in progress.
  const moves = store.getHistory('PROJ-104').entries.filter((entry) => entry.type === 'status_changed');
  assert.equal(
    moves.map((entry) => entry.change),
    ['PROJ-104 status: todo → done (duplicate)'],
  );
  // Without a resolution, done is still reached through review.
  assert.match(
    await domainFailure(() => store.updateStatus('PROJ-106', 'done')),
    'any open status closes to a done status with a resolution',
  );
  store.close();
});

test('blocked goes back to the status it came from, or to todo / in_progress', async () => {
  const store = await openDemo();
  await store.updateStatus('PROJ-103', 'blocked');
  assert.equal(store.getTransitions('PROJ-103'), ['todo', 'in_progress', 'in_review']);
  await store.updateStatus('PROJ-103', 'in_review');
  assert.equal(allowedMoves(DEFAULT_WORKFLOW, 'blocked'), ['todo', 'in_progress'], 'without a known origin');
  assert.match(await domainFailure(() => store.updateStatus('PROJ-105', 'blocked')), 'From done it can move to: reopened');
  store.close();
});

test('a journal holding a move the workflow refuses today still opens: the rule is for new changes', async () => {
  const store = await openDemo();
  const file = store.path;
  store.close();
  const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
  const last = JSON.parse(lines.at(-1) ?? '{}') as { seq: number; at: string };
  const skip = { seq: last.seq + 1, at: last.at, type: 'issue.status_changed', key: 'PROJ-104', from: 'todo', to: 'done' };
  fs.appendFileSync(file, `${JSON.stringify(skip)}\n`);
  const reopened = await openDemo(file);
  assert.is(reopened.getIssue('PROJ-104').status, 'done');
  assert.is(reopened.getIssue('PROJ-104').resolution, 'done', 'a move to done without a resolution: done');
  reopened.close();
});

test.run();
