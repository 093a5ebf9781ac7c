// Two people on one `--http` tracker, each with a token of their own (--users-file): each is
// themselves in currentUser(), as reporter, comment author and in history's `by`; bob's token is
// read-only; a session answers only the token that opened it; a request narrows its token's
// tools with a header or a query parameter, never widens them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type HttpEndpoint, serveHttp } from '../../protocol/http.js';
import { createServer } from '../../protocol/server.js';
import { JSON_AND_SSE, initializeRequest } from '../../protocol/tests/http-client.js';
import { type TrackerStore, openStore, silentLogger } from '../store/index.js';
import { createTrackerServer } from '../tracker/server.js';
import { authenticateUsers, meetUsers, parseUsers } from '../tracker/users-file.js';
import { domainFailure } from './demo-stores.js';

const ALICE = 'alice-0123456789abcdef';
const BOB = 'bob-0123456789abcdef';
const USERS = `# token handle options
${ALICE} alice toolsets=issues,sprints
${BOB} Bob read-only
`;

type Json = Record<string, any>;

let dir: string;
let store: TrackerStore;
let http: HttpEndpoint;

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tracker-http-users-'));
  store = await openStore({ path: join(dir, 'tracker.jsonl'), log: silentLogger, watch: false, user: 'pm' });
  const server = createServer(createTrackerServer(store).definition);
  http = await serveHttp(server, { port: 0, authenticate: authenticateUsers(parseUsers(USERS, 'users')) });
});

test.after(async () => {
  await http.close(0);
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

function post(body: unknown, headers: Record<string, string>, query = ''): Promise<Response> {
  return fetch(http.url + query, { method: 'POST', headers: { ...JSON_AND_SSE, ...headers }, body: JSON.stringify(body) });
}

/** The JSON-RPC answer in a response, sent as a JSON body or as the last SSE event. */
async function answer(response: Response): Promise<Json> {
  const text = await response.text();
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) return JSON.parse(text);
  const events = [...text.matchAll(/^data: (.*)$/gm)].map((match) => JSON.parse(match[1]!));
  return events.findLast((event) => event.id !== undefined)!;
}

/** A handshake-era session opened with `headers` (its token and any narrowing); returns a caller on it. */
async function sessionOf(headers: Record<string, string>, query = '') {
  const opened = await post(initializeRequest(), headers, query);
  assert.is(opened.status, 200);
  const id = opened.headers.get('mcp-session-id')!;
  await opened.text();
  const onSession = { ...headers, 'Mcp-Session-Id': id };
  assert.is((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, onSession)).status, 202);
  let next = 1;
  return {
    id,
    ask: async (method: string, params?: Json) =>
      answer(await post({ jsonrpc: '2.0', id: next++, method, ...(params ? { params } : {}) }, onSession)),
    call: async (name: string, args: Json) =>
      (
        await answer(
          await post({ jsonrpc: '2.0', id: next++, method: 'tools/call', params: { name, arguments: args } }, onSession),
        )
      ).result,
  };
}

const toolNames = (listed: Json) => (listed.result.tools as Json[]).map((tool) => tool.name);

test('each user is themselves: reporter, comment author, currentUser() and history by', async () => {
  const alice = await sessionOf(bearer(ALICE));
  const bob = await sessionOf(bearer(BOB));

  // No tool takes a reporter or an author: naming one is refused (an unknown argument), never obeyed.
  const spoofed = await alice.call('create_issue', { project: 'PROJ', title: 'Refund rounding', reporter: 'bob' });
  assert.is(spoofed.isError, true);
  const created = await alice.call('create_issue', { project: 'PROJ', title: 'Refund rounding', assignee: 'alice' });
  const key = created.structuredContent.issue.key as string;
  assert.is((await alice.call('add_comment', { key, body: 'Seen on staging.', author: 'bob' })).isError, true);
  const comment = await alice.call('add_comment', { key, body: 'Seen on staging.' });
  assert.is(comment.structuredContent.comment.author, 'alice');
  await alice.call('update_issue', { key, status: 'in_progress' });
  const read = await bob.call('get_issue', { key, include: ['history'] });
  assert.is(read.structuredContent.issue.reporter, 'alice', 'the reporter is the token’s user, not --user pm');
  const entries = read.structuredContent.history.entries as Json[];
  assert.equal(
    entries.map((entry) => `${entry.type} by ${entry.by}`),
    ['status_changed by alice', 'commented by alice', 'created by alice'],
    'newest first',
  );

  const mine = await alice.call('search_issues', { query: 'assignee = currentUser() AND reporter = currentUser()' });
  const mineKeys = (mine.structuredContent.issues as Json[]).map((issue) => issue.key);
  assert.ok(mineKeys.includes(key), 'the issue alice just reported, among those she reported and holds');
  assert.ok((mine.structuredContent.issues as Json[]).every((issue) => issue.assignee === 'alice'));
  const bobs = await bob.call('search_issues', { query: 'assignee = currentUser()' });
  assert.ok(bobs.structuredContent.total > 0);
  assert.ok(
    (bobs.structuredContent.issues as Json[]).every((issue) => issue.assignee === 'bob'),
    'bob’s own issues, not alice’s',
  );
});

test('a read-only token lists and runs only the tools that change nothing', async () => {
  const bob = await sessionOf(bearer(BOB));
  assert.equal(toolNames(await bob.ask('tools/list')), ['search_issues', 'get_issue', 'summarize_sprint']);
  const refused = await bob.ask('tools/call', { name: 'add_comment', arguments: { key: 'PROJ-101', body: 'hi' } });
  assert.is(refused.error.code, -32602, 'as a tool that does not exist');
  assert.equal(refused.error.data.known, ['search_issues', 'get_issue', 'summarize_sprint']);
  const alice = await sessionOf(bearer(ALICE));
  assert.ok(toolNames(await alice.ask('tools/list')).includes('add_comment'), 'alice’s token may write');
  assert.not.ok(toolNames(await alice.ask('tools/list')).includes('bulk_update_status'), 'but not the admin toolset');
});

test('a session answers only the token that opened it; no token or an unknown one is 401 with the Bearer challenge', async () => {
  const alice = await sessionOf(bearer(ALICE));
  const list = { jsonrpc: '2.0', id: 9, method: 'tools/list' };
  const asBob = await post(list, { ...bearer(BOB), 'Mcp-Session-Id': alice.id });
  assert.is(asBob.status, 404, 'under another token the id names no session');
  await asBob.text();
  for (const headers of [{}, bearer('mallory-0123456789abcdef')]) {
    const refused = await post(initializeRequest(), headers);
    assert.is(refused.status, 401);
    assert.is(refused.headers.get('www-authenticate'), 'Bearer');
    await refused.text();
  }
  assert.ok(toolNames(await alice.ask('tools/list')).length > 0, 'the session goes on for its owner');
});

test('a request narrows its token with X-MCP-Readonly or ?toolsets=, and cannot widen it (403)', async () => {
  const readOnly = await sessionOf({ ...bearer(ALICE), 'X-MCP-Readonly': 'true' });
  assert.equal(toolNames(await readOnly.ask('tools/list')), ['search_issues', 'get_issue', 'summarize_sprint']);
  const sprints = await sessionOf(bearer(ALICE), '?toolsets=sprints');
  assert.equal(toolNames(await sprints.ask('tools/list')), ['summarize_sprint', 'manage_sprint']);
  const bobWrites = await sessionOf({ ...bearer(BOB), 'X-MCP-Readonly': 'false' });
  assert.equal(
    toolNames(await bobWrites.ask('tools/list')),
    ['search_issues', 'get_issue', 'summarize_sprint'],
    'false undoes nothing',
  );

  const wider = await post(initializeRequest(), { ...bearer(ALICE), 'X-MCP-Toolsets': 'issues,admin' });
  assert.is(wider.status, 403);
  assert.match(((await wider.json()) as Json).error.message, "alice's token allows the toolsets issues, sprints, not admin");
  const unknown = await post(initializeRequest(), { ...bearer(ALICE), 'X-MCP-Toolsets': 'everything' });
  assert.is(unknown.status, 400);
  await unknown.text();
});

test('2026-07-28: each request is its token’s user', async () => {
  const stateless = (token: string, id: number, name: string, args: Json) =>
    post(
      {
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: {
          name,
          arguments: args,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      },
      { ...bearer(token), 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': name },
    ).then(answer);
  const comment = await stateless(ALICE, 1, 'add_comment', { key: 'PROJ-101', body: 'From a stateless client.' });
  assert.is(comment.result.structuredContent.comment.author, 'alice');
  const refused = await stateless(BOB, 2, 'add_comment', { key: 'PROJ-101', body: 'Bob tries.' });
  assert.is(refused.error.code, -32602);
});

test('the users of the file are people: a newcomer is added to the directory at start, once', async () => {
  const users = parseUsers(`${ALICE} alice\nsam-0123456789abcdef sam.k read-only\n`, 'users');
  assert.match(await domainFailure(() => store.personHandle('sam.k')), 'No one called "sam.k"');
  await meetUsers(store, users);
  assert.is(store.personHandle('sam.k'), 'sam.k');
  assert.equal(
    store.listPeople().people.find((person) => person.handle === 'sam.k'),
    { handle: 'sam.k', name: 'sam.k', email: null, aliases: [], assigned: 0 },
  );
  assert.equal(await meetUsers(store, users), [], 'met again: nothing written');
});

test('the users file: each mistake names its line', () => {
  const mistakes: [string, RegExp][] = [
    ['short alice', /line 1: a token is 16 or more/],
    [`${ALICE}`, /line 1: .*the handle is missing/],
    [`# people\n${ALICE} 9lives`, /line 2: Invalid handle/],
    [`${ALICE} alice\n${ALICE} bob`, /line 2: this token is given twice/],
    [`${ALICE} alice toolsets=issues,everything`, /line 1: toolsets: unknown toolset everything/],
    [`${ALICE} alice admin`, /line 1: unknown option admin/],
    ['# nobody', /names no user/],
  ];
  for (const [text, expected] of mistakes) assert.throws(() => parseUsers(text, 'users'), expected, text);
});

test.run();
