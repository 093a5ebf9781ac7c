// Links, epics and the ready view; update_issue's several parts; filters that name what
// exists instead of answering with nothing.
import fs from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { demoStores, domainFailure } from './demo-stores.js';

const demo = demoStores('tracker-links');
test.after(demo.removeAll);
const openDemo = demo.open;

const keys = (issues: readonly { key: string }[]) => issues.map((issue) => issue.key);

test('ready: open issues of the active sprints, blockers all done, most urgent first; closing a blocker frees its issue', async () => {
  const store = await openDemo();
  // PROJ-102 (P0) waits for PROJ-103; PROJ-106 waits for PROJ-101; done issues and other sprints are out.
  assert.equal(keys(store.getReady('PROJ')), ['PROJ-101', 'PROJ-103', 'PROJ-104', 'PROJ-108']);
  assert.equal(keys(store.getReady()), ['PROJ-101', 'PROJ-103', 'WEB-1', 'PROJ-104', 'PROJ-108']);
  assert.is(store.getIssueLinks('PROJ-102').unblocked, false);
  await store.updateStatus('PROJ-103', 'done');
  assert.equal(keys(store.getReady('PROJ')), ['PROJ-102', 'PROJ-101', 'PROJ-104', 'PROJ-108']);
  await store.updateStatus('PROJ-104', 'blocked');
  assert.equal(keys(store.getReady('PROJ')), ['PROJ-102', 'PROJ-101', 'PROJ-108'], 'marked blocked: not ready');
  assert.equal(keys(store.searchIssues({ ready: true, assignee: 'bob' }).items), ['PROJ-102'], 'search filters the ready view');
  assert.match(await domainFailure(() => store.getReady('NOPE')), 'Project NOPE not found. Known projects: PROJ, WEB.');
  store.close();
});

test('links read from both ends; a blocking loop, a self link and a non-epic parent are refused', async () => {
  const store = await openDemo();
  assert.equal(store.getLinkKeys('PROJ-102'), [{ type: 'is_blocked_by', key: 'PROJ-103' }]);
  const links = store.getIssueLinks('PROJ-106');
  assert.equal(
    links.links.map((l) => `${l.type} ${l.key}`),
    ['parent PROJ-109', 'is_blocked_by PROJ-101', 'relates_to PROJ-108'],
  );
  assert.equal(
    store.getIssueLinks('PROJ-109').links.map((l) => `${l.type} ${l.key}`),
    ['child PROJ-101', 'child PROJ-104', 'child PROJ-106', 'child PROJ-108'],
  );
  assert.match(await domainFailure(() => store.linkIssues('PROJ-102', 'blocks', 'PROJ-103')), 'already blocks PROJ-102');
  await store.linkIssues('PROJ-104', 'blocks', 'PROJ-101');
  assert.match(
    await domainFailure(() => store.linkIssues('PROJ-106', 'blocks', 'PROJ-104')),
    'PROJ-106 cannot block PROJ-104: PROJ-104 already blocks PROJ-106 (directly or through other issues)',
  );
  assert.match(await domainFailure(() => store.linkIssues('PROJ-104', 'relates to', 'PROJ-104')), 'itself');
  // A sub-task's parent is any issue but a sub-task (PROJ-111 under PROJ-101, then nothing under PROJ-111).
  await store.linkIssues('PROJ-111', 'parent', 'PROJ-101');
  assert.match(await domainFailure(() => store.linkIssues('PROJ-112', 'parent', 'PROJ-111')), 'a sub-task holds no sub-tasks');
  assert.match(await domainFailure(() => store.linkIssues('PROJ-111', 'follows', 'PROJ-101')), 'Use one of: blocks, relates_to');
  store.close();
});

test('link and unlink are no-ops when already so, and survive reopening', async () => {
  const store = await openDemo();
  const file = store.path;
  assert.is(
    (await store.linkIssues('PROJ-106', 'Relates To', 'PROJ-108')).change.issues.length,
    0,
    'written the other way round',
  );
  assert.is(
    (await store.linkIssues('PROJ-111', 'duplicates', 'PROJ-102')).change.description,
    'PROJ-111 now duplicates PROJ-102',
  );
  await store.linkIssues('PROJ-103', 'blocks', 'PROJ-102', true);
  assert.is((await store.linkIssues('PROJ-103', 'blocks', 'PROJ-102', true)).change.issues.length, 0);
  await store.linkIssues('PROJ-111', 'parent', 'PROJ-109');
  store.close();
  const again = await openDemo(file);
  assert.equal(again.getLinkKeys('PROJ-102'), [{ type: 'is_duplicated_by', key: 'PROJ-111' }]);
  assert.is(again.getIssue('PROJ-111').parent, 'PROJ-109');
  assert.ok(keys(again.getReady('PROJ')).includes('PROJ-102'), 'its blocker link is gone');
  again.close();
});

test('updateIssue: fields, assignee, sprint, a transition with resolution and a comment, in one call', async () => {
  const store = await openDemo();
  const { issue, change } = await store.updateIssue('PROJ-103', {
    priority: 'p0',
    labels: ['payments'],
    assignee: 'dmitri',
    status: 'Done',
    resolution: 'done',
    comment: 'Shipped behind the flag.',
  });
  assert.equal(
    [issue.priority, issue.labels, issue.assignee, issue.status, issue.resolution],
    ['P0', ['payments'], 'dmitri', 'done', 'done'],
  );
  assert.is(issue.comments.at(-1)?.body, 'Shipped behind the flag.');
  assert.is(
    change.description,
    'PROJ-103 edited: priority, labels; PROJ-103 assigned to dmitri (was carol); PROJ-103 status: in_review → done (done); Comment #1 by assistant added to PROJ-103',
  );
  assert.is(
    (await store.updateIssue('PROJ-103', { priority: 'P0' })).change.description,
    'PROJ-103 already has those values; nothing changed.',
  );
  store.close();
});

test('updateIssue checks every part before writing any: an illegal move leaves the other fields as they were', async () => {
  const store = await openDemo();
  const before = fs.statSync(store.path).size;
  const message = await domainFailure(() => store.updateIssue('PROJ-104', { title: 'Renamed', status: 'done' }));
  assert.match(message, 'PROJ-104 cannot move from todo to done');
  assert.is(fs.statSync(store.path).size, before, 'nothing written');
  assert.is(store.getIssue('PROJ-104').title, 'Show saved cards at checkout');
  assert.match(await domainFailure(() => store.updateIssue('PROJ-104', {})), 'Nothing to update');
  assert.match(await domainFailure(() => store.updateIssue('PROJ-104', { resolution: 'done' })), 'add status');
  store.close();
});

test('no silent empties: an unknown person or sprint in a filter is an error naming the known ones', async () => {
  const store = await openDemo();
  assert.match(
    await domainFailure(() => store.searchIssues({ assignee: 'zed' })),
    'No one called "zed" is known to the tracker. People: alice (Alice Smith), bob (Bob Jones)',
  );
  assert.match(
    await domainFailure(() => store.searchIssues({ sprint: 'PROJ-S99' })),
    'Sprint PROJ-S99 not found. Sprints of PROJ: PROJ-S40 (closed)',
  );
  assert.match(await domainFailure(() => store.searchIssues({ project: 'NOPE' })), 'Known projects: PROJ, WEB');
  store.close();
});

test.run();
