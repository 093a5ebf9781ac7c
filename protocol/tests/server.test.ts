// One server, many connections: what they share (registries, the watch on each resource) and
// what each keeps to itself (its lifecycle, its subscriptions), and the route of each message.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as z from 'zod/mini';
import { createServer } from '../server.js';
import type { ServerDefinition } from '../definition.js';
import { transcript } from './harness.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

function definition(watched: string[]): ServerDefinition {
  return {
    info: { name: 'test-server', version: '1.0.0' },
    tools: [
      {
        name: 'count',
        description: 'Counts to 2, with progress.',
        input: z.object({}),
        run(_args, context) {
          context.progress(1, 2);
          context.progress(2, 2);
          return { content: [{ type: 'text', text: 'done' }] };
        },
      },
    ],
    resources: [{ uri: 'test://a', name: 'a', read: () => [{ uri: 'test://a', text: 'A' }] }],
    subscriptions: true,
    onSubscribe: (uri) => watched.push(uri),
    onUnsubscribe: (uri) => watched.splice(watched.indexOf(uri), 1),
  };
}

const subscribe = (id: number) => ({ jsonrpc: '2.0', id, method: 'resources/subscribe', params: { uri: 'test://a' } });

test('each connection has its own lifecycle: one initialized, the other not', async () => {
  const first = transcript(definition([]));
  const second = first.another();
  await first.initialize('2025-03-26');
  second.client({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const [early] = (await second.server()) as any[];
  assert.is(early.error.code, -32600, 'the other connection has not sent initialize');
  const answer = (await second.initialize('2025-11-25')) as any;
  assert.is(answer.result.protocolVersion, '2025-11-25', 'each connection negotiates its own revision');
  assert.is(first.engine.connections, 2);
});

test('a change reaches every subscribed connection; the resource is watched once, until its last subscriber leaves', async () => {
  const watched: string[] = [];
  const first = transcript(definition(watched));
  const second = first.another();
  const third = first.another();
  for (const t of [first, second, third]) await t.initialize();
  first.client(subscribe(1));
  second.client(subscribe(1));
  await first.server();
  await second.server();
  assert.equal(watched, ['test://a'], 'watched once for both connections');

  first.engine.resourceUpdated('test://a');
  const updated = { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'test://a' } };
  assert.equal(await first.server(), [updated]);
  assert.equal(await second.server(), [updated]);
  assert.equal(await third.server(), [], 'not subscribed: not told');

  first.session.close();
  assert.equal(watched, ['test://a'], 'the second connection still holds it');
  assert.is(first.engine.connections, 2);
  first.engine.resourceUpdated('test://a');
  assert.equal(await first.server(), [], 'a closed connection hears nothing');
  second.session.close();
  assert.equal(watched, [], 'forgotten with its last subscriber');
  assert.is(first.engine.subscriptions, 0);
});

test('routes: a response and what its request sent on the way belong to that request; updates to the connection', async () => {
  const t = transcript(createServer(definition([])));
  await t.initialize();
  t.routes.length = 0;
  t.client({
    jsonrpc: '2.0',
    id: 7,
    method: 'tools/call',
    params: { name: 'count', arguments: {}, _meta: { progressToken: 'p' } },
  });
  t.client({ jsonrpc: '2.0', id: 'm', method: 'tools/call', params: { name: 'count', arguments: {}, _meta: META } });
  t.client(subscribe(8));
  const out = (await t.server()) as any[];
  const routed = out.map((message, i) => [message.method ?? message.id, t.routes[i]!.relatedRequestId]);
  // Answers leave in the order they finish; each is routed to its own request.
  assert.equal(
    routed.sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    [
      [7, 7],
      [8, 8],
      ['m', 'm'],
      ['notifications/progress', 7],
      ['notifications/progress', 7],
    ],
  );
  t.engine.resourceUpdated('test://a');
  await t.server();
  assert.equal(t.routes.at(-1), {}, 'a subscription update belongs to the connection, not to a request');
});

test('a stateless request needs no handshake and leaves none behind, on any connection', async () => {
  const t = transcript(definition([]));
  t.client({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } });
  const [listed] = (await t.server()) as any[];
  assert.is(listed.result.resultType, 'complete');
  const other = t.another();
  other.client({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } });
  const [same] = (await other.server()) as any[];
  assert.equal(same, listed, 'the same request gets the same answer on another connection: nothing is kept between them');
});

test.run();
