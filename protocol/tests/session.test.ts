// Session tests, written as transcripts: what the client sends, what the server must answer.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as z from 'zod/mini';
import type { ServerDefinition } from '../definition.js';
import { ToolError, structuredResult } from '../tools.js';
import { transcript } from './harness.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function definition(): ServerDefinition {
  return {
    info: { name: 'test-server', version: '1.0.0', title: 'Test Server' },
    instructions: 'Use the echo tool.',
    tools: [
      {
        name: 'echo',
        title: 'Echo',
        description: 'Echoes text.',
        input: z.object({ text: z.string() }),
        output: z.object({ text: z.string() }),
        annotations: { readOnlyHint: true },
        run: (args) => structuredResult({ text: args.text }),
      },
      {
        name: 'slow',
        description: 'Counts to 5, with progress.',
        input: z.object({}),
        async run(_args, context) {
          for (let i = 1; i <= 5; i++) {
            context.progress(i, 5, `step ${i}`);
            context.progress(i - 0.5); // not increasing: must be dropped
            await sleep(10);
            if (context.signal.aborted) break;
          }
          return { content: [{ type: 'text', text: 'done' }] };
        },
      },
      {
        name: 'fails',
        description: 'Throws.',
        input: z.object({}),
        run: () => {
          throw new Error('disk on fire\n    at secret.ts:1');
        },
      },
      {
        name: 'refuses',
        description: 'A domain error.',
        input: z.object({}),
        run: () => {
          throw new ToolError('No such issue. Call search_issues first.');
        },
      },
      {
        name: 'ask',
        description: 'Asks the client.',
        input: z.object({}),
        async run(_args, context) {
          const answer = await context.request('roots/list', {}, 50);
          return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
        },
      },
      {
        name: 'link',
        description: 'Returns a link.',
        input: z.object({}),
        run: () => ({ content: [{ type: 'resource_link', uri: 'test://a', name: 'a' }] }),
      },
    ],
    resources: [{ uri: 'test://a', name: 'a', title: 'A', mimeType: 'text/plain', read: () => [{ uri: 'test://a', text: 'A' }] }],
    resourceTemplates: [
      {
        uriTemplate: 'test://item/{id}',
        name: 'item',
        read: (vars, uri) => (vars.id === '1' ? [{ uri, text: 'one' }] : null),
        complete: {
          id: (value) => ({ values: Array.from({ length: 150 }, (_, i) => String(i)).filter((v) => v.startsWith(value)) }),
        },
      },
    ],
    prompts: [
      {
        name: 'greet',
        arguments: [{ name: 'who', required: true }],
        get: (args) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Hello ${args.who}` } }] }),
      },
    ],
    subscriptions: true,
    resourceListChanged: true,
    logging: true,
    pageSize: 2,
  };
}

const req = (id: unknown, method: string, params?: unknown) =>
  params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
const error = (id: unknown, code: number) => ({ jsonrpc: '2.0', id, error: { code } });
/** Responses may come in any order (https://www.jsonrpc.org/specification#batch); sort them by id to read them as a list. */
const byId = (messages: unknown[]) => [...(messages as any[])].sort((a, b) => String(a.id).localeCompare(String(b.id)));
/** Keeps only the fields the test cares about, so messages can be compared as transcripts. */
const codes = (messages: unknown[]) =>
  messages.map((m: any) => (m.error ? { jsonrpc: m.jsonrpc, id: m.id, error: { code: m.error.code } } : m));

// ---- lifecycle -----------------------------------------------------------------------

test('M4: ping is answered before initialize, with ids 0 and "" echoed as sent', async () => {
  const t = transcript(definition());
  t.client(req(0, 'ping'));
  t.client(req('', 'ping'));
  assert.equal(await t.server(), [
    { jsonrpc: '2.0', id: 0, result: {} },
    { jsonrpc: '2.0', id: '', result: {} },
  ]);
});

test('requests other than ping before initialize get -32600', async () => {
  const t = transcript(definition());
  t.client(req(1, 'tools/list'));
  const [answer] = (await t.server()) as any[];
  assert.equal(codes([answer]), [error(1, -32600)]);
  assert.match(answer.error.message, /initialize/);
});

test('M1: a supported version is echoed; capabilities match what is served', async () => {
  const t = transcript(definition());
  const answer = (await t.initialize('2025-11-25')) as any;
  assert.equal(answer.result, {
    protocolVersion: '2025-11-25',
    capabilities: { tools: {}, resources: { subscribe: true, listChanged: true }, prompts: {}, logging: {}, completions: {} },
    serverInfo: { name: 'test-server', version: '1.0.0', title: 'Test Server' },
    instructions: 'Use the echo tool.',
  });
});

test('M2: an unknown version gets a result with our latest, not an error', async () => {
  const t = transcript(definition());
  const answer = (await t.initialize('1999-01-01')) as any;
  assert.is(answer.result.protocolVersion, '2025-11-25');
});

test('2024-11-05: no completions capability flag, no titles', async () => {
  const t = transcript(definition());
  const answer = (await t.initialize('2024-11-05')) as any;
  assert.equal(answer.result.capabilities.completions, undefined);
  assert.equal(answer.result.serverInfo, { name: 'test-server', version: '1.0.0' });
  t.client(req(2, 'tools/list'));
  const [list] = (await t.server()) as any[];
  assert.equal(list.result.tools[0], {
    name: 'echo',
    description: 'Echoes text.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  });
});

test('a second initialize gets -32600; initialize with bad params gets -32602', async () => {
  const t = transcript(definition());
  t.client(req(1, 'initialize', { protocolVersion: 5 }));
  assert.equal(codes(await t.server()), [error(1, -32602)]);
  await t.initialize();
  t.client(req(2, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } }));
  assert.equal(codes(await t.server()), [error(2, -32600)]);
});

// ---- JSON-RPC errors -------------------------------------------------------------------

test('J1/J7: unknown methods get -32601 with the id echoed in its type', async () => {
  const t = transcript(definition());
  await t.initialize();
  t.client({ jsonrpc: '2.0', method: 'subtract', params: [42, 23], id: 1 });
  t.client({ jsonrpc: '2.0', method: 'foobar', id: '1' });
  t.client({ jsonrpc: '2.0', method: 'rpc.discover', id: 2 });
  assert.equal(codes(await t.server()), [error(1, -32601), error('1', -32601), error(2, -32601)]);
});

test('J5/J6/M3/M11: notifications are never answered, known, unknown or malformed', async () => {
  const t = transcript(definition());
  await t.initialize();
  t.client({ jsonrpc: '2.0', method: 'update', params: [1, 2, 3, 4, 5] });
  t.client({ jsonrpc: '2.0', method: 'foobar' });
  t.client({ jsonrpc: '2.0', method: 'notifications/initialized' });
  t.client({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'never-sent' } });
  t.client({ jsonrpc: '2.0', method: 'notifications/cancelled', params: 'garbage' });
  t.client({ jsonrpc: '1.0', method: 'notifications/initialized' });
  assert.equal(await t.server(20), []);
});

test('J8/J9: parse error and invalid request carry id null', async () => {
  const t = transcript(definition());
  t.client('{"jsonrpc":"2.0","method":"foobar,"params":"bar","baz]');
  t.client({ jsonrpc: '2.0', method: 1, params: 'bar' });
  assert.equal(codes(await t.server()), [error(null, -32700), error(null, -32600)]);
});

test('params that fail the schema get -32602 with a one-line message and details in data', async () => {
  const t = transcript(definition());
  await t.initialize();
  t.client(req(1, 'logging/setLevel', { level: 'loud' }));
  t.client(req(2, 'ping', [1, 2]));
  t.client(req(3, 'tools/call', { arguments: {} }));
  const answers = (await t.server()) as any[];
  assert.equal(codes(answers), [error(1, -32602), error(2, -32602), error(3, -32602)]);
  for (const answer of answers) assert.not.match(answer.error.message, /\n/);
  assert.ok(answers[0].error.data.issues.length > 0);
});

test('a duplicate id while the first request runs gets -32600; the first still completes', async () => {
  const t = transcript(definition());
  await t.initialize();
  t.client(req(5, 'tools/call', { name: 'slow', arguments: {} }));
  t.client(req(5, 'ping'));
  assert.equal(codes(await t.server()), [error(5, -32600)]);
  const later = (await t.until((out) => out.some((m) => m.id === 5))) as any[];
  assert.equal(later.at(-1).result, { content: [{ type: 'text', text: 'done' }] });
});

test('J12-J15 in a 2025-11-25 session: any batch is one -32600 with id null', async () => {
  const t = transcript(definition());
  await t.initialize('2025-11-25');
  t.client('[1]');
  t.client('[{"jsonrpc":"2.0","method":"notify_sum","params":[1,2,4]}]');
  t.client('[]');
  assert.equal(codes(await t.server()), [error(null, -32600), error(null, -32600), error(null, -32600)]);
});

test('J11-J15 in a 2025-03-26 session: full JSON-RPC batch semantics', async () => {
  const t = transcript(definition());
  await t.initialize('2025-03-26');
  t.client('[]');
  assert.equal(codes(await t.server()), [error(null, -32600)], 'J11: empty array, one non-array error');
  t.client('[1,2,3]');
  assert.equal(codes(((await t.server()) as any[])[0]), [error(null, -32600), error(null, -32600), error(null, -32600)], 'J13');
  t.client(
    '[{"jsonrpc":"2.0","method":"sum","params":[1,2,4],"id":"1"},{"jsonrpc":"2.0","method":"notify_hello","params":[7]},{"jsonrpc":"2.0","method":"ping","id":"2"},{"foo":"boo"},{"jsonrpc":"2.0","method":"foo.get","params":{"name":"myself"},"id":"5"}]',
  );
  const [batch] = (await t.server()) as any[];
  assert.equal(
    codes(batch),
    [error('1', -32601), { jsonrpc: '2.0', id: '2', result: {} }, error(null, -32600), error('5', -32601)],
    'J14',
  );
  t.client('[{"jsonrpc":"2.0","method":"notify_sum","params":[1,2,4]},{"jsonrpc":"2.0","method":"notify_hello","params":[7]}]');
  assert.equal(await t.server(), [], 'J15: only notifications, no output at all');
  t.client('[{"jsonrpc":"2.0","id":9,"method":"initialize","params":{}}]');
  assert.equal(codes(((await t.server()) as any[])[0]), [error(9, -32600)], 'initialize MUST NOT be in a batch');
});

test('a batch of more than 1000 messages is one -32600: a batch is answered in one line', async () => {
  const t = transcript(definition());
  await t.initialize('2025-03-26');
  t.client(JSON.stringify(Array.from({ length: 1001 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' }))));
  assert.equal(codes(await t.server()), [error(null, -32600)]);
});

test('a message of more than 20,000 values is one -32600 naming the bound, with its id, before it is parsed or run; a notification none (issue 30)', async () => {
  const t = transcript(definition());
  await t.initialize();
  const keys = Object.fromEntries(Array.from({ length: 20_001 }, (_, i) => [`k${i}`, 1]));
  t.client({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x', ...keys } } });
  // The id after the costly params, as a string: still found at the top level.
  t.client(
    JSON.stringify({ jsonrpc: '2.0', method: 'ping', params: { a: Array.from({ length: 20_001 }, () => ({})) }, id: 'two' }),
  );
  t.client({ jsonrpc: '2.0', method: 'notifications/message', params: { a: Array.from({ length: 20_001 }, () => 1) } });
  t.client({ jsonrpc: '2.0', id: 3, method: 'ping', params: { a: Array.from({ length: 19_000 }, () => 1) } });
  const answers = (await t.server()) as { id: unknown; error?: { code: number; message: string } }[];
  assert.equal(codes(answers), [error(1, -32600), error('two', -32600), { jsonrpc: '2.0', id: 3, result: {} }]);
  assert.match(answers[0]!.error!.message, /at most 20000 values/);
});

test('fair turns: a ping and a listing behind 20 costly requests are answered before them; the costly ones still all answered, in order (issue 30)', async () => {
  const busy = (ms: number) => {
    const until = performance.now() + ms;
    while (performance.now() < until);
  };
  const t = transcript({
    ...definition(),
    tools: [
      { name: 'busy', description: 'Holds the thread 20 ms.', input: z.object({}), run: () => (busy(20), { content: [] }) },
    ],
  });
  await t.initialize();
  for (let id = 1; id <= 20; id++) t.client(req(id, 'tools/call', { name: 'busy', arguments: {} }));
  t.client(req('ping', 'ping'));
  t.client(req('list', 'tools/list'));
  const ids = ((await t.until((messages) => messages.length === 22)) as { id: unknown }[]).map((message) => message.id);
  assert.equal(ids.slice(0, 3), [1, 'ping', 'list']);
  assert.equal(
    ids.slice(3),
    Array.from({ length: 19 }, (_, i) => i + 2),
  );
});

test('a handler fault is -32603 without the stack or the message', async () => {
  const t = transcript({
    ...definition(),
    prompts: [
      {
        name: 'broken',
        arguments: [],
        get: () => {
          throw new Error('secret path /etc/x');
        },
      },
    ],
  });
  await t.initialize();
  t.client(req(1, 'prompts/get', { name: 'broken' }));
  const [answer] = (await t.server()) as any[];
  assert.equal(answer.error, { code: -32603, message: 'Internal error' });
});

// ---- capabilities ---------------------------------------------------------------------

test('M13: a method of a feature we do not serve is -32601', async () => {
  const t = transcript({ info: { name: 'bare', version: '1' } });
  const answer = (await t.initialize()) as any;
  assert.equal(answer.result.capabilities, {});
  for (const [id, method] of [
    'prompts/list',
    'tools/list',
    'resources/list',
    'completion/complete',
    'logging/setLevel',
    'resources/subscribe',
  ].entries()) {
    t.client(req(id, method, {}));
  }
  assert.equal(
    codes(await t.server()).map((m: any) => m.error.code),
    [-32601, -32601, -32601, -32601, -32601, -32601],
  );
});

// ---- tools ------------------------------------------------------------------------------

test('M5: an unknown tool is -32602, a protocol error', async () => {
  const t = transcript(definition());
  await t.initialize();
  t.client(req(1, 'tools/call', { name: 'nope', arguments: {} }));
  assert.equal(codes(await t.server()), [error(1, -32602)]);
});

test('M6/M7: bad arguments, domain errors and exceptions are isError results', async () => {
  const t = transcript(definition());
  await t.initialize();
  t.client(req(1, 'tools/call', { name: 'echo', arguments: { text: 5 } }));
  t.client(req(2, 'tools/call', { name: 'fails', arguments: {} }));
  t.client(req(3, 'tools/call', { name: 'refuses' }));
  const answers = byId(await t.server());
  for (const answer of answers) assert.is(answer.result.isError, true);
  assert.match(answers[0].result.content[0].text, /text: expected string/);
  assert.match(answers[1].result.content[0].text, /disk on fire/);
  assert.is(answers[2].result.content[0].text, 'No such issue. Call search_issues first.');
});

test('structuredContent from 2025-06-18 only; resource_link becomes text before it', async () => {
  const modern = transcript(definition());
  await modern.initialize('2025-06-18');
  modern.client(req(1, 'tools/call', { name: 'echo', arguments: { text: 'hi' } }));
  modern.client(req(2, 'tools/call', { name: 'link' }));
  const [echo, link] = byId(await modern.server());
  assert.equal(echo.result, { content: [{ type: 'text', text: '{"text":"hi"}' }], structuredContent: { text: 'hi' } });
  assert.equal(link.result.content[0].type, 'resource_link');

  const old = transcript(definition());
  await old.initialize('2025-03-26');
  old.client(req(1, 'tools/call', { name: 'echo', arguments: { text: 'hi' } }));
  old.client(req(2, 'tools/call', { name: 'link' }));
  const [oldEcho, oldLink] = byId(await old.server());
  assert.equal(oldEcho.result, { content: [{ type: 'text', text: '{"text":"hi"}' }] });
  assert.equal(oldLink.result.content[0], { type: 'text', text: 'a: test://a' });
});

test('tools/list pages with opaque cursors; M10: a garbage cursor is -32602', async () => {
  const t = transcript(definition());
  await t.initialize();
  const names: string[] = [];
  let cursor: string | undefined;
  do {
    t.client(req(names.length, 'tools/list', cursor === undefined ? {} : { cursor }));
    const [page] = (await t.server()) as any[];
    names.push(...page.result.tools.map((tool: any) => tool.name));
    cursor = page.result.nextCursor;
  } while (cursor !== undefined);
  assert.equal(names, ['echo', 'slow', 'fails', 'refuses', 'ask', 'link']);
  t.client(req(99, 'tools/list', { cursor: 'garbage' }));
  assert.equal(codes(await t.server()), [error(99, -32602)]);
});

// ---- progress and cancellation -------------------------------------------------------------

test('M12: progress only with a token, strictly increasing, all before the response', async () => {
  const t = transcript(definition());
  await t.initialize();
  t.client(req(1, 'tools/call', { name: 'slow', arguments: {}, _meta: { progressToken: 0 } }));
  const messages = (await t.until((out) => out.some((m) => m.id === 1))) as any[];
  const progress = messages.filter((m) => m.method === 'notifications/progress').map((m) => m.params);
  assert.equal(
    progress.map((p) => p.progress),
    [1, 2, 3, 4, 5],
  );
  assert.ok(progress.every((p) => p.progressToken === 0 && p.total === 5));
  assert.is(messages.at(-1).id, 1);

  t.client(req(2, 'tools/call', { name: 'slow', arguments: {} }));
  assert.equal(
    ((await t.until((out) => out.some((m) => m.id === 2))) as any[]).map((m) => m.id),
    [2],
    'no token, no progress',
  );
});

test('cancelling request id 0 stops it and nothing more is sent for it', async () => {
  const t = transcript(definition());
  await t.initialize();
  t.client(req(0, 'tools/call', { name: 'slow', arguments: {}, _meta: { progressToken: 'p' } }));
  await t.server(15);
  t.client({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 0, reason: 'user' } });
  assert.equal(await t.server(120), []);
  assert.is(t.session.inFlight, 0);
});

test('a cancel that arrives after the response is ignored', async () => {
  const t = transcript(definition());
  await t.initialize();
  t.client(req(3, 'ping'));
  await t.server();
  t.client({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } });
  assert.equal(await t.server(10), []);
});

test('a quick request is never in flight; a slow one is until answered, and its id is refused meanwhile', async () => {
  const t = transcript(definition());
  await t.initialize();
  t.client(req(1, 'tools/call', { name: 'slow', arguments: {} }));
  t.client(req(2, 'tools/call', { name: 'echo', arguments: { text: 'hi' } }));
  assert.is(t.session.inFlight, 1, 'only the slow one counts against the limit on work in flight');
  t.client(req(1, 'ping'));
  t.client(req(2, 'ping'));
  const [slowId, quick, again] = codes(byId(await t.server())) as any[];
  assert.equal(slowId, error(1, -32600), 'the id of a request still running');
  assert.equal([quick.id, quick.result.structuredContent], [2, { text: 'hi' }]);
  assert.equal(again, { jsonrpc: '2.0', id: 2, result: {} }, 'the id of a request answered at once is free again');
  const [slow] = (await t.until((out) => out.length > 0)) as any[];
  assert.equal([slow.id, slow.result.content], [1, [{ type: 'text', text: 'done' }]]);
  assert.is(t.session.inFlight, 0);
});

// ---- resources, prompts, completion, logging, subscriptions ----------------------------------

test('resources: fixed and templated reads; M9: not found is -32002 with the uri', async () => {
  const t = transcript(definition());
  await t.initialize();
  t.client(req(1, 'resources/read', { uri: 'test://a' }));
  t.client(req(2, 'resources/read', { uri: 'test://item/1' }));
  t.client(req(3, 'resources/read', { uri: 'test://item/2' }));
  t.client(req(4, 'resources/read', { uri: 'elsewhere://x' }));
  const [a, item, missing, elsewhere] = byId(await t.server());
  assert.equal(a.result, { contents: [{ uri: 'test://a', text: 'A' }] });
  assert.equal(item.result, { contents: [{ uri: 'test://item/1', text: 'one' }] });
  assert.equal(missing.error, { code: -32002, message: 'Resource not found: test://item/2', data: { uri: 'test://item/2' } });
  assert.equal(elsewhere.error.code, -32002);
});

test('subscriptions: updated only for subscribed URIs, and not after unsubscribe', async () => {
  const t = transcript(definition());
  await t.initialize();
  t.client(req(1, 'resources/subscribe', { uri: 'test://item/1' }));
  t.client(req(2, 'resources/subscribe', { uri: 'test://item/2' }));
  assert.equal(codes(byId(await t.server())), [{ jsonrpc: '2.0', id: 1, result: {} }, error(2, -32002)]);
  t.engine.resourceUpdated('test://a');
  t.engine.resourceUpdated('test://item/1');
  assert.equal(await t.server(), [
    { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'test://item/1' } },
  ]);
  t.client(req(3, 'resources/unsubscribe', { uri: 'test://item/1' }));
  await t.server();
  t.engine.resourceUpdated('test://item/1');
  assert.equal(await t.server(), []);
});

/** Items every spelling of which ("1", " 1", "%31") is one resource; `watched` follows the hooks. */
function spelledItems(limits = {}) {
  const watched: string[] = [];
  const t = transcript({
    ...definition(),
    resourceTemplates: [
      {
        uriTemplate: 'test://item/{id}',
        name: 'item',
        read: (vars, uri) => (vars.id!.trim() === '' ? null : [{ uri, text: `item ${vars.id!.trim()}` }]),
        canonical: (vars) => ({ id: vars.id!.trim() }),
      },
    ],
    subscriptionLimits: limits,
    onSubscribe: (uri) => watched.push(uri),
    onUnsubscribe: (uri) => watched.splice(watched.indexOf(uri), 1),
  });
  return { t, watched };
}

test('subscriptions: every spelling of a resource is watched once, notified as each client spelled it, freed by unsubscribe in any spelling', async () => {
  const { t, watched } = spelledItems();
  await t.initialize();
  const spellings = ['test://item/1', 'test://item/%31', 'test://item/%20%201'];
  spellings.forEach((uri, i) => t.client(req(i, 'resources/subscribe', { uri })));
  assert.equal(
    await t.server(),
    [0, 1, 2].map((id) => ({ jsonrpc: '2.0', id, result: {} })),
  );
  assert.equal(watched, ['test://item/1'], 'one resource watched, under its canonical URI');
  t.engine.resourceUpdated('test://item/1');
  assert.equal(
    await t.server(),
    spellings.map((uri) => ({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } })),
  );
  t.client(req(3, 'resources/unsubscribe', { uri: 'test://item/1%20' }));
  await t.server();
  assert.is(t.engine.subscriptions, 0);
  assert.equal(watched, [], 'nothing kept after the last unsubscribe');
  t.engine.resourceUpdated('test://item/1');
  assert.equal(await t.server(), []);
});

test('a subscribe to a resource already watched, in any spelling or from another connection, does not read it again (issue 30)', async () => {
  let reads = 0;
  const t = transcript({
    ...definition(),
    resourceTemplates: [
      {
        uriTemplate: 'test://item/{id}',
        name: 'item',
        read: (vars, uri) => (reads++, [{ uri, text: `item ${vars.id!.trim()}` }]),
        canonical: (vars) => ({ id: vars.id!.trim() }),
      },
    ],
    onSubscribe: () => {},
  });
  await t.initialize();
  const other = t.another();
  await other.initialize();
  t.client(req(1, 'resources/subscribe', { uri: 'test://item/1' }));
  t.client(req(2, 'resources/subscribe', { uri: 'test://item/%31' }));
  other.client(req(3, 'resources/subscribe', { uri: 'test://item/%20%201' }));
  t.client(req(4, 'resources/subscribe', { uri: 'test://item/2' }));
  assert.equal(
    codes(await t.server()),
    [1, 2, 4].map((id) => ({ jsonrpc: '2.0', id, result: {} })),
  );
  assert.equal(codes(await other.server()), [{ jsonrpc: '2.0', id: 3, result: {} }]);
  assert.is(reads, 2);
});

test('subscriptions are bounded per session and by URI length; the error names the limit', async () => {
  const { t } = spelledItems({ maxPerSession: 2, maxUriLength: 40 });
  await t.initialize();
  for (const [id, uri] of ['test://item/1', 'test://item/2', 'test://item/3', 'test://item/1'].entries())
    t.client(req(id, 'resources/subscribe', { uri }));
  const answers = byId(await t.server());
  assert.equal(codes(answers), [
    { jsonrpc: '2.0', id: 0, result: {} },
    { jsonrpc: '2.0', id: 1, result: {} },
    error(2, -32602),
    { jsonrpc: '2.0', id: 3, result: {} },
  ]);
  assert.match(answers[2].error.message, /at most 2 subscriptions/);
  t.client(req(4, 'resources/subscribe', { uri: `test://item/${'x'.repeat(30)}` }));
  const [long] = (await t.server()) as any[];
  assert.equal(
    [long.error.code, long.error.message],
    [-32602, 'Invalid params: a subscribed URI is at most 40 characters; got 42'],
  );
  t.client(req(5, 'resources/unsubscribe', { uri: 'test://item/1' }));
  t.client(req(6, 'resources/subscribe', { uri: 'test://item/3' }));
  assert.equal(codes(byId(await t.server())), [
    { jsonrpc: '2.0', id: 5, result: {} },
    { jsonrpc: '2.0', id: 6, result: {} },
  ]);
  assert.is(t.engine.subscriptions, 2);
});

test('M8: prompts/get with an unknown name or a missing argument is -32602', async () => {
  const t = transcript(definition());
  await t.initialize();
  t.client(req(1, 'prompts/get', { name: 'nope' }));
  t.client(req(2, 'prompts/get', { name: 'greet' }));
  t.client(req(3, 'prompts/get', { name: 'greet', arguments: { who: 'Ada', extra: 'x' } }));
  t.client(req(4, 'prompts/get', { name: 'greet', arguments: { who: 'Ada' } }));
  const answers = byId(await t.server());
  assert.equal(codes(answers.slice(0, 3)), [error(1, -32602), error(2, -32602), error(3, -32602)]);
  assert.match(answers[1].error.message, /who/);
  assert.equal(answers[3].result, { messages: [{ role: 'user', content: { type: 'text', text: 'Hello Ada' } }] });
});

test('completion: at most 100 values, with total and hasMore', async () => {
  const t = transcript(definition());
  await t.initialize();
  t.client(
    req(1, 'completion/complete', {
      ref: { type: 'ref/resource', uri: 'test://item/{id}' },
      argument: { name: 'id', value: '' },
    }),
  );
  t.client(
    req(2, 'completion/complete', {
      ref: { type: 'ref/resource', uri: 'test://item/{id}' },
      argument: { name: 'id', value: '14' },
    }),
  );
  t.client(
    req(3, 'completion/complete', { ref: { type: 'ref/resource', uri: 'test://nope/{x}' }, argument: { name: 'x', value: '' } }),
  );
  t.client(req(4, 'completion/complete', { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'who', value: '' } }));
  const [all, some, unknown, none] = byId(await t.server());
  assert.is(all.result.completion.values.length, 100);
  assert.equal([all.result.completion.total, all.result.completion.hasMore], [150, true]);
  assert.equal(some.result.completion, {
    values: ['14', '140', '141', '142', '143', '144', '145', '146', '147', '148', '149'],
    total: 11,
    hasMore: false,
  });
  assert.is(unknown.error.code, -32602);
  assert.equal(none.result.completion, { values: [], total: 0, hasMore: false });
});

test('logging: nothing before setLevel, then only at or above the level', async () => {
  const t = transcript(definition());
  await t.initialize();
  t.engine.log('error', 'too early');
  assert.equal(await t.server(), []);
  t.client(req(1, 'logging/setLevel', { level: 'warning' }));
  await t.server();
  t.engine.log('info', 'quiet');
  t.engine.log('error', { what: 'loud' }, 'tracker');
  assert.equal(await t.server(), [
    { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'error', logger: 'tracker', data: { what: 'loud' } } },
  ]);
});

// ---- server-to-client requests ----------------------------------------------------------------

test('a request to the client needs its capability; responses are matched by id', async () => {
  const t = transcript(definition());
  await t.initialize('2025-11-25', { roots: {} });
  t.client(req(1, 'tools/call', { name: 'ask' }));
  const [asked] = (await t.server()) as any[];
  assert.equal({ method: asked.method, id: typeof asked.id }, { method: 'roots/list', id: 'number' });
  t.client({ jsonrpc: '2.0', id: asked.id, result: { roots: [] } });
  const [answer] = (await t.server()) as any[];
  assert.equal(answer.result.content[0].text, '{"roots":[]}');

  const without = transcript(definition());
  await without.initialize('2025-11-25', {});
  without.client(req(1, 'tools/call', { name: 'ask' }));
  const [refused] = (await without.server()) as any[];
  assert.match(refused.result.content[0].text, /did not declare the roots capability/);
});

test('an unanswered request to the client times out, is cancelled, and a late answer is ignored', async () => {
  const t = transcript(definition());
  await t.initialize('2025-11-25', { roots: {} });
  t.client(req(1, 'tools/call', { name: 'ask' }));
  const [asked] = (await t.server()) as any[];
  const after = (await t.until((out) => out.some((m) => m.id === 1))) as any[];
  assert.equal(after[0], {
    jsonrpc: '2.0',
    method: 'notifications/cancelled',
    params: { requestId: asked.id, reason: 'roots/list timed out' },
  });
  assert.is(after[1].result.isError, true);
  t.client({ jsonrpc: '2.0', id: asked.id, result: { roots: [] } });
  assert.equal(await t.server(), []);
});

test.run();
