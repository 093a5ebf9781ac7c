// Team mode as it is deployed: three `mcp-tracker --http` processes on one PostgreSQL database,
// an editor and a watcher (subscribed to three issues over its GET stream) on each. The editors
// make their mutations at once, interleaved across the instances; then every key is given
// once, no update is lost, each instance answers the same, and each watcher was told of the
// last change to each issue it watches, whichever instance made it. Then a killed instance
// (kill -9) loses no write it acknowledged. Figures are printed, not asserted.
import * as assert from 'uvu/assert';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { dropDatabases, freshStore, postgresTest } from './postgres-test-db.js';
import { type HttpTracker, startHttpTracker } from '../test-support/http-tracker.js';

const test = postgresTest('the team-mode tests (three instances on one PostgreSQL database)');
const INSTANCES = 3;
const MUTATIONS = 999;
const WATCHED = ['PROJ-101', 'PROJ-102', 'PROJ-103'];

type Instance = HttpTracker;

const startInstance = (store: string): Promise<Instance> => startHttpTracker(['--store', store]);

async function connect(url: URL, name: string): Promise<Client> {
  const client = new Client({ name, version: '1' });
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

type Result = { isError?: boolean; structuredContent?: Record<string, unknown>; content?: unknown };
async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = (await client.callTool({ name, arguments: args })) as Result;
  assert.is(result.isError, undefined, `${name}: ${JSON.stringify(result.content)}`);
  return result.structuredContent ?? {};
}

const issueOf = (content: Record<string, unknown>) => content['issue'] as { key: string; assignee: string | null };
/** get_issue shows the newest comments; comments_total counts them all. */
const commentsOf = (content: Record<string, unknown>) => content['comments_total'] as number;

/** The i-th mutation: a create, a comment on a watched issue, or an assignment of one, in turn. */
function mutation(i: number): [string, Record<string, unknown>] {
  const watched = WATCHED[Math.floor(i / 3) % WATCHED.length]!;
  if (i % 3 === 0) return ['create_issue', { project: 'PROJ', title: `team ${i}` }];
  if (i % 3 === 1) return ['add_comment', { key: watched, body: `comment ${i}` }];
  return ['update_issue', { key: watched, assignee: TEAM[i % TEAM.length] }];
}

/** Assignees: the demo's people (an assignee nobody knows is refused, issue 32). */
const TEAM = ['alice', 'bob', 'carol', 'dmitri', 'priya'];

test.after(() => dropDatabases());

test(`three instances, ${MUTATIONS} interleaved mutations: no duplicate key, no lost update, every watcher told`, async () => {
  const store = await freshStore();
  const instances: Instance[] = [];
  const clients: Client[] = [];
  try {
    for (let i = 0; i < INSTANCES; i++) instances.push(await startInstance(store));
    const lastHeard = instances.map(() => new Map<string, number>());
    const watchers = await Promise.all(instances.map((instance, i) => connect(instance.url, `watcher-${i}`)));
    const editors = await Promise.all(instances.map((instance, i) => connect(instance.url, `editor-${i}`)));
    clients.push(...watchers, ...editors);
    for (const [i, watcher] of watchers.entries()) {
      watcher.setNotificationHandler(
        ResourceUpdatedNotificationSchema,
        (note) => void lastHeard[i]!.set(note.params.uri, Date.now()),
      );
      for (const key of WATCHED) await watcher.subscribeResource({ uri: `jira://issue/${key}` });
    }
    const before = await Promise.all(WATCHED.map(async (key) => commentsOf(await call(editors[0]!, 'get_issue', { key }))));

    // Mutation i goes to instance i % 3; each editor keeps a few requests in flight.
    const created: string[] = [];
    const lastChange = new Map<string, number>();
    let commented = 0;
    const started = Date.now();
    await Promise.all(
      editors.map(async (editor, e) => {
        const mine = Array.from({ length: MUTATIONS }, (_, i) => i).filter((i) => i % INSTANCES === e);
        for (let start = 0; start < mine.length; start += 4) {
          await Promise.all(
            mine.slice(start, start + 4).map(async (i) => {
              const [name, args] = mutation(i);
              const issue = issueOf(await call(editor, name, args));
              if (name === 'create_issue') created.push(issue.key);
              else lastChange.set(issue.key, Date.now());
              if (name === 'add_comment') commented += 1;
            }),
          );
        }
      }),
    );
    const elapsed = Date.now() - started;

    assert.is(new Set(created).size, created.length, 'no key given twice');
    assert.is(created.length, MUTATIONS / 3);
    // Each instance answers from its replica, which the change feed brings up to date within a
    // second (more on a loaded machine): read until they agree, for at most 10 s.
    const readViews = () =>
      Promise.all(editors.map((editor) => Promise.all(WATCHED.map(async (key) => call(editor, 'get_issue', { key })))));
    const agreeBy = Date.now() + 10_000;
    let views = await readViews();
    const agree = () => views.every((view) => JSON.stringify(view) === JSON.stringify(views[0]));
    while (!agree() && Date.now() < agreeBy) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      views = await readViews();
    }
    const comments = views[0]!.reduce((sum, read, k) => sum + commentsOf(read) - before[k]!, 0);
    assert.is(comments, commented, 'every acknowledged comment is there: no update lost');
    for (const view of views.slice(1)) assert.equal(view, views[0], 'every instance answers the same');

    // Each watcher hears of the last change to each watched issue, made on whichever instance.
    const deadline = Date.now() + 10_000;
    const told = () =>
      lastHeard.every((heard) =>
        WATCHED.every((key) => (heard.get(`jira://issue/${key}`) ?? 0) >= (lastChange.get(key) ?? 0) - 5_000),
      );
    while (!told() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok(told(), 'every watcher was told of the last change to each issue it watches');

    // Cross-instance latency: a comment on one instance, until the watchers on the others hear of it.
    const latencies: number[] = [];
    for (let round = 0; round < 30; round++) {
      const from = round % INSTANCES;
      const sent = Date.now();
      await call(editors[from]!, 'add_comment', { key: 'PROJ-101', body: `latency ${round}` });
      for (const [i, heard] of lastHeard.entries()) {
        if (i === from) continue;
        while ((heard.get('jira://issue/PROJ-101') ?? 0) < sent) await new Promise((resolve) => setTimeout(resolve, 2));
        latencies.push(heard.get('jira://issue/PROJ-101')! - sent);
      }
    }
    latencies.sort((a, b) => a - b);
    console.log(
      `team mode: ${INSTANCES} instances, ${MUTATIONS} mutations in ${elapsed} ms (${Math.round((MUTATIONS * 1000) / elapsed)}/s), ` +
        `${created.length} keys all distinct, ${commented} comments all kept; cross-instance notification latency ` +
        `p50 ${latencies[Math.floor(latencies.length / 2)]} ms, max ${latencies[latencies.length - 1]} ms`,
    );
  } finally {
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    for (const instance of instances) instance.child.kill('SIGKILL');
  }
});

test('an instance killed with kill -9 loses no write it acknowledged', async () => {
  const store = await freshStore();
  const doomed = await startInstance(store);
  let survivor: Instance | undefined;
  try {
    const editor = await connect(doomed.url, 'editor');
    const acknowledged: string[] = [];
    // Keep writing; kill the instance while requests are in flight.
    const writing = (async () => {
      for (let i = 0; ; i++) {
        const result = await editor
          .callTool({ name: 'create_issue', arguments: { project: 'WEB', title: `before the kill ${i}` } })
          .catch(() => null);
        if (result === null || (result as Result).isError) return;
        acknowledged.push(issueOf((result as Result).structuredContent ?? {}).key);
      }
    })();
    while (acknowledged.length < 20) await new Promise((resolve) => setTimeout(resolve, 5));
    doomed.child.kill('SIGKILL');
    await writing;
    await editor.close().catch(() => undefined);
    survivor = await startInstance(store);
    const reader = await connect(survivor.url, 'reader');
    for (const key of acknowledged)
      assert.match(JSON.stringify(await call(reader, 'get_issue', { key })), /before the kill/, key);
    await reader.close();
    console.log(`kill -9: ${acknowledged.length} acknowledged creates, all there after a restart`);
  } finally {
    doomed.child.kill('SIGKILL');
    survivor?.child.kill('SIGKILL');
  }
});

test.run();
