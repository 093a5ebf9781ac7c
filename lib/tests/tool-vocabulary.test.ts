// One vocabulary and few tokens, as a model meets them: every tool that takes a status, a
// priority or a type takes Jira's names in any case; reads return the fields and the comments
// asked for; writes answer with what changed; a limit past the maximum is clamped with a note;
// resources and prompts are compact JSON.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type Json, trackerSession } from './tracker-session.js';

type Tracker = Awaited<ReturnType<typeof trackerSession>>;

async function withTracker(run: (tracker: Tracker) => Promise<void>): Promise<void> {
  const tracker = await trackerSession();
  try {
    await run(tracker);
  } finally {
    tracker.close();
  }
}

/** A tool's structuredContent, or its error text when it failed. */
async function call(tracker: Tracker, name: string, args: Json): Promise<Json> {
  const { result } = await tracker.ask('tools/call', { name, arguments: args });
  if (result!.isError) return { error: result!.content[0].text };
  return result!.structuredContent;
}

test('Jira names in any case, in every tool that takes a status, a priority or a type', async () => {
  await withTracker(async (tracker) => {
    const created = await call(tracker, 'create_issue', {
      project: 'PROJ',
      title: 'Refund twice',
      type: 'Bug',
      priority: 'High',
    });
    assert.is(created.issue.type, 'bug');
    assert.is(created.issue.priority, 'P1');
    const key = created.issue.key as string;
    const updated = await call(tracker, 'update_issue', { key, status: 'In Progress', priority: 'highest', type: 'STORY' });
    assert.equal([updated.issue.status, updated.issue.priority, updated.issue.type], ['in_progress', 'P0', 'story']);
    const found = await call(tracker, 'search_issues', { status: ['In Progress'], priority: 'Highest', text: 'refund twice' });
    assert.equal(
      found.issues.map((issue: Json) => issue.key),
      [key],
    );
    const bulk = await call(tracker, 'bulk_update_status', { keys: [key], status: 'in review' });
    assert.is(bulk.changed, 1);
    const refused = await call(tracker, 'create_issue', { project: 'PROJ', title: 'x', priority: 'urgent' });
    assert.match(refused.error, 'Unknown priority');
  });
});

test('writes answer with what changed and a line about the issue, not the whole issue', async () => {
  await withTracker(async (tracker) => {
    const linked = await call(tracker, 'link_issues', { from: 'PROJ-104', type: 'relates_to', to: 'PROJ-101' });
    assert.equal(Object.keys(linked).sort(), ['change', 'changed', 'issue', 'uri']);
    assert.equal(Object.keys(linked.issue), ['key', 'title', 'type', 'status', 'priority', 'assignee', 'story_points', 'sprint']);
    assert.is(linked.change, 'PROJ-104 now relates to PROJ-101');
    const updated = await call(tracker, 'update_issue', { key: 'PROJ-104', description: 'x'.repeat(5000) });
    assert.ok(JSON.stringify(updated).length < 500, 'the new description is not sent back');
  });
});

test('get_issue: fields as asked, comments a page at a time, newest first', async () => {
  await withTracker(async (tracker) => {
    for (let n = 1; n <= 45; n++) await call(tracker, 'add_comment', { key: 'PROJ-105', body: `note ${n}` });
    const whole = await call(tracker, 'get_issue', { key: 'PROJ-105' });
    const ids = (page: Json) => page.issue.comments.map((comment: Json) => comment.id);
    const total = whole.comments_total as number;
    assert.ok(total >= 45);
    assert.equal(
      ids(whole),
      Array.from({ length: 20 }, (_, i) => total - 19 + i),
      'the newest 20, oldest first',
    );
    const older = await call(tracker, 'get_issue', { key: 'PROJ-105', comments_before: whole.older_comments });
    assert.equal(
      ids(older),
      Array.from({ length: 20 }, (_, i) => total - 39 + i),
    );
    const first = await call(tracker, 'get_issue', { key: 'PROJ-105', comments_before: 3 });
    assert.equal(ids(first), [1, 2]);
    assert.is(first.older_comments, undefined, 'no page before the first');

    const some = await call(tracker, 'get_issue', { key: 'PROJ-105', fields: ['status', 'assignee'] });
    assert.equal(Object.keys(some.issue), ['key', 'status', 'assignee']);
    assert.is(some.comments_total, undefined);
    const wrong = await call(tracker, 'get_issue', { key: 'PROJ-105', fields: ['status', 'color'] });
    assert.match(wrong.error, 'Unknown field color. Fields: key, project, title');
  });
});

test('search_issues: fields per issue; comments are get_issue’s; a limit past 100 is clamped with a note', async () => {
  await withTracker(async (tracker) => {
    const some = await call(tracker, 'search_issues', { project: 'PROJ', fields: ['status', 'labels'], limit: 2 });
    assert.equal(Object.keys(some.issues[0]), ['key', 'status', 'labels']);
    const comments = await call(tracker, 'search_issues', { fields: ['comments'] });
    assert.match(comments.error, 'Unknown field comments');
    const clamped = await call(tracker, 'search_issues', { limit: 500 });
    assert.is(clamped.note, 'limit 500 is past the most a page holds: 100 shown.');
    assert.ok(clamped.issues.length <= 100);
    const usual = await call(tracker, 'search_issues', { limit: 100 });
    assert.is(usual.note, undefined);
    assert.match((await call(tracker, 'search_issues', { limit: 0 })).error, 'limit');
  });
});

test('bounds as stated: 0-100 story points (decimals too), a limit of 1-100, no ±9007199254740991', async () => {
  await withTracker(async (tracker) => {
    const tools = (await tracker.ask('tools/list')).result!.tools as Json[];
    const input = (name: string) => tools.find((tool) => tool.name === name)!.inputSchema.properties;
    assert.equal(input('search_issues').limit, {
      description: 'Page size, default 20; more than the maximum is clamped.',
      type: 'integer',
      minimum: 1,
      maximum: 100,
    });
    assert.equal(input('create_issue').story_points.anyOf[0], { type: 'number', minimum: 0, maximum: 100 });
    assert.not.match(JSON.stringify(tools.map((tool) => tool.inputSchema)), '9007199254740991');
  });
});

test('resources and prompts are compact JSON (a model reads them, not a person)', async () => {
  await withTracker(async (tracker) => {
    for (const uri of ['jira://sprint/current', 'jira://projects', 'jira://issue/PROJ-101', 'jira://ready']) {
      const text = (await tracker.ask('resources/read', { uri })).result!.contents[0].text as string;
      assert.is(text, JSON.stringify(JSON.parse(text)), uri);
      if (uri === 'jira://sprint/current') process.stderr.write(`jira://sprint/current: ${text.length} characters\n`);
    }
    const prompt = await tracker.ask('prompts/get', { name: 'triage_issue', arguments: { issue_key: 'PROJ-101' } });
    const embedded = (prompt.result!.messages as Json[]).filter((message) => message.content.type === 'resource');
    assert.ok(embedded.length > 0);
    for (const message of embedded) {
      const text = message.content.resource.text as string;
      assert.is(text, JSON.stringify(JSON.parse(text)), message.content.resource.uri);
    }
  });
});

test.run();
