// The Streamable HTTP transport, as a client sees it: each status code, header check, session
// step and stream, in both eras, against an in-process server on a free port.
import { request as httpRequest } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as z from 'zod/mini';
import type { ServerDefinition } from '../definition.js';
import type { IncomingMessage } from 'node:http';
import { accessRules, refusal } from '../http-access.js';
import { type HttpEndpoint, serveHttp } from '../http.js';
import type { EncodeLine } from '../http-stream.js';
import { encodeLineBytes } from '../json-rpc.js';
import { type Server, createServer } from '../server.js';
import { JSON_AND_SSE, initializeRequest, openSession, postMessage, readEvents } from './http-client.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

function definition(): ServerDefinition {
  return {
    info: { name: 'http-test', version: '1.0.0' },
    tools: [
      {
        name: 'count',
        description: 'Counts to 2 with progress.',
        input: z.object({}),
        run(_args, context) {
          context.progress(1, 2);
          context.progress(2, 2);
          return { content: [{ type: 'text', text: 'counted' }] };
        },
      },
      {
        name: 'wait',
        description: 'Runs until cancelled.',
        input: z.object({}),
        run: (_args, context) =>
          new Promise((resolve) => {
            context.signal.addEventListener('abort', () => {
              cancelled += 1;
              resolve({ content: [{ type: 'text', text: 'stopped' }] });
            });
          }),
      },
      {
        name: 'draft',
        description: "Needs the host's model.",
        input: z.object({}),
        run(_args, context) {
          context.requireClientCapability('sampling');
          return { content: [{ type: 'text', text: 'drafted' }] };
        },
      },
    ],
    resources: [{ uri: 'test://a', name: 'a', read: () => [{ uri: 'test://a', text: 'A' }] }],
    subscriptions: true,
  };
}

let cancelled = 0;

async function endpoint(options: Partial<Parameters<typeof serveHttp>[1]> = {}): Promise<{ http: HttpEndpoint; server: Server }> {
  const server = createServer(definition());
  const http = await serveHttp(server, { port: 0, report: () => {}, keepAliveMs: 50, ...options });
  return { http, server };
}

const post = postMessage;
const initialize = initializeRequest;
const session = openSession;

/** Reads SSE events until `enough` holds for their data or the stream ends. */
const events = (response: Response, enough: (all: any[]) => boolean) =>
  readEvents(response, (seen) => enough(seen.map((event) => event.data)));

const stateless = (id: number, method: string, params: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method,
  params: { ...params, _meta: META },
});
const statelessHeaders = (method: string, name?: string): Record<string, string> => ({
  'MCP-Protocol-Version': '2026-07-28',
  'Mcp-Method': method,
  ...(name === undefined ? {} : { 'Mcp-Name': name }),
});

test("every answer and event goes out through the encodeLine the transport is given (the tracker passes the engine's)", async () => {
  // An encoder that marks what it encoded: a body or an event without the mark was encoded elsewhere.
  const marking: EncodeLine = (message) => encodeLineBytes(Array.isArray(message) ? message : { ...message, encodedBy: 'given' });
  const { http } = await endpoint({ encodeLine: marking });
  try {
    const id = await session(http.url);
    const listed = await post(http.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'Mcp-Session-Id': id });
    assert.is(((await listed.json()) as any).encodedBy, 'given', 'a JSON answer');
    const call = {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'count', arguments: {}, _meta: { progressToken: 'p' } },
    };
    const seen = await events(await post(http.url, call, { 'Mcp-Session-Id': id }), () => false);
    assert.equal(
      seen.map((event) => [event.data.method ?? event.data.id, event.data.encodedBy]),
      [
        ['notifications/progress', 'given'],
        ['notifications/progress', 'given'],
        [2, 'given'],
      ],
      'the events of an SSE stream',
    );
    const answer = await post(http.url, stateless(3, 'tools/list'), statelessHeaders('tools/list'));
    assert.is(((await answer.json()) as any).encodedBy, 'given', 'a 2026-07-28 answer');
  } finally {
    await http.close(100);
  }
});

test('handshake era: initialize issues a session id; later requests need it (400 without, 404 unknown); DELETE ends it', async () => {
  const { http } = await endpoint();
  try {
    const id = await session(http.url);
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const listed = await post(http.url, list, { 'Mcp-Session-Id': id });
    assert.is(listed.status, 200);
    assert.is(listed.headers.get('content-type'), 'application/json');
    assert.is(((await listed.json()) as any).result.tools.length, 3);
    const sessionless = await post(http.url, list);
    assert.is(sessionless.status, 400, 'no session id');
    assert.is(((await sessionless.json()) as any).id, 1, 'answered with the request id: send initialize, or carry the _meta');
    const discover = await post(http.url, { jsonrpc: '2.0', id: 9, method: 'server/discover' });
    assert.equal([discover.status, ((await discover.json()) as any).error.code], [400, -32602], 'discover without _meta');
    const stranger = await post(http.url, list, { 'Mcp-Session-Id': 'f'.repeat(32) });
    assert.equal([stranger.status, ((await stranger.json()) as any).id], [404, 1], 'unknown session, the request named');
    const unknown = await post(http.url, list, { 'Mcp-Session-Id': id, 'MCP-Protocol-Version': '1999-01-01' });
    assert.is(unknown.status, 400, 'an MCP-Protocol-Version we do not speak');
    assert.is(((await unknown.json()) as any).id, 1, 'the refusal names the request it read');
    assert.is((await post(http.url, list, { 'Mcp-Session-Id': id, 'MCP-Protocol-Version': '2025-11-25' })).status, 200);
    const other = await post(http.url, list, { 'Mcp-Session-Id': id, 'MCP-Protocol-Version': '2025-03-26' });
    assert.is(
      other.status,
      200,
      'another version we speak: the client SHOULD send the negotiated one, 400 is for unsupported ones',
    );
    assert.is(http.sessions, 1);
    assert.is((await fetch(http.url, { method: 'DELETE', headers: { 'Mcp-Session-Id': id } })).status, 200);
    assert.is(http.sessions, 0);
    const ended = await post(http.url, list, { 'Mcp-Session-Id': id });
    assert.equal([ended.status, ((await ended.json()) as any).id], [404, 1], 'an ended session, the request named');
  } finally {
    await http.close(100);
  }
});

test('handshake era: an instance name starts every session id it issues (a load balancer routes on it); a bad name is refused', async () => {
  const { http } = await endpoint({ instanceName: 'tracker-b' });
  try {
    const id = await session(http.url);
    assert.match(id, /^tracker-b\.[0-9a-f]{32}$/);
    assert.match(id, /^[\x21-\x7e]+$/, 'visible ASCII only');
    const listed = await post(http.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'Mcp-Session-Id': id });
    assert.is(listed.status, 200);
  } finally {
    await http.close(100);
  }
  for (const bad of ['', 'a.b', 'x'.repeat(33), 'caf\u00e9', 'a b']) {
    await endpoint({ instanceName: bad }).then(
      () => assert.unreachable(`accepted ${JSON.stringify(bad)}`),
      (error: Error) => assert.match(error.message, /an instance name is 1-32 of/),
    );
  }
});

test('handshake era: an answer without a readable id comes back on its own POST, never on the GET stream', async () => {
  const { http } = await endpoint();
  try {
    const id = await session(http.url);
    const stream = await fetch(http.url, { headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': id } });
    const batch = await post(http.url, [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }], { 'Mcp-Session-Id': id });
    assert.equal(((await batch.json()) as any).error.code, -32600, 'no batches in 2025-11-25: refused on the POST');
    const invalid = await post(http.url, { jsonrpc: '2.0', id: 5 }, { 'Mcp-Session-Id': id });
    assert.equal(((await invalid.json()) as any).error.code, -32600, 'an invalid request object: refused on the POST');
    const reader = stream.body!.getReader();
    let text = '';
    const until = Date.now() + 200;
    while (Date.now() < until) {
      const chunk = await Promise.race([
        reader.read(),
        new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 50)),
      ]);
      if (chunk?.value) text += new TextDecoder().decode(chunk.value);
    }
    void reader.cancel();
    assert.not.match(text, /data: \S/, 'no message on the GET stream (keep-alive comments and the priming event only)');
  } finally {
    await http.close(100);
  }
});

test('handshake era: progress makes the answer an SSE stream that ends with the response', async () => {
  const { http } = await endpoint();
  try {
    const id = await session(http.url);
    const call = {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'count', arguments: {}, _meta: { progressToken: 'p' } },
    };
    const response = await post(http.url, call, { 'Mcp-Session-Id': id });
    assert.is(response.headers.get('content-type'), 'text/event-stream');
    assert.is(response.headers.get('x-accel-buffering'), 'no');
    const seen = await events(response, () => false);
    assert.equal(
      seen.map((event) => event.data.method ?? event.data.id),
      ['notifications/progress', 'notifications/progress', 7],
    );
  } finally {
    await http.close(100);
  }
});

test('handshake era: subscription updates on the GET stream, numbered; a reconnect with Last-Event-ID gets what it missed', async () => {
  const { http, server } = await endpoint();
  try {
    const id = await session(http.url);
    const subscribe = { jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: 'test://a' } };
    assert.is((await post(http.url, subscribe, { 'Mcp-Session-Id': id })).status, 200);
    const stream = await fetch(http.url, { headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': id } });
    assert.is(stream.status, 200);
    const second = await fetch(http.url, { headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': id } });
    assert.is(second.status, 409, 'one GET stream per session');
    server.resourceUpdated('test://a');
    const [first] = await events(stream, (all) => all.length >= 1);
    assert.equal(first!.data, { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'test://a' } });
    server.resourceUpdated('test://a'); // while no stream is open
    await new Promise((resolve) => setTimeout(resolve, 50));
    const resumed = await fetch(http.url, {
      headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': id, 'Last-Event-ID': first!.id! },
    });
    const replayed = await events(resumed, (all) => all.length >= 1);
    assert.is(first!.id, '0-1', 'the GET stream is stream 0 of the session');
    assert.is(replayed[0]!.id, '0-2', 'the event after the last one seen');
  } finally {
    await http.close(100);
  }
});

test('2026-07-28: no session; headers must match the body (-32020), unsupported version -32022, unknown method 404', async () => {
  const { http } = await endpoint();
  try {
    const ok = await post(http.url, stateless(1, 'tools/list'), statelessHeaders('tools/list'));
    assert.is(ok.status, 200);
    assert.is(ok.headers.get('mcp-session-id'), null, 'no session in 2026-07-28');
    assert.is(((await ok.json()) as any).result.resultType, 'complete');

    const missing = await post(http.url, stateless(2, 'tools/list'), { 'MCP-Protocol-Version': '2026-07-28' });
    assert.is(missing.status, 400);
    assert.is(((await missing.json()) as any).error.code, -32020, 'Mcp-Method missing');
    const call = stateless(3, 'tools/call', { name: 'count', arguments: {} });
    const wrongName = await post(http.url, call, statelessHeaders('tools/call', 'other'));
    assert.is(((await wrongName.json()) as any).error.code, -32020, 'Mcp-Name says another tool');
    const encoded = `=?base64?${Buffer.from('count').toString('base64')}?=`;
    assert.is((await post(http.url, call, statelessHeaders('tools/call', encoded))).status, 200, 'a Base64 sentinel is decoded');
    // The lone byte 0xFF is not UTF-8: decoded lossily it would be U+FFFD and match this body.
    const replacement = stateless(6, 'tools/call', { name: '\uFFFD', arguments: {} });
    const invalid = await post(http.url, replacement, statelessHeaders('tools/call', '=?base64?/w==?='));
    assert.equal([invalid.status, ((await invalid.json()) as any).error.code], [400, -32020], 'invalid UTF-8 in the sentinel');

    const future = {
      ...stateless(4, 'tools/list'),
      params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
    };
    const unsupported = await post(http.url, future, { ...statelessHeaders('tools/list'), 'MCP-Protocol-Version': '2099-01-01' });
    assert.is(unsupported.status, 400);
    assert.is(((await unsupported.json()) as any).error.code, -32022);
    const unknown = await post(http.url, stateless(5, 'no/such'), statelessHeaders('no/such'));
    assert.is(unknown.status, 404);
    assert.is(((await unknown.json()) as any).error.code, -32601);
    assert.is((await fetch(http.url)).status, 405, 'GET without a session');
    assert.is((await fetch(http.url, { method: 'DELETE' })).status, 405, 'DELETE without a session');
  } finally {
    await http.close(100);
  }
});

test('2026-07-28: a _meta without clientCapabilities and a missing client capability (-32021) are 400; other -32602 are 200', async () => {
  const { http } = await endpoint();
  try {
    const bare = {
      ...stateless(1, 'tools/list'),
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
    };
    const malformed = await post(http.url, bare, statelessHeaders('tools/list'));
    assert.is(malformed.status, 400, 'https://modelcontextprotocol.io/specification/2026-07-28/basic: MUST be 400');
    assert.equal(((await malformed.json()) as any).error.code, -32602);

    const draft = stateless(2, 'tools/call', { name: 'draft', arguments: {} });
    const refused = await post(http.url, draft, statelessHeaders('tools/call', 'draft'));
    assert.is(refused.status, 400);
    assert.equal(((await refused.json()) as any).error, {
      code: -32021,
      message: 'Missing required client capability: sampling',
      data: { requiredCapabilities: { sampling: {} } },
    });

    const unknownTool = stateless(3, 'tools/call', { name: 'nope', arguments: {} });
    const answered = await post(http.url, unknownTool, statelessHeaders('tools/call', 'nope'));
    assert.is(answered.status, 200, 'an unknown tool is an ordinary JSON-RPC error');
    assert.is(((await answered.json()) as any).error.code, -32602);
  } finally {
    await http.close(100);
  }
});

test('2026-07-28: closing the response stream cancels the request', async () => {
  const { http } = await endpoint();
  try {
    const before = cancelled;
    const abort = new AbortController();
    const call = stateless(1, 'tools/call', { name: 'wait', arguments: {} });
    const pending = post(http.url, call, statelessHeaders('tools/call', 'wait')).catch(() => undefined);
    const started = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 100));
    void fetch(http.url, {
      method: 'POST',
      headers: { ...JSON_AND_SSE, ...statelessHeaders('tools/call', 'wait') },
      body: JSON.stringify({ ...call, id: 2 }),
      signal: abort.signal,
    }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
    abort.abort();
    while (cancelled < before + 1 && Date.now() - started < 3000) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.is(cancelled, before + 1, 'the aborted request was cancelled, the other still runs');
    void pending;
  } finally {
    await http.close(100);
  }
});

test('2026-07-28: a listen stream gets a change made through another client', async () => {
  const { http, server } = await endpoint();
  try {
    const listen = stateless(1, 'subscriptions/listen', { notifications: { resourceSubscriptions: ['test://a'] } });
    const stream = await post(http.url, listen, statelessHeaders('subscriptions/listen'));
    assert.is(stream.headers.get('content-type'), 'text/event-stream');
    setTimeout(() => server.resourceUpdated('test://a'), 50);
    const seen = await events(stream, (all) => all.length >= 2);
    assert.equal(
      seen.map((event) => event.data.method),
      ['notifications/subscriptions/acknowledged', 'notifications/resources/updated'],
    );
  } finally {
    await http.close(100);
  }
});

test('access: a foreign Host or Origin is 403, a missing token 401; bodies: 413, 415, 406, -32700', async () => {
  const { http } = await endpoint({ authToken: 'secret', maxMessageBytes: 1000 });
  try {
    const auth = { Authorization: 'Bearer secret' };
    assert.is((await post(http.url, initialize())).status, 401);
    assert.is((await post(http.url, initialize(), { Authorization: 'Bearer wrong' })).status, 401);
    assert.is((await post(http.url, initialize(), { ...auth, Origin: 'https://evil.example' })).status, 403);
    assert.is((await post(http.url, initialize(), { ...auth, Origin: 'http://localhost:5173' })).status, 200);
    assert.is(await statusWithHost(http.url, 'evil.example'), 403, 'DNS rebinding: the Host is not ours');
    assert.is(await statusWithHost(http.url, 'localhost'), 401, 'a loopback name is ours (the token is still missing)');
    assert.is((await post(http.url, 'x'.repeat(2000), auth)).status, 413);
    assert.is((await post(http.url, initialize(), { ...auth, 'Content-Type': 'text/plain' })).status, 415);
    assert.is((await post(http.url, initialize(), { ...auth, Accept: 'text/html' })).status, 406);
    const bad = await post(http.url, '{"jsonrpc":', auth);
    assert.is(bad.status, 400);
    assert.equal(((await bad.json()) as any).error.code, -32700);
  } finally {
    await http.close(100);
  }
});

test('access: the Bearer scheme in any case (RFC 7235 2.1); a Host with a port that is not digits and an absolute-form target naming another host are refused', async () => {
  const { http } = await endpoint({ authToken: 'secret' });
  try {
    assert.is((await post(http.url, initialize(), { Authorization: 'bearer secret' })).status, 200, 'lower case');
    assert.is((await post(http.url, initialize(), { Authorization: 'BEARER secret' })).status, 200, 'upper case');
    assert.is((await post(http.url, initialize(), { Authorization: 'Basic secret' })).status, 401, 'another scheme');
    assert.is((await post(http.url, initialize(), { Authorization: 'bearersecret' })).status, 401, 'no space');
    const auth = { Authorization: 'Bearer secret' };
    assert.is(await statusWithHost(http.url, '127.0.0.1:evil', auth), 403, 'RFC 9110 7.2: port = *DIGIT');
    assert.is(await statusWithHost(http.url, '127.0.0.1:', auth), 200, 'an empty port is allowed');
    const port = new URL(http.url).port;
    const host = `127.0.0.1:${port}`;
    assert.is(await statusWithHost(http.url, host, auth, 'http://evil.example/mcp'), 403, 'RFC 9112 3.2.2: the target wins');
    assert.is(
      await statusWithHost(http.url, host, auth, `http://user@evil.example:${port}/mcp`),
      403,
      'userinfo is not the host',
    );
    assert.is(await statusWithHost(http.url, host, auth, `http://localhost:${port}/mcp`), 200, 'an absolute target naming us');
  } finally {
    await http.close(100);
  }
});

test('bodies: application/json only, in UTF-8; application/json-seq and another charset are 415', async () => {
  const { http } = await endpoint();
  try {
    const status = async (type: string) => (await post(http.url, initialize(), { 'Content-Type': type })).status;
    assert.is(await status('application/json-seq'), 415);
    assert.is(await status('application/json; charset=utf-16'), 415);
    assert.is(await status('application/jsonx'), 415);
    assert.is(await status('Application/JSON; Charset="UTF-8"'), 200, 'names are case-insensitive, values may be quoted');
    assert.is(await status('application/json;charset=utf-8'), 200);
  } finally {
    await http.close(100);
  }
});

/** fetch will not send a Host (or a request target) of our choosing; node:http will. */
function statusWithHost(url: string, host: string, headers: Record<string, string> = {}, path?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const options = { method: 'POST', headers: { ...JSON_AND_SSE, ...headers, Host: host }, ...(path ? { path } : {}) };
    const request = httpRequest(url, options, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
    request.end(JSON.stringify(initialize()));
  });
}

test('access: a wildcard bind (0.0.0.0, ::) takes any Host, since it serves names it cannot know; Origin and token still apply', () => {
  const asked = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;
  for (const host of ['0.0.0.0', '::']) {
    const rules = accessRules(host, ['https://app.example'], 'secret');
    const bearer = { authorization: 'Bearer secret' };
    assert.is(refusal(asked({ host: 'tracker.lan:3000', ...bearer }), rules), undefined, `${host}: the machine's name`);
    assert.is(refusal(asked({ host: '192.0.2.2:3000', ...bearer }), rules), undefined, `${host}: an address of the machine`);
    assert.is(refusal(asked({ host: 'tracker.lan:3000', origin: 'http://evil.example', ...bearer }), rules)?.status, 403);
    assert.is(refusal(asked({ host: 'tracker.lan:3000', origin: 'http://localhost:8080', ...bearer }), rules)?.status, 403);
    assert.is(refusal(asked({ host: 'tracker.lan:3000', origin: 'https://app.example', ...bearer }), rules), undefined);
    assert.is(refusal(asked({ host: 'tracker.lan:3000' }), rules)?.status, 401);
  }
  const named = accessRules('192.0.2.2', [], undefined);
  assert.is(refusal(asked({ host: 'tracker.lan:3000' }), named)?.status, 403, 'a named address still checks Host');
  assert.is(refusal(asked({ host: '192.0.2.2:3000' }), named), undefined);
});

test.run();
