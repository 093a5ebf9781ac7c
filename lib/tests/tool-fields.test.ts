// Fields through the tools, as a client sends them (issue 33): define_fields in the opt-in
// projects toolset, create_issue and update_issue with one `fields` object, get_issue and
// jira://projects showing them, search_issues finding them by JQL, and a refusal the model can
// act on (the field and what it accepts).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type Json, trackerSession } from './tracker-session.js';

const call = async (tracker: Awaited<ReturnType<typeof trackerSession>>, name: string, args: Json) =>
  (await tracker.ask('tools/call', { name, arguments: args })).result as Json;

test('define_fields, then create, update, read and search issues by their fields', async () => {
  const tracker = await trackerSession({ tools: { toolsets: ['issues', 'projects'] } });
  try {
    const defined = await call(tracker, 'define_fields', {
      project: 'proj',
      components: ['api', 'Web UI'],
      versions: ['2.1'],
      custom: [{ name: 'Story Type', type: 'select', options: ['Research', 'Build'] }],
    });
    assert.is(defined.isError, undefined, JSON.stringify(defined));
    assert.equal(defined.structuredContent.fields.custom, [
      { name: 'Story Type', type: 'select', options: ['Research', 'Build'] },
    ]);
    assert.is(defined.structuredContent.change, 'PROJ fields defined: 2 components, 1 version, 1 custom field');

    const created = await call(tracker, 'create_issue', {
      project: 'PROJ',
      title: 'Spike the new ledger',
      fields: { due: '2026-12-31', components: ['web ui'], 'Story Type': 'research' },
    });
    assert.is(created.isError, undefined, JSON.stringify(created));
    const key = created.structuredContent.issue.key as string;
    const read = await call(tracker, 'get_issue', { key });
    assert.equal(read.structuredContent.issue.fields, { 'Story Type': 'Research', components: ['Web UI'], due: '2026-12-31' });

    const updated = await call(tracker, 'update_issue', { key, fields: { fix_versions: ['2.1'], due: null } });
    assert.is(updated.structuredContent.change, `${key} edited: fields`);
    const refused = await call(tracker, 'update_issue', { key, fields: { 'Story Type': 'Chore' } });
    assert.is(refused.isError, true);
    assert.is(refused.content[0].text, 'Invalid "Story Type" "Chore": "Story Type" takes one of: Research, Build.');

    const found = await call(tracker, 'search_issues', { query: 'fixVersion = "2.1" AND "Story Type" = Research' });
    assert.equal(
      found.structuredContent.issues.map((issue: Json) => issue.key),
      [key],
    );
    const projects = await tracker.ask('resources/read', { uri: 'jira://projects' });
    const listed = JSON.parse(projects.result!.contents[0].text).projects as Json[];
    assert.equal(listed.find((project) => project.key === 'PROJ')?.fields?.versions, ['2.1']);
    assert.is(listed.find((project) => project.key === 'WEB')?.fields, undefined, 'a project that defined nothing shows nothing');
  } finally {
    tracker.close();
  }
});

test('define_fields is not offered by default: calling it is an unknown tool', async () => {
  const tracker = await trackerSession();
  try {
    const answer = await tracker.ask('tools/call', { name: 'define_fields', arguments: { project: 'PROJ' } });
    assert.match(answer.error?.message ?? '', /Unknown tool/);
  } finally {
    tracker.close();
  }
});

test.run();
