// Subscriptions to the tracker, in process: which resources a write reads again (counted on the
// store, not timed), what the watch keeps per resource, and the default limits.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer } from '../../protocol/server.js';
import { transcript } from '../../protocol/tests/harness.js';
import { type TrackerStore, openStore, silentLogger } from '../store/index.js';
import { createTrackerServer } from '../tracker/server.js';

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

/** A tracker on fresh demo data, its session, and every store read the tracker made. */
async function tracker() {
  const dir = mkdtempSync(join(tmpdir(), 'tracker-subscriptions-'));
  const store = await openStore({ path: join(dir, 'tracker.jsonl'), log: silentLogger, watch: false });
  const reads: string[] = [];
  const counted =
    <A extends unknown[], R>(name: string, read: (...args: A) => R) =>
    (...args: A) => {
      reads.push(`${name} ${JSON.stringify(args[0])}`);
      return read(...args);
    };
  const spied: TrackerStore = {
    ...store,
    getIssue: counted('issue', store.getIssue),
    searchIssues: counted('search', store.searchIssues),
    getProjectStats: counted('project stats', store.getProjectStats),
    getSprintStats: counted('sprint stats', store.getSprintStats),
    getCurrentSprintStats: counted('current sprint', store.getCurrentSprintStats),
  };
  const server = createTrackerServer(spied);
  const t = transcript(server.definition);
  const disconnect = server.connect(t.engine, () => {});
  const close = () => {
    disconnect();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  };
  /** The reads a write made, while it was applied and its notifications decided. */
  const readsDuring = async (write: () => Promise<unknown>) => {
    reads.length = 0;
    await write();
    return [...reads];
  };
  return { store, server, t, close, readsDuring };
}

const subscribe = (id: number, uri: string) => ({ jsonrpc: '2.0', id, method: 'resources/subscribe', params: { uri } });

test('a write reads again only the subscribed resources it touched, not every one subscribed', async () => {
  const { store, t, close, readsDuring } = await tracker();
  await t.initialize();
  const uris = [
    'jira://issue/PROJ-101',
    'jira://issue/PROJ-102',
    'jira://issue/PROJ-103',
    'jira://project/PROJ/stats',
    'jira://project/PROJ/issues?status=todo',
    'jira://sprint/PROJ-S42',
  ];
  uris.forEach((uri, i) => t.client(subscribe(i, uri)));
  await t.until((out) => out.length === uris.length);

  const unrelated = await readsDuring(() => store.updateStatus('WEB-1', 'in_review'));
  assert.equal(unrelated, [], 'a WEB issue changed: no PROJ resource is read again');
  assert.equal(await t.server(), []);

  const related = await readsDuring(() => store.addComment('PROJ-102', { body: 'looking into it' }));
  assert.equal(
    related.sort(),
    [
      'issue "PROJ-102"',
      'project stats "PROJ"',
      'search {"project":"PROJ","status":"todo","limit":100}',
      'sprint stats "PROJ-S42"',
    ].sort(),
  );
  const updated = ((await t.server()) as any[]).map((n) => n.params.uri);
  assert.ok(updated.includes('jira://issue/PROJ-102') && !updated.includes('jira://issue/PROJ-101'), updated.join(', '));
  close();
});

test('every spelling of an issue is one watched resource, read once per change and told as each was spelled; unsubscribing frees it', async () => {
  const { store, server, t, close, readsDuring } = await tracker();
  await t.initialize();
  const spellings = ['jira://issue/%20%20PROJ-101', 'jira://issue/proj-101', 'jira://issue/PROJ-101'];
  spellings.forEach((uri, i) => t.client(subscribe(i, uri)));
  await t.until((out) => out.length === spellings.length);

  const reads = await readsDuring(() => store.updateStatus('PROJ-101', 'in_review'));
  assert.equal(reads, ['issue "PROJ-101"'], 'one read, not one per spelling');
  const notes = (await t.server()) as any[];
  assert.equal(
    notes.map((n) => n.params.uri),
    spellings,
  );
  assert.is(server.watching(), 1);

  t.client({ jsonrpc: '2.0', id: 9, method: 'resources/unsubscribe', params: { uri: 'jira://issue/Proj-101' } });
  await t.server();
  assert.is(t.session.subscriptions, 0);
  assert.is(server.watching(), 0, 'no fingerprint kept for a resource nobody is subscribed to');
  close();
});

test('jira://sprint/current is watched per user: alice and priya each read their own, and each is told only of a change to it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tracker-subscriptions-'));
  const store = await openStore({ path: join(dir, 'tracker.jsonl'), log: silentLogger, watch: false });
  const server = createTrackerServer(store);
  const engine = createServer(server.definition);
  const disconnect = server.connect(engine, () => {});
  // Two HTTP users on one server: the transport puts each token's user on its connection.
  const [alice, priya] = [transcript(engine, { subject: 'alice' }), transcript(engine, { subject: 'priya' })];
  const updatesTo = async (t: typeof alice) =>
    ((await t.server(50)) as any[]).filter((n) => n.method === 'notifications/resources/updated').map((n) => n.params.uri);
  for (const t of [alice, priya]) {
    await t.initialize();
    t.client({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'jira://sprint/current' } });
    t.client(subscribe(2, 'jira://sprint/current'));
  }
  const sprintRead = async (t: typeof alice) => {
    const answers = (await t.until((out) => out.some((m: any) => m.id === 2))) as any[];
    return JSON.parse(answers.find((m) => m.id === 1).result.contents[0].text).sprint;
  };
  assert.equal([await sprintRead(alice), await sprintRead(priya)], ['PROJ-S42', 'WEB-S7']);

  await store.updateStatus('WEB-1', 'in_review'); // priya's sprint moves; alice's does not
  assert.equal([await updatesTo(alice), await updatesTo(priya)], [[], ['jira://sprint/current']]);
  await store.updateStatus('PROJ-104', 'in_progress'); // alice's sprint moves; priya's does not
  assert.equal([await updatesTo(alice), await updatesTo(priya)], [['jira://sprint/current'], []]);
  disconnect();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the default limits: 1000 subscriptions a session, 1000 URIs a listen stream, 8 streams', async () => {
  const handshake = await tracker();
  await handshake.t.initialize();
  // 1001 distinct resources that exist: an unknown person in a filter is an error now (no silent
  // empties), while a search for a word nobody wrote is a real, empty answer.
  const queries = Array.from({ length: 1001 }, (_, i) => `jira://search?jql=${encodeURIComponent(`text ~ w${i}`)}`);
  queries.forEach((uri, i) => handshake.t.client(subscribe(i, uri)));
  const answers = (await handshake.t.until((out) => out.length === queries.length, 20_000)) as any[];
  const refused = answers.filter((a) => a.error);
  assert.equal(
    refused.map((a) => [a.id, a.error.code, a.error.message]),
    [[1000, -32602, 'Invalid params: a session holds at most 1000 subscriptions; unsubscribe from one first']],
  );
  handshake.close();

  const stateless = await tracker();
  const listen = (id: string, resourceSubscriptions: string[]) => ({
    jsonrpc: '2.0',
    id,
    method: 'subscriptions/listen',
    params: { _meta: META, notifications: { resourceSubscriptions } },
  });
  stateless.t.client(listen('too-many', queries));
  const [tooMany] = (await stateless.t.server()) as any[];
  assert.equal(tooMany.error, {
    code: -32602,
    message: 'Invalid params: a listen stream lists at most 1000 resourceSubscriptions; got 1001',
  });
  for (let i = 0; i < 9; i++) stateless.t.client(listen(`listen-${i}`, ['jira://sprint/current']));
  const opened = (await stateless.t.server()) as any[];
  assert.equal(
    opened.filter((m) => m.error).map((m) => [m.id, m.error.message]),
    [['listen-8', 'Invalid params: at most 8 listen streams are open at once; cancel one first']],
  );
  assert.is(stateless.server.watching(), 1);
  await stateless.t.session.idle();
  assert.is(stateless.t.session.subscriptions, 0);
  assert.is(stateless.server.watching(), 0, 'streams ended on shutdown leave nothing watched');
  stateless.close();
});

test.run();
