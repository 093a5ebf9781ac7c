// No silent empties (issue 15): a project, person or sprint that does not exist, wherever it is
// named (a search_issues filter, a JQL query, a resource URI), is an error that names the ones
// that do exist, never an empty list the model would take for "nothing there".
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { trackerSession } from './tracker-session.js';

const PROJECTS = /PROJ, WEB/;
const PEOPLE =
  /alice \(Alice Smith\), bob \(Bob Jones\), carol \(Carol Diaz\), dmitri \(Dmitri Kuznetsov\), priya \(Priya Patel\)/;
const SPRINTS = /PROJ-S40 \(closed\), PROJ-S41 \(closed\), PROJ-S42 \(active\), PROJ-S43 \(future\)/;

const searches: [string, Record<string, unknown>, RegExp][] = [
  ['project filter', { project: 'NOPE' }, PROJECTS],
  ['assignee filter', { assignee: 'zed' }, PEOPLE],
  ['sprint filter', { sprint: 'PROJ-S99' }, SPRINTS],
  ['ready view of a project', { ready: true, project: 'NOPE' }, PROJECTS],
  ['JQL project', { query: 'project = NOPE' }, PROJECTS],
  ['JQL assignee', { query: 'assignee IN (alice, zed)' }, PEOPLE],
  ['JQL reporter', { query: 'reporter != zed' }, PEOPLE],
  ['JQL sprint', { query: 'sprint = PROJ-S99' }, SPRINTS],
];

test('search_issues: an unknown project, person or sprint is a tool error naming the known ones', async () => {
  const tracker = await trackerSession();
  try {
    for (const [what, args, known] of searches) {
      const { result } = await tracker.ask('tools/call', { name: 'search_issues', arguments: args });
      assert.is(result?.isError, true, `${what}: ${JSON.stringify(result?.structuredContent)}`);
      assert.match(result!.content[0].text, known, what);
    }
  } finally {
    tracker.close();
  }
});

const reads: [string, RegExp][] = [
  ['jira://project/NOPE/stats', PROJECTS],
  ['jira://project/NOPE/issues?status=todo', PROJECTS],
  ['jira://project/PROJ/issues?assignee=zed', PEOPLE],
  ['jira://sprint/PROJ-S99', SPRINTS],
  [`jira://search?jql=${encodeURIComponent('assignee = zed')}`, PEOPLE],
];

test('resources/read: an unknown project, person or sprint in the URI is an error naming the known ones', async () => {
  const tracker = await trackerSession();
  try {
    for (const [uri, known] of reads) {
      const { error } = await tracker.ask('resources/read', { uri });
      assert.ok(error, `${uri} read without an error`);
      assert.match(error!.message, known, uri);
      assert.is(error!.data.uri, uri);
    }
    // Not found stays not found (-32002 in this era), now with the way out in the message.
    assert.is((await tracker.ask('resources/read', { uri: 'jira://sprint/PROJ-S99' })).error?.code, -32002);
  } finally {
    tracker.close();
  }
});

test.run();
