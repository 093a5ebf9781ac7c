// The tracker through the bundled binary, as a host would use it, under every protocol
// revision we speak. Every message the server sends is validated against the official JSON
// Schema of the negotiated revision.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type StdioClient, spawnStdioClient } from '../demo/stdio-client.js';
import { demoRecords } from '../store/model/demo-data.js';
import { createJournal } from '../store/journal/journal.js';
import { LIMITS } from '../store/model/schema.js';
import type { Issue } from '../store/model/schema.js';
import type { RecordDraft } from '../store/model/record-schema.js';
import { SchemaValidator } from '../../spec-tests/runner/schema-validator.js';
import { builtinSchemas } from '../../spec-tests/runner/builtin.js';
import type { JsonObject, JsonValue } from '../../spec-tests/runner/json-types.js';

const VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
const schemas = SchemaValidator.load(builtinSchemas());

function server(...args: string[]): StdioClient {
  return spawnStdioClient(process.execPath, ['dist/mcp-tracker.mjs', ...(args.length ? args : ['--ephemeral'])]);
}

/** Ends the session and checks every message the server sent against the negotiated revision's schema. */
async function finish(client: StdioClient, version: string, sent: Map<unknown, JsonObject>): Promise<void> {
  assert.is(await client.close(), 0, 'clean exit');
  const validator = await schemas;
  const problems = client.received.flatMap((message) =>
    validator
      .validate(message as JsonValue, version, (id) => sent.get(id))
      .map((v) => `${JSON.stringify(message).slice(0, 200)}: ${v.problem}`),
  );
  assert.equal(problems, [], 'schema violations');
}

/** A client that remembers its requests, so responses can be checked against the right result type. */
function recording(client: StdioClient) {
  const sent = new Map<unknown, JsonObject>();
  let id = 1000;
  const call = async (method: string, params?: Record<string, unknown>) => {
    const answer = await client.request(method, params);
    sent.set(answer.id, { jsonrpc: '2.0', id: answer.id as number, method, ...(params ? { params: params as JsonObject } : {}) });
    return answer as any;
  };
  return { sent, call, nextId: () => id++ };
}

async function listAll(call: (method: string, params?: Record<string, unknown>) => Promise<any>, method: string, key: string) {
  const items: any[] = [];
  let cursor: string | undefined;
  do {
    const answer = await call(method, cursor ? { cursor } : {});
    items.push(...answer.result[key]);
    cursor = answer.result.nextCursor;
    assert.not.equal(cursor, null);
  } while (cursor !== undefined);
  return items;
}

for (const version of VERSIONS) {
  test(`${version}: lists, reads, gets and calls everything the tracker offers`, async () => {
    const client = spawnStdioClient(process.execPath, ['dist/mcp-tracker.mjs', '--ephemeral', '--page-size', '5']);
    const { sent, call } = recording(client);
    const init = await client.initialize(version);
    assert.is(init.protocolVersion, version);

    const resources = await listAll(call, 'resources/list', 'resources');
    const uris = resources.map((r) => r.uri);
    assert.ok(
      uris.includes('jira://projects') && uris.includes('jira://sprint/current') && uris.includes('jira://issue/PROJ-101'),
      'fixed and per-issue resources',
    );
    assert.is(new Set(uris).size, uris.length, 'no resource listed twice across pages');
    for (const uri of uris) {
      const read = await call('resources/read', { uri });
      assert.ok(read.result?.contents?.length > 0, uri);
      assert.is(read.result.contents[0].mimeType, 'application/json');
      JSON.parse(read.result.contents[0].text);
    }

    const templates = await listAll(call, 'resources/templates/list', 'resourceTemplates');
    assert.equal(templates.map((t) => t.uriTemplate).sort(), [
      'jira://issue/{key}',
      'jira://issue/{key}/attachment/{name}',
      'jira://issue/{key}/history',
      'jira://issue/{key}/links',
      'jira://project/{project_key}/issues{?status,assignee,priority}',
      'jira://project/{project_key}/sprint/current',
      'jira://project/{project_key}/stats',
      'jira://ready{?project}',
      'jira://search{?jql}',
      'jira://sprint/{sprint_id}',
      'jira://sprint/{sprint_id}/burndown',
      'jira://sprint/{sprint_id}/burndown.svg',
      'jira://sprints{?project,state}',
    ]);
    for (const uri of [
      'jira://project/PROJ/stats',
      'jira://project/PROJ/issues?status=in_progress&priority=P0',
      'jira://project/WEB/issues',
      'jira://sprint/PROJ-S41',
      'jira://sprint/PROJ-S41/burndown',
      'jira://sprint/PROJ-S42/burndown.svg',
      'jira://search?jql=assignee%20IS%20EMPTY%20ORDER%20BY%20priority',
      'jira://issue/PROJ-102/history',
      'jira://issue/PROJ-102/links',
      'jira://ready',
      'jira://ready?project=WEB',
    ]) {
      const read = await call('resources/read', { uri });
      assert.ok(read.result?.contents?.[0]?.text, uri);
    }

    const prompts = await listAll(call, 'prompts/list', 'prompts');
    assert.equal(prompts.map((p) => p.name).sort(), [
      'bug_report',
      'plan_sprint',
      'release_notes',
      'sprint_review',
      'standup',
      'triage_issue',
    ]);
    for (const [name, args] of [
      ['triage_issue', { issue_key: 'PROJ-104' }],
      ['sprint_review', {}],
      ['sprint_review', { sprint: 'PROJ-S41' }],
      ['standup', {}],
      ['standup', { assignee: 'alice' }],
      ['bug_report', { project: 'PROJ', summary: 'Refunds fail', priority: 'P1' }],
      ['plan_sprint', {}],
      ['release_notes', { sprint: 'PROJ-S41' }],
    ] as const) {
      const got = await call('prompts/get', { name, arguments: args });
      const messages = got.result.messages;
      assert.ok(messages.length >= 4, `${name} is multi-turn`);
      assert.ok(
        messages.some((m: any) => m.role === 'assistant'),
        `${name} has an assistant turn`,
      );
      const embedded = messages.filter((m: any) => m.content.type === 'resource');
      assert.ok(
        embedded.length >= 1 && embedded.every((m: any) => m.content.resource.mimeType === 'application/json'),
        `${name} embeds live resources`,
      );
    }

    const tools = await listAll(call, 'tools/list', 'tools');
    assert.equal(tools.map((t) => t.name).sort(), [
      'add_attachment',
      'add_comment',
      'bulk_update_status',
      'create_issue',
      'get_issue',
      'link_issues',
      'manage_sprint',
      'search_issues',
      'summarize_sprint',
      'update_issue',
    ]);
    const structured = version >= '2025-06-18';
    for (const tool of tools) {
      assert.is(tool.inputSchema.type, 'object', tool.name);
      assert.is('outputSchema' in tool, structured, `${tool.name} outputSchema only from 2025-06-18`);
      assert.is('annotations' in tool, version >= '2025-03-26', `${tool.name} annotations only from 2025-03-26`);
    }
    const calls: [string, Record<string, unknown>][] = [
      ['create_issue', { project: 'PROJ', title: 'Flaky checkout test', type: 'bug', priority: 'P1', labels: ['checkout'] }],
      ['get_issue', { key: 'PROJ-101' }],
      ['update_issue', { key: 'PROJ-104', status: 'in_progress' }],
      ['update_issue', { key: 'PROJ-104', assignee: 'dmitri', comment: 'Taking it.' }],
      ['link_issues', { from: 'PROJ-104', type: 'blocks', to: 'PROJ-108' }],
      ['search_issues', { ready: true, project: 'PROJ' }],
      ['add_comment', { key: 'PROJ-104', body: 'Started on this.' }],
      ['add_attachment', { key: 'PROJ-104', name: 'trace.txt', mimeType: 'text/plain', content: 'c3RhY2s=' }],
      ['get_issue', { key: 'PROJ-104', attachment: 'trace.txt', include: ['history', 'links'] }],
      ['update_issue', { key: 'PROJ-110', sprint: 'PROJ-S42' }],
      ['search_issues', { project: 'PROJ', status: ['todo', 'in_progress'], limit: 3 }],
      ['bulk_update_status', { keys: ['PROJ-106', 'PROJ-108'], status: 'in_progress' }],
      ['summarize_sprint', { sprint: 'PROJ-S42' }],
      [
        'manage_sprint',
        { action: 'create', project: 'PROJ', name: 'Sprint 44', start_date: '2030-01-07', end_date: '2030-01-18' },
      ],
    ];
    for (const [name, args] of calls) {
      const answer = await call('tools/call', { name, arguments: args });
      assert.is(answer.result?.isError, undefined, `${name}: ${JSON.stringify(answer.result ?? answer.error)}`);
      assert.is('structuredContent' in answer.result, structured, `${name} structuredContent only from 2025-06-18`);
      const text = answer.result.content[0].text;
      if (structured)
        assert.equal(JSON.parse(text), answer.result.structuredContent, `${name}: text copy of the structured result`);
    }
    const created = await call('tools/call', { name: 'get_issue', arguments: { key: 'PROJ-115' } });
    assert.match(created.result.content[0].text, /Flaky checkout test/);
    await finish(client, version, sent);
  });

  test(`${version}: error paths answer with the right kind of error`, async () => {
    const client = server();
    const { sent, call } = recording(client);
    await client.initialize(version);
    const unknownIssue = await call('tools/call', { name: 'get_issue', arguments: { key: 'PROJ-9999' } });
    assert.is(unknownIssue.result.isError, true);
    assert.match(unknownIssue.result.content[0].text, /PROJ-9999/);
    const badStatus = await call('tools/call', { name: 'update_issue', arguments: { key: 'PROJ-101', status: 'finished' } });
    assert.is(badStatus.result.isError, true);
    assert.match(badStatus.result.content[0].text, /todo/, 'the message lists the valid statuses');
    const missingArg = await call('tools/call', { name: 'create_issue', arguments: { project: 'PROJ' } });
    assert.is(missingArg.result.isError, true);
    assert.match(missingArg.result.content[0].text, /title/);
    const unknownTool = await call('tools/call', { name: 'delete_everything', arguments: {} });
    assert.is(unknownTool.error.code, -32602);
    const unknownUri = await call('resources/read', { uri: 'jira://issue/PROJ-9999' });
    assert.equal(unknownUri.error.code, -32002);
    assert.equal(unknownUri.error.data, { uri: 'jira://issue/PROJ-9999' });
    const otherScheme = await call('resources/read', { uri: 'file:///etc/passwd' });
    assert.equal(otherScheme.error.code, -32002);
    const traversal = await call('resources/read', { uri: 'jira://issue/..%2F..%2Fetc%2Fpasswd' });
    assert.equal(traversal.error.code, -32002);
    const noArg = await call('prompts/get', { name: 'triage_issue', arguments: {} });
    assert.is(noArg.error.code, -32602);
    assert.match(noArg.error.message, /issue_key/);
    const unknownPrompt = await call('prompts/get', { name: 'retro' });
    assert.is(unknownPrompt.error.code, -32602);
    const badCursor = await call('resources/list', { cursor: 'not-a-cursor' });
    assert.is(badCursor.error.code, -32602);
    await finish(client, version, sent);
  });
}

/** The next request of `method` the server sent to the client; resolves once it has arrived. */
async function serverRequest(client: StdioClient, method: string, timeoutMs = 5000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = client.received.find((m: any) => m.method === method && 'id' in m && !answered.has(m));
    if (found) {
      answered.add(found);
      return found;
    }
    if (Date.now() > deadline) throw new Error(`no ${method} request from the server within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
const answered = new WeakSet<object>();
const respond = (client: StdioClient, id: unknown, result: unknown) =>
  client.writeRaw(JSON.stringify({ jsonrpc: '2.0', id, result }) + '\n');

for (const version of ['2025-06-18', '2025-11-25']) {
  test(`${version}: create_issue without a title asks the user through elicitation/create`, async () => {
    const client = server();
    const { sent, call } = recording(client);
    await client.initialize(version, { elicitation: {} });
    const pending = call('tools/call', { name: 'create_issue', arguments: { project: 'WEB', priority: 'P1' } });
    const asked = await serverRequest(client, 'elicitation/create');
    assert.equal(Object.keys(asked.params.requestedSchema.properties), ['title']);
    assert.equal(asked.params.requestedSchema.required, ['title']);
    respond(client, asked.id, { action: 'accept', content: { title: 'Asked for over the handshake' } });
    const created = await pending;
    assert.is(created.result.isError, undefined, JSON.stringify(created.result));
    assert.equal(
      [created.result.structuredContent.issue.title, created.result.structuredContent.issue.priority],
      ['Asked for over the handshake', 'P1'],
    );

    const declining = call('tools/call', { name: 'create_issue', arguments: { project: 'WEB' } });
    respond(client, (await serverRequest(client, 'elicitation/create')).id, { action: 'decline' });
    const declined = await declining;
    assert.equal(declined.result.content[0].text, 'The user chose not to answer (decline); create_issue was not run.');
    assert.is(declined.result.isError, true);
    await finish(client, version, sent);
  });
}

test('summarize_sprint with prose asks the host model through sampling/createMessage, and falls back when that fails', async () => {
  const client = server();
  const { sent, call } = recording(client);
  await client.initialize('2025-11-25', { sampling: {} });
  const pending = call('tools/call', { name: 'summarize_sprint', arguments: { prose: true } });
  const asked = await serverRequest(client, 'sampling/createMessage');
  assert.equal([asked.params.includeContext, asked.params.maxTokens], ['none', 300]);
  const [message] = asked.params.messages;
  assert.is(message.role, 'user');
  assert.match(message.content.text, /PROJ-S42/);
  assert.match(message.content.text, /Show saved cards at checkout/, 'issue titles are part of the question');
  respond(client, asked.id, { role: 'assistant', content: { type: 'text', text: 'Checkout is behind.' }, model: 'host-model-1' });
  const summary = await pending;
  const { stats, project_stats, sprints: _sprints, burndown, ...written } = summary.result.structuredContent;
  assert.equal(written, { sprint: 'PROJ-S42', summary: 'Checkout is behind.', source: 'host_model', model: 'host-model-1' });
  assert.equal([stats.sprint, project_stats.project], ['PROJ-S42', 'PROJ'], "with the sprint's and the project's numbers");
  assert.ok(burndown.length > 0, 'and its burndown');

  const refusing = call('tools/call', { name: 'summarize_sprint', arguments: { project: 'PROJ', prose: true } });
  const again = await serverRequest(client, 'sampling/createMessage');
  client.writeRaw(
    JSON.stringify({ jsonrpc: '2.0', id: again.id, error: { code: -1, message: 'User rejected sampling request' } }) + '\n',
  );
  const computed = (await refusing).result.structuredContent;
  assert.equal([computed.source, computed.why_computed], ['computed', 'sampling failed: User rejected sampling request']);
  assert.match(computed.summary, /^Sprint 42 \(PROJ-S42, active\): \d+% of \d+ story points done/);
  await finish(client, '2025-11-25', sent);
});

test('summarize_sprint without prose, or without sampling: the computed summary, and no request to the client', async () => {
  const client = server();
  const { sent, call } = recording(client);
  await client.initialize('2025-11-25', { elicitation: {}, sampling: {} });
  const summary = await call('tools/call', { name: 'summarize_sprint', arguments: { sprint: 'PROJ-S42' } });
  assert.is(summary.result.structuredContent.source, 'computed');
  assert.is(
    summary.result.structuredContent.why_computed,
    undefined,
    'computed because no prose was asked for: nothing to explain',
  );
  const unsampled = server();
  await unsampled.initialize('2025-11-25', { elicitation: {} });
  const second = recording(unsampled);
  const asked = await second.call('tools/call', { name: 'summarize_sprint', arguments: { prose: true } });
  assert.match(asked.result.structuredContent.why_computed, /^sampling unsupported/);
  assert.ok(
    unsampled.received.every((m: any) => m.method === undefined || !('id' in m)),
    'the server sent no request to a client without sampling',
  );
  await finish(unsampled, '2025-11-25', second.sent);
  assert.ok(
    client.received.every((m: any) => m.method === undefined || !('id' in m)),
    'the server sent no request',
  );
  await finish(client, '2025-11-25', sent);
});

test('completion: template variables and prompt arguments, narrowed by context.arguments', async () => {
  const client = server();
  const { sent, call } = recording(client);
  await client.initialize('2025-11-25');
  const complete = async (ref: Record<string, unknown>, name: string, value: string, context?: Record<string, string>) =>
    (
      await call('completion/complete', {
        ref,
        argument: { name, value },
        ...(context ? { context: { arguments: context } } : {}),
      })
    ).result.completion;
  const issue = { type: 'ref/resource', uri: 'jira://issue/{key}' };
  assert.ok((await complete(issue, 'key', 'PROJ-10')).values.includes('PROJ-101'));
  assert.ok(
    (await complete({ type: 'ref/resource', uri: 'jira://project/{project_key}/stats' }, 'project_key', 'w')).values.includes(
      'WEB',
    ),
  );
  const query = { type: 'ref/resource', uri: 'jira://project/{project_key}/issues{?status,assignee,priority}' };
  assert.equal([...(await complete(query, 'status', 'in')).values].sort(), ['in_progress', 'in_review']);
  assert.ok((await complete(query, 'assignee', 'al')).values.includes('alice'));
  assert.ok((await complete(query, 'priority', 'P')).values.includes('P0'));
  const sprints = await complete({ type: 'ref/resource', uri: 'jira://sprint/{sprint_id}' }, 'sprint_id', '', {
    project_key: 'WEB',
  });
  assert.ok(sprints.values.length > 0 && sprints.values.every((v: string) => v.startsWith('WEB-')), JSON.stringify(sprints));
  assert.ok((await complete({ type: 'ref/prompt', name: 'triage_issue' }, 'issue_key', 'PROJ-11')).values.includes('PROJ-110'));
  assert.ok((await complete({ type: 'ref/prompt', name: 'standup' }, 'assignee', 'b')).values.includes('bob'));
  await finish(client, '2025-11-25', sent);
});

test('jira://sprint/current: the text JSON.stringify(value) prints (compact: a model reads it), read_at last and new on each read, the numbers new after a change', async () => {
  const client = server();
  const { sent, call } = recording(client);
  await client.initialize('2025-11-25');
  const readText = async (): Promise<string> =>
    (await call('resources/read', { uri: 'jira://sprint/current' })).result.contents[0].text;
  const first = await readText();
  await new Promise((resolve) => setTimeout(resolve, 5));
  const second = await readText();
  for (const text of [first, second]) {
    const value = JSON.parse(text);
    assert.is(text, JSON.stringify(value));
    assert.is(Object.keys(value).at(-1), 'read_at');
  }
  const [a, b] = [JSON.parse(first), JSON.parse(second)];
  assert.ok(b.read_at > a.read_at, `${a.read_at} then ${b.read_at}`);
  assert.equal({ ...b, read_at: '' }, { ...a, read_at: '' });
  await call('tools/call', { name: 'update_issue', arguments: { key: 'PROJ-103', status: 'done' } });
  const after = JSON.parse(await readText());
  assert.ok(after.by_status.done > a.by_status.done, `done ${a.by_status.done} -> ${after.by_status.done}`);
  await finish(client, '2025-11-25', sent);
});

test('subscriptions: updated exactly for the URIs whose content changed; list_changed on create; logs at the set level', async () => {
  const client = server();
  const { sent, call } = recording(client);
  await client.initialize('2025-11-25');
  for (const uri of ['jira://sprint/current', 'jira://issue/PROJ-103', 'jira://issue/PROJ-102', 'jira://project/WEB/stats']) {
    assert.equal((await call('resources/subscribe', { uri })).result, {});
  }
  assert.is((await call('resources/subscribe', { uri: 'jira://issue/NOPE-1' })).error.code, -32002);
  await call('logging/setLevel', { level: 'info' });
  const before = JSON.parse((await call('resources/read', { uri: 'jira://sprint/current' })).result.contents[0].text);
  await call('tools/call', { name: 'update_issue', arguments: { key: 'PROJ-103', status: 'done' } });
  const updates = [
    await client.nextNotification('notifications/resources/updated'),
    await client.nextNotification('notifications/resources/updated'),
  ];
  assert.equal(updates.map((n: any) => n.params.uri).sort(), ['jira://issue/PROJ-103', 'jira://sprint/current']);
  const log = (await client.nextNotification('notifications/message')) as any;
  assert.is(log.params.level, 'info');
  assert.match(JSON.stringify(log.params.data), /PROJ-103/);
  const after = JSON.parse((await call('resources/read', { uri: 'jira://sprint/current' })).result.contents[0].text);
  assert.ok(after.progress_pct > before.progress_pct, `${before.progress_pct} -> ${after.progress_pct}`);
  assert.not.equal(after.last_updated, before.last_updated);

  // Setting the same status again changes nothing, so nothing is notified.
  await call('tools/call', { name: 'update_issue', arguments: { key: 'PROJ-103', status: 'done' } });
  await call('resources/unsubscribe', { uri: 'jira://issue/PROJ-103' });
  await call('tools/call', { name: 'add_comment', arguments: { key: 'PROJ-103', body: 'ship it' } });
  await call('tools/call', { name: 'create_issue', arguments: { project: 'PROJ', title: 'New thing' } });
  await client.nextNotification('notifications/resources/list_changed');
  await call('ping');
  const uris = client.received.filter((m: any) => m.method === 'notifications/resources/updated').map((m: any) => m.params.uri);
  assert.equal(
    uris.filter((u: string) => u === 'jira://issue/PROJ-103').length,
    1,
    'no update for a no-op, none after unsubscribe',
  );
  assert.not.ok(
    uris.includes('jira://issue/PROJ-102') || uris.includes('jira://project/WEB/stats'),
    'nothing for URIs that did not change',
  );
  await finish(client, '2025-11-25', sent);
});

test('bulk_update_status: progress strictly increasing before the response; a cancel stops it silently', async () => {
  const client = server();
  const { sent, call } = recording(client);
  await client.initialize('2025-11-25');
  const keys = ['PROJ-101', 'PROJ-102', 'PROJ-103', 'WEB-1'];
  const answer = await call('tools/call', {
    name: 'bulk_update_status',
    arguments: { keys, status: 'in_review' },
    _meta: { progressToken: 'bulk-1' },
  });
  const progress = client.received.filter((m: any) => m.method === 'notifications/progress').map((m: any) => m.params);
  assert.equal(
    progress.map((p: any) => p.progress),
    [0, 1, 2, 3, 4],
    'said at the start, then once per issue',
  );
  assert.ok(progress.every((p: any) => p.progressToken === 'bulk-1' && p.total === 4));
  const responseIndex = client.received.indexOf(client.received.find((m: any) => m.id === answer.id)!);
  const lastProgressIndex = client.received.findLastIndex((m: any) => m.method === 'notifications/progress');
  assert.ok(lastProgressIndex < responseIndex, 'no progress after the response');
  assert.is(answer.result.structuredContent.changed, 3, 'PROJ-103 was already in review');

  // The last key is the one a run that ignored the cancel would reach.
  const many = [...Array.from({ length: 399 }, () => 'PROJ-101'), 'PROJ-103'];
  client.writeRaw(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 'bulk-2',
      method: 'tools/call',
      params: { name: 'bulk_update_status', arguments: { keys: many, status: 'blocked' }, _meta: { progressToken: 7 } },
    }) + '\n',
  );
  await client.nextNotification('notifications/progress');
  client.notify('notifications/cancelled', { requestId: 'bulk-2', reason: 'user pressed stop' });
  // Messages on one stdio stream are read in order: by the time the ping (sent after the
  // cancel) is answered, the server has seen the cancel, so nothing of bulk-2 may follow.
  // How much progress went out before that depends on the machine's load, not on the server.
  await call('ping');
  const countAfterPing = client.received.length;
  await new Promise((resolve) => setTimeout(resolve, 300));
  await call('ping');
  const progressOf7 = client.received.filter((m: any) => m.params?.progressToken === 7);
  const progressAfterPing = client.received.slice(countAfterPing).filter((m: any) => m.params?.progressToken === 7);
  assert.is(progressAfterPing.length, 0, 'no progress once the cancel has been read');
  assert.ok(progressOf7.length < many.length, `the run stopped early (${progressOf7.length} of ${many.length})`);
  const last = await call('tools/call', { name: 'get_issue', arguments: { key: 'PROJ-103' } });
  assert.is(last.result.structuredContent.issue.status, 'in_review', 'the work itself stopped: the last key was never moved');
  assert.not.ok(
    client.received.some((m: any) => m.id === 'bulk-2'),
    'no response for a cancelled request',
  );
  await finish(client, '2025-11-25', sent);
});

test('search_issues: 64 searches with the most words allowed do not hold up a ping sent while they run', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'tracker-search-'));
  const file = join(directory, 'tracker.jsonl');
  const drafts: RecordDraft[] = demoRecords(new Date());
  const model = drafts.find((d) => d.type === 'issue.created')?.issue as Issue;
  for (let n = 1; n <= 8_000; n++)
    drafts.push({ type: 'issue.created', issue: { ...model, key: `WEB-${100 + n}`, project: 'WEB', sprint: null } });
  createJournal(file, drafts, new Date());
  const client = server('--data', file);
  const { sent } = recording(client);
  await client.initialize('2025-11-25');
  // 64 requests in flight (the default limit), each with as many different words as allowed,
  // short enough that all 64 arrive in one read. Each word has a dash, so the word index cannot
  // answer for it (lib/store/indexes/word-index.ts) and every search reads the text of every issue.
  const searches = Array.from({ length: 64 }, (_, i) => {
    const words = Array.from({ length: LIMITS.searchWordsMax }, (_, w) => `zq${i}-x${w}`);
    const params = { name: 'search_issues', arguments: { text: words.join(' ') } };
    sent.set(`s${i}`, { jsonrpc: '2.0', id: `s${i}`, method: 'tools/call', params });
    return JSON.stringify({ jsonrpc: '2.0', id: `s${i}`, method: 'tools/call', params });
  });
  client.writeRaw(`${searches.join('\n')}\n`);
  const answered = (id: string): number => client.received.findIndex((m: any) => m.id === id);
  const until = async (done: () => boolean, what: string): Promise<void> => {
    for (let waited = 0; !done(); waited += 20) {
      assert.ok(waited < 60_000, what);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  // The ping goes once a search is answered: all 64 have been read by then, and run at once
  // they all finished before the ping was even read.
  await until(() => searches.some((_, i) => answered(`s${i}`) >= 0), 'a first search is answered');
  sent.set('ping', { jsonrpc: '2.0', id: 'ping', method: 'ping' });
  client.writeRaw(`${JSON.stringify({ jsonrpc: '2.0', id: 'ping', method: 'ping' })}\n`);
  await until(() => answered('ping') >= 0 && searches.every((_, i) => answered(`s${i}`) >= 0), 'every request is answered');
  const last = Math.max(...searches.map((_, i) => answered(`s${i}`)));
  assert.ok(answered('ping') >= 0 && answered('ping') < last, 'the ping did not wait for every search');
  assert.ok(
    searches.every((_, i) => (client.received[answered(`s${i}`)] as any).result?.structuredContent?.total === 0),
    'every search answered',
  );
  await finish(client, '2025-11-25', sent);
  rmSync(directory, { recursive: true, force: true });
});

test('2026-07-28 on the same binary: discover, stateless calls, a listen stream fed by a tool call', async () => {
  const client = server();
  const { sent, call } = recording(client);
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
  const discover = await call('server/discover', { _meta: meta });
  assert.equal(discover.result.supportedVersions, ['2026-07-28']);
  assert.is(discover.result._meta['io.modelcontextprotocol/serverInfo'].name, 'mcp-tracker');
  const read = await call('resources/read', { uri: 'jira://sprint/current', _meta: meta });
  assert.equal([read.result.resultType, read.result.ttlMs, read.result.cacheScope], ['complete', 0, 'private']);
  const missing = await call('resources/read', { uri: 'jira://issue/PROJ-9999', _meta: meta });
  assert.is(missing.error.code, -32602, 'not found is -32602 in 2026-07-28');

  client.writeRaw(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 'listen',
      method: 'subscriptions/listen',
      params: {
        _meta: meta,
        notifications: { resourceSubscriptions: ['jira://sprint/current', 'jira://issue/PROJ-102'], resourcesListChanged: true },
      },
    }) + '\n',
  );
  sent.set('listen', { jsonrpc: '2.0', id: 'listen', method: 'subscriptions/listen' });
  const ack = (await client.nextNotification('notifications/subscriptions/acknowledged')) as any;
  assert.is(ack.params._meta['io.modelcontextprotocol/subscriptionId'], 'listen');
  const changed = await call('tools/call', {
    name: 'update_issue',
    arguments: { key: 'PROJ-103', status: 'done' },
    _meta: meta,
  });
  assert.is(changed.result.resultType, 'complete');
  const update = (await client.nextNotification('notifications/resources/updated')) as any;
  assert.equal(update.params, { uri: 'jira://sprint/current', _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen' } });
  await call('tools/call', { name: 'create_issue', arguments: { project: 'PROJ', title: 'Stateless issue' }, _meta: meta });
  await client.nextNotification('notifications/resources/list_changed');
  const issueUpdates = client.received.filter((m: any) => m.params?.uri === 'jira://issue/PROJ-102');
  assert.equal(issueUpdates, [], 'PROJ-102 did not change');
  const eliciting = { ...meta, 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } };
  const asked = await call('tools/call', { name: 'create_issue', arguments: { project: 'WEB' }, _meta: eliciting });
  assert.is(asked.result.resultType, 'input_required', 'a missing title is asked for with a form');
  assert.equal(Object.keys(asked.result.inputRequests.missing_arguments.params.requestedSchema.properties), ['title']);
  const done = await call('tools/call', {
    name: 'create_issue',
    arguments: { project: 'WEB' },
    requestState: asked.result.requestState,
    inputResponses: { missing_arguments: { action: 'accept', content: { title: 'Asked for politely' } } },
    _meta: eliciting,
  });
  assert.is(done.result.structuredContent.issue.title, 'Asked for politely');
  const sampling = { ...meta, 'io.modelcontextprotocol/clientCapabilities': { sampling: {} } };
  const toSummarize = await call('tools/call', { name: 'summarize_sprint', arguments: { prose: true }, _meta: sampling });
  assert.is(toSummarize.result.resultType, 'input_required', 'the host model is asked through MRTR');
  const question = toSummarize.result.inputRequests.sprint_summary;
  assert.equal([question.method, question.params.includeContext], ['sampling/createMessage', 'none']);
  const summarized = await call('tools/call', {
    name: 'summarize_sprint',
    arguments: { prose: true },
    requestState: toSummarize.result.requestState,
    inputResponses: { sprint_summary: { role: 'assistant', content: { type: 'text', text: 'Fine.' }, model: 'm' } },
    _meta: sampling,
  });
  const {
    stats: _stats,
    project_stats: _projectStats,
    sprints: _sprints,
    burndown: _burndown,
    ...written
  } = summarized.result.structuredContent;
  assert.equal(written, { sprint: 'PROJ-S42', summary: 'Fine.', source: 'host_model', model: 'm' });
  await finish(client, '2026-07-28', sent);
  const closing = client.received.find((m: any) => m.id === 'listen') as any;
  assert.is(
    closing.result._meta['io.modelcontextprotocol/subscriptionId'],
    'listen',
    'the stream ends with a result on shutdown',
  );
});

test("data survives a restart; a second process sees the first one's changes", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tracker-test-'));
  const data = join(dir, 'tracker.jsonl');
  try {
    const first = server('--data', data);
    await first.initialize();
    const created = (await first.request('tools/call', {
      name: 'create_issue',
      arguments: { project: 'WEB', title: 'Persist me' },
    })) as any;
    const key = created.result.structuredContent.issue.key;
    const second = server('--data', data);
    await second.initialize();
    await second.request('resources/subscribe', { uri: `jira://issue/${key}` });
    await first.request('tools/call', { name: 'update_issue', arguments: { key, status: 'in_progress' } });
    const seen = (await second.nextNotification('notifications/resources/updated', 2000)) as any;
    assert.is(seen.params.uri, `jira://issue/${key}`, "another process's change is noticed within a second or two");
    assert.is(await first.close(), 0);
    assert.is(await second.close(), 0);

    const again = server('--data', data);
    await again.initialize();
    const read = (await again.request('tools/call', { name: 'get_issue', arguments: { key } })) as any;
    assert.is(read.result.structuredContent.issue.status, 'in_progress');
    assert.is(await again.close(), 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
