// The 2026-07-28 era on the same session: no initialize, everything in each request's _meta.
// Every message the server sends here is checked against the official 2026-07-28 schema.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as z from 'zod/mini';
import { SchemaValidator } from '../../spec-tests/runner/schema-validator.js';
import { builtinSchemas } from '../../spec-tests/runner/builtin.js';
import type { JsonObject, JsonValue } from '../../spec-tests/runner/json-types.js';
import type { ServerDefinition } from '../definition.js';
import { structuredResult } from '../tools.js';
import { transcript } from './harness.js';

const schemas = SchemaValidator.load(builtinSchemas());

const definition = (): ServerDefinition => ({
  info: { name: 'test-server', version: '1.0.0' },
  tools: [
    {
      name: 'echo',
      description: 'Echoes.',
      input: z.object({ text: z.string() }),
      output: z.object({ text: z.string() }),
      run(args, context) {
        context.log('info', `echo ${args.text}`);
        context.progress(1, 1);
        return structuredResult({ text: args.text });
      },
    },
  ],
  resources: [{ uri: 'test://a', name: 'a', read: () => [{ uri: 'test://a', text: 'A' }] }],
  subscriptions: true,
  resourceListChanged: true,
  logging: true,
});

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'test-client', version: '1' },
};
const req = (id: unknown, method: string, params: Record<string, unknown> = {}, meta: Record<string, unknown> = META) => ({
  jsonrpc: '2.0',
  id,
  method,
  params: { ...params, _meta: meta },
});
const SERVER_INFO = { 'io.modelcontextprotocol/serverInfo': { name: 'test-server', version: '1.0.0' } };

/** Runs a transcript and checks every server message against the 2026-07-28 schema. */
async function validated(messages: unknown[], sent: unknown[]): Promise<void> {
  const validator = await schemas;
  const byId = new Map((sent as JsonObject[]).map((m) => [m.id, m]));
  const problems = messages.flatMap((m) =>
    validator.validate(m as JsonValue, '2026-07-28', (id) => byId.get(id as never)).map((v) => v.problem),
  );
  assert.equal(problems, []);
}

test('M16: server/discover advertises versions, capabilities and caching hints', async () => {
  const t = transcript(definition());
  const sent = [req(1, 'server/discover')];
  sent.forEach((m) => t.client(m));
  const out = await t.server();
  assert.equal(out, [
    {
      jsonrpc: '2.0',
      id: 1,
      result: {
        supportedVersions: ['2026-07-28'],
        capabilities: { tools: {}, resources: { subscribe: true, listChanged: true }, logging: {} },
        resultType: 'complete',
        ttlMs: 3600000,
        cacheScope: 'public',
        _meta: SERVER_INFO,
      },
    },
  ]);
  await validated(out, sent);
});

test('M14: a stateless request without its required _meta fields is -32602', async () => {
  const t = transcript(definition());
  t.client({ jsonrpc: '2.0', id: 1, method: 'server/discover' });
  t.client(req(2, 'tools/list', {}, { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' }));
  const out = (await t.server()) as any[];
  assert.equal(
    out.map((m) => [m.id, m.error.code]),
    [
      [1, -32602],
      [2, -32602],
    ],
  );
  assert.match(out[1].error.message, /clientCapabilities/);
});

test('M15: an unknown version is -32022 with what we support and what was asked', async () => {
  const t = transcript(definition());
  const sent = [req(1, 'tools/list', {}, { ...META, 'io.modelcontextprotocol/protocolVersion': '1900-01-01' })];
  sent.forEach((m) => t.client(m));
  const out = (await t.server()) as any[];
  assert.equal(out[0].error.code, -32022);
  assert.equal(out[0].error.data, { supported: ['2026-07-28'], requested: '1900-01-01' });
  await validated(out, sent);
});

test('every result has resultType and serverInfo; lists and reads have ttlMs and cacheScope', async () => {
  const t = transcript(definition());
  const sent = [
    req(1, 'tools/list'),
    req(2, 'resources/read', { uri: 'test://a' }),
    req(3, 'tools/call', { name: 'echo', arguments: { text: 'hi' } }),
    req(4, 'resources/list'),
    req(5, 'resources/templates/list'),
  ];
  sent.forEach((m) => t.client(m));
  const out = ((await t.server()) as any[]).sort((a, b) => a.id - b.id);
  for (const message of out) {
    assert.is(message.result.resultType, 'complete');
    assert.equal(message.result._meta, SERVER_INFO);
  }
  assert.equal([out[0].result.ttlMs, out[0].result.cacheScope], [3600000, 'public']);
  assert.equal([out[1].result.ttlMs, out[1].result.cacheScope], [0, 'private']);
  assert.is('ttlMs' in out[2].result, false, 'tools/call is not cacheable');
  assert.equal(out[2].result.structuredContent, { text: 'hi' });
  await validated(out, sent);
});

test('two servers in one process: each tool result carries its own serverInfo, call after call', async () => {
  const first = transcript(definition());
  const second = transcript({ ...definition(), info: { name: 'second-server', version: '2.0.0' } });
  const call = (id: number) => req(id, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
  for (const id of [1, 2]) {
    first.client(call(id));
    second.client(call(id));
  }
  const [a, b] = [(await first.server()) as any[], (await second.server()) as any[]];
  for (const message of a) assert.equal(message.result._meta, SERVER_INFO);
  const secondInfo = { 'io.modelcontextprotocol/serverInfo': { name: 'second-server', version: '2.0.0' } };
  for (const message of b) assert.equal(message.result._meta, secondInfo);
});

test('a missing resource is -32602 in 2026-07-28, not -32002', async () => {
  const t = transcript(definition());
  t.client(req(1, 'resources/read', { uri: 'test://missing' }));
  const [answer] = (await t.server()) as any[];
  assert.equal(answer.error, { code: -32602, message: 'Resource not found: test://missing', data: { uri: 'test://missing' } });
});

test('methods removed in 2026-07-28 are -32601 when asked statelessly', async () => {
  const t = transcript(definition());
  for (const [id, method] of ['ping', 'initialize', 'logging/setLevel', 'resources/subscribe'].entries())
    t.client(req(id, method, { uri: 'test://a', level: 'info' }));
  assert.equal(
    ((await t.server()) as any[]).map((m) => m.error.code),
    [-32601, -32601, -32601, -32601],
  );
});

test('both eras on one connection: each request is served in the era it speaks', async () => {
  const t = transcript(definition());
  t.client(req(1, 'server/discover'));
  const [discovered] = (await t.server()) as any[];
  assert.ok(discovered.result.supportedVersions, 'a probe before initialize is answered');
  // The probe's answer came "too late" for this client: it falls back to initialize.
  const answer = (await t.initialize('2025-06-18')) as any;
  assert.is(answer.result.protocolVersion, '2025-06-18', 'initialize is open after a stateless request');
  t.client({
    jsonrpc: '2.0',
    id: 2,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
  });
  const [again] = (await t.server()) as any[];
  assert.is(again.error.code, -32600, 'a second initialize');

  t.client({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
  t.client(req(4, 'tools/list'));
  t.client({ jsonrpc: '2.0', id: 5, method: 'server/discover' });
  t.client({ jsonrpc: '2.0', id: 6, method: 'ping' });
  const [handshake, stateless, bareDiscover, ping] = (await t.server()) as any[];
  assert.is(handshake.result.resultType, undefined, 'without _meta: the negotiated handshake revision');
  assert.is(stateless.result.resultType, 'complete', 'with _meta: served statelessly after initialize too');
  assert.is(bareDiscover.error.code, -32601, 'server/discover without _meta does not exist in a handshake session');
  assert.equal(ping.result, {});
});

test('before initialize, a request without _meta is told both ways forward; a bare ping is answered', async () => {
  const t = transcript(definition());
  t.client({ jsonrpc: '2.0', id: 1, method: 'ping' });
  t.client({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
  t.client(req(3, 'tools/list'));
  t.client({ jsonrpc: '2.0', id: 4, method: 'tools/list' });
  const [ping, early, stateless, stillEarly] = (await t.server()) as any[];
  assert.equal(ping.result, {});
  assert.is(early.error.code, -32600);
  assert.match(early.error.message, /send initialize first, or carry the 2026-07-28 _meta/);
  assert.is(stateless.result.resultType, 'complete');
  assert.is(stillEarly.error.code, -32600, 'a stateless request does not open the handshake era');
});

test('logs only when the request asks for a level, and progress, both before the response', async () => {
  const t = transcript(definition());
  t.client(req(1, 'tools/call', { name: 'echo', arguments: { text: 'quiet' } }));
  assert.equal(
    ((await t.server()) as any[]).map((m) => m.id),
    [1],
    'no logLevel in _meta: no log',
  );
  const sent = [
    req(
      2,
      'tools/call',
      { name: 'echo', arguments: { text: 'loud' } },
      { ...META, 'io.modelcontextprotocol/logLevel': 'debug', progressToken: 'p' },
    ),
  ];
  sent.forEach((m) => t.client(m));
  const out = (await t.server()) as any[];
  assert.equal(
    out.map((m) => m.method ?? m.id),
    ['notifications/message', 'notifications/progress', 2],
  );
  assert.equal(out[0].params, { level: 'info', data: 'echo loud' });
  t.engine.log('error', 'not tied to a request');
  assert.equal(await t.server(), [], 'no session-wide log in 2026-07-28');
  await validated(out, sent);
});

test('subscriptions/listen: acknowledged first, tagged notifications, silent on cancel, a result on shutdown', async () => {
  const t = transcript(definition());
  const sent = [
    req('listen-1', 'subscriptions/listen', {
      notifications: { resourceSubscriptions: ['test://a'], resourcesListChanged: true, toolsListChanged: true },
    }),
  ];
  sent.forEach((m) => t.client(m));
  const tag = { 'io.modelcontextprotocol/subscriptionId': 'listen-1' };
  const ack = await t.server();
  assert.equal(
    ack,
    [
      {
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: { notifications: { resourcesListChanged: true, resourceSubscriptions: ['test://a'] }, _meta: tag },
      },
    ],
    'toolsListChanged is not honoured: our tools never change',
  );
  assert.is(t.engine.subscriptions, 1);
  t.engine.resourceUpdated('test://a');
  t.engine.resourceUpdated('test://other');
  t.engine.resourceListChanged();
  const notes = await t.server();
  assert.equal(notes, [
    { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'test://a', _meta: tag } },
    { jsonrpc: '2.0', method: 'notifications/resources/list_changed', params: { _meta: tag } },
  ]);

  t.client({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'listen-1' } });
  assert.equal(await t.server(10), [], 'a cancelled stream ends without a response');
  t.engine.resourceUpdated('test://a');
  assert.equal(await t.server(), []);

  sent.push(req('listen-2', 'subscriptions/listen', { notifications: { resourceSubscriptions: ['test://a'] } }));
  t.client(sent.at(-1));
  await t.server();
  await t.session.idle();
  const closing = await t.server();
  assert.equal(closing, [
    {
      jsonrpc: '2.0',
      id: 'listen-2',
      result: { _meta: { ...SERVER_INFO, 'io.modelcontextprotocol/subscriptionId': 'listen-2' }, resultType: 'complete' },
    },
  ]);
  await validated([...ack, ...notes, ...closing], sent);
});

test('subscriptions/listen is bounded: URIs per stream and open streams, refused before any acknowledgement; an ended stream frees its URIs', async () => {
  const forgotten: string[] = [];
  const t = transcript({
    ...definition(),
    subscriptionLimits: { maxPerStream: 2, maxStreams: 2 },
    onUnsubscribe: (uri) => forgotten.push(uri),
  });
  const listen = (id: string, notifications: Record<string, unknown>) => req(id, 'subscriptions/listen', { notifications });
  const sent = [
    listen('listen-1', { resourceSubscriptions: ['test://a', 'test://b'] }),
    listen('listen-2', { resourcesListChanged: true }),
    listen('listen-3', { resourcesListChanged: true }),
    listen('listen-4', { resourceSubscriptions: ['test://a', 'test://b', 'test://c'] }),
  ];
  t.client(sent[0]);
  t.client(sent[1]);
  t.client(sent[2]);
  const out = (await t.server()) as any[];
  assert.equal(
    out.map((m) => m.method ?? m.id),
    ['notifications/subscriptions/acknowledged', 'notifications/subscriptions/acknowledged', 'listen-3'],
  );
  assert.equal(
    [out[2].error.code, out[2].error.message],
    [-32602, 'Invalid params: at most 2 listen streams are open at once; cancel one first'],
  );
  assert.is(t.engine.subscriptions, 2);

  t.client({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'listen-2' } });
  t.client(sent[3]);
  const [tooMany, ...rest] = (await t.server()) as any[];
  assert.equal(rest, [], 'no acknowledgement for a refused stream');
  assert.equal(
    [tooMany.id, tooMany.error.code, tooMany.error.message],
    ['listen-4', -32602, 'Invalid params: a listen stream lists at most 2 resourceSubscriptions; got 3'],
  );
  assert.is(t.engine.subscriptions, 2, 'the refused stream holds nothing');

  t.client({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'listen-1' } });
  await t.server();
  assert.is(t.engine.subscriptions, 0);
  assert.equal(forgotten, ['test://a', 'test://b']);
  await validated(out, sent);
});

const asking = (): ServerDefinition => ({
  info: { name: 'test-server', version: '1.0.0' },
  tools: [
    {
      name: 'create',
      description: 'Creates a thing.',
      input: z.object({ title: z.string(), size: z.optional(z.int()) }),
      ask: { message: 'What should it be called?', fields: { title: { type: 'string', title: 'Title' } } },
      run: (args) => ({ content: [{ type: 'text', text: `created ${args.title} (${args.size ?? 'no size'})` }] }),
    },
  ],
});
const ELICITING = { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };

test('MRTR: a missing argument becomes a form; the retry with the answer and the requestState completes', async () => {
  const t = transcript(asking());
  const sent: unknown[] = [req(1, 'tools/call', { name: 'create', arguments: { size: 3 } }, ELICITING)];
  t.client(sent[0]);
  const [first] = (await t.server()) as any[];
  assert.is(first.result.resultType, 'input_required');
  assert.is('ttlMs' in first.result, false, 'interim results are not cacheable');
  const form = first.result.inputRequests.missing_arguments;
  assert.equal(form, {
    method: 'elicitation/create',
    params: {
      mode: 'form',
      message: 'What should it be called?',
      requestedSchema: { type: 'object', properties: { title: { type: 'string', title: 'Title' } }, required: ['title'] },
    },
  });

  const retry = req(
    2,
    'tools/call',
    {
      name: 'create',
      arguments: { size: 3 },
      requestState: first.result.requestState,
      inputResponses: { missing_arguments: { action: 'accept', content: { title: 'Widget', size: 999 } } },
    },
    ELICITING,
  );
  sent.push(retry);
  t.client(retry);
  const [second] = (await t.server()) as any[];
  assert.equal(
    second.result.content,
    [{ type: 'text', text: 'created Widget (3)' }],
    'only asked-for fields are taken from the answer',
  );
  assert.is(second.result.resultType, 'complete');
  await validated([first, second], sent);

  t.client(retry);
  const [replayed] = (await t.server()) as any[];
  assert.is(replayed.error.code, -32602, 'a requestState is good for one retry');
});

test('MRTR: altered state is refused, a declined form ends the call, and no form without the capability', async () => {
  const t = transcript(asking());
  t.client(req(1, 'tools/call', { name: 'create', arguments: {} }, ELICITING));
  const [first] = (await t.server()) as any[];
  const state: string = first.result.requestState;
  const altered = state.slice(0, 5) + (state[5] === 'A' ? 'B' : 'A') + state.slice(6);
  t.client(
    req(
      2,
      'tools/call',
      {
        name: 'create',
        requestState: altered,
        inputResponses: { missing_arguments: { action: 'accept', content: { title: 'x' } } },
      },
      ELICITING,
    ),
  );
  t.client(
    req(
      3,
      'tools/call',
      { name: 'create', requestState: state, inputResponses: { missing_arguments: { action: 'decline' } } },
      ELICITING,
    ),
  );
  t.client(req(4, 'tools/call', { name: 'create', arguments: {} }));
  const [tampered, declined, plain] = ((await t.server()) as any[]).sort((a, b) => a.id - b.id);
  assert.is(tampered.error.code, -32602);
  assert.is(declined.result.isError, true);
  assert.match(declined.result.content[0].text, /decline/);
  assert.is(plain.result.isError, true, "without elicitation in the request's capabilities: an ordinary tool error");
});

test('-32021: a retry still waiting for its form, from a request without form elicitation', async () => {
  const t = transcript(asking());
  t.client(req(1, 'tools/call', { name: 'create', arguments: {} }, ELICITING));
  const [first] = (await t.server()) as any[];
  const sent = [req(2, 'tools/call', { name: 'create', arguments: {}, requestState: first.result.requestState })];
  t.client(sent[0]);
  const out = (await t.server()) as any[];
  assert.equal(out[0].error.code, -32021);
  assert.equal(out[0].error.data, { requiredCapabilities: { elicitation: { form: {} } } });
  await validated(out, sent);
});

test('open listen streams do not count as work in flight; a cancelled id can be used again at once', async () => {
  const t = transcript(definition());
  t.client(req(5, 'subscriptions/listen', { notifications: {} }));
  await t.server();
  assert.is(t.session.inFlight, 0, 'a stream is not work the reader must wait for');
  t.client({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5 } });
  t.client(req(5, 'subscriptions/listen', { notifications: {} }));
  const out = (await t.server()) as any[];
  assert.equal(
    out.map((m) => m.method ?? m.error?.code),
    ['notifications/subscriptions/acknowledged'],
    'id 5 is free after its cancel',
  );
});

test('a malformed form answer is -32602 and does not use up the requestState', async () => {
  const t = transcript(asking());
  t.client(req(1, 'tools/call', { name: 'create', arguments: {} }, ELICITING));
  const [first] = (await t.server()) as any[];
  const state = first.result.requestState;
  t.client(req(2, 'tools/call', { name: 'create', requestState: state, inputResponses: { missing_arguments: null } }, ELICITING));
  const [bad] = (await t.server()) as any[];
  assert.is(bad.error.code, -32602);
  t.client(
    req(
      3,
      'tools/call',
      {
        name: 'create',
        requestState: state,
        inputResponses: { missing_arguments: { action: 'accept', content: { title: 'ok' } } },
      },
      ELICITING,
    ),
  );
  const [good] = (await t.server()) as any[];
  assert.equal(good.result.content, [{ type: 'text', text: 'created ok (no size)' }]);
});

test('in an initialized handshake session, server/discover without _meta does not exist (-32601)', async () => {
  const t = transcript(definition());
  await t.initialize();
  t.client({ jsonrpc: '2.0', id: 7, method: 'server/discover' });
  const [answer] = (await t.server()) as any[];
  assert.is(answer.error.code, -32601);
});

test('the handshake era on the same engine is unchanged', async () => {
  const t = transcript(definition());
  const init = (await t.initialize('2025-11-25')) as any;
  assert.is(init.result.protocolVersion, '2025-11-25');
  t.client({ jsonrpc: '2.0', id: 9, method: 'tools/list' });
  const [list] = (await t.server()) as any[];
  assert.is('resultType' in list.result, false);
});

test.run();
