// 2026-07-28 over Streamable HTTP: arguments mirrored into Mcp-Param-* headers (x-mcp-header),
// and tasks, whose requests carry the task id in Mcp-Name, made by one POST and read by others.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as z from 'zod/mini';
import type { ServerDefinition } from '../definition.js';
import { type HttpEndpoint, serveHttp } from '../http.js';
import { createServer } from '../server.js';
import { TASKS_EXTENSION } from '../tasks.js';
import { openSession, postMessage } from './http-client.js';

let release: () => void = () => {};

const definition = (): ServerDefinition => ({
  info: { name: 'http-tasks-test', version: '1.0.0' },
  tools: [
    {
      name: 'route',
      description: 'Echoes its arguments; three of them travel in headers too.',
      input: z.object({
        region: z.string(),
        shard: z.optional(z.int()),
        dry: z.optional(z.boolean()),
        note: z.optional(z.string()),
      }),
      headers: { region: 'Region', shard: 'Shard', dry: 'Dry-Run' },
      run: (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] }),
    },
    {
      name: 'slow',
      description: 'Finishes when the test says so.',
      input: z.object({}),
      task: 'optional',
      run: () => new Promise((resolve) => (release = () => resolve({ content: [{ type: 'text', text: 'done' }] }))),
    },
  ],
});

async function endpoint(): Promise<HttpEndpoint> {
  return serveHttp(createServer(definition()), { port: 0, report: () => {}, keepAliveMs: 50 });
}

const CAPABILITIES = { extensions: { [TASKS_EXTENSION]: {} } };
const message = (id: number, method: string, params: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method,
  params: {
    ...params,
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': CAPABILITIES,
    },
  },
});
const headers = (method: string, name: string, more: Record<string, string> = {}) => ({
  'MCP-Protocol-Version': '2026-07-28',
  'Mcp-Method': method,
  'Mcp-Name': name,
  ...more,
});

/** POSTs a tools/call of `route` with these arguments and these Mcp-Param headers: [status, error code or text]. */
async function route(url: string, args: Record<string, unknown>, params: Record<string, string>): Promise<[number, unknown]> {
  const response = await postMessage(
    url,
    message(1, 'tools/call', { name: 'route', arguments: args }),
    headers('tools/call', 'route', params),
  );
  const body = (await response.json()) as any;
  return [response.status, body.error ? body.error.code : body.result.content[0].text];
}

test('x-mcp-header: tools/list marks the mirrored arguments in 2026-07-28 only', async () => {
  const http = await endpoint();
  try {
    const listed = await postMessage(http.url, message(1, 'tools/list', {}), {
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/list',
    });
    const schema = ((await listed.json()) as any).result.tools[0].inputSchema;
    assert.equal(
      [schema.properties.region['x-mcp-header'], schema.properties.shard['x-mcp-header'], schema.properties.dry['x-mcp-header']],
      ['Region', 'Shard', 'Dry-Run'],
    );
    assert.is(schema.properties.note['x-mcp-header'], undefined);
    const session = await openSession(http.url);
    const old = await postMessage(http.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'Mcp-Session-Id': session });
    assert.is(JSON.stringify(await old.json()).includes('x-mcp-header'), false, 'not in 2025-11-25');
  } finally {
    await http.close(100);
  }
});

test('Mcp-Param-*: each header says what its argument says, or the call is refused with 400 and -32020', async () => {
  const http = await endpoint();
  try {
    const url = http.url;
    const base64 = (text: string) => `=?base64?${Buffer.from(text).toString('base64')}?=`;
    assert.equal(await route(url, { region: 'eu' }, { 'Mcp-Param-Region': 'eu' }), [200, '{"region":"eu"}']);
    assert.equal((await route(url, { region: 'Zürich' }, { 'Mcp-Param-Region': base64('Zürich') }))[0], 200, 'Base64, decoded');
    const all = { region: 'eu', shard: 42, dry: false };
    const allHeaders = { 'Mcp-Param-Region': 'eu', 'Mcp-Param-Shard': '42.0', 'mcp-param-dry-run': 'false' };
    assert.is((await route(url, all, allHeaders))[0], 200, 'an integer as a number, a boolean as its word, names in any case');
    assert.equal(await route(url, { region: 'eu' }, { 'Mcp-Param-Region': 'us' }), [400, -32020], 'another value');
    assert.equal(await route(url, { region: 'eu' }, {}), [400, -32020], 'the value is in the body, the header is missing');
    assert.equal(
      await route(url, { region: 'eu' }, { 'Mcp-Param-Region': 'eu', 'Mcp-Param-Shard': '1' }),
      [400, -32020],
      'a header without its argument',
    );
    assert.equal(
      await route(url, { region: 'Hello' }, { 'Mcp-Param-Region': '=?base64?SGVsbG8?=' }),
      [400, -32020],
      'bad padding',
    );
    assert.equal(
      await route(url, { region: 'eu', dry: true }, { 'Mcp-Param-Region': 'eu', 'Mcp-Param-Dry-Run': 'TRUE' }),
      [400, -32020],
    );
    assert.equal(
      await route(url, { region: '=?base64?x' }, { 'Mcp-Param-Region': '=?base64?x' }),
      [200, '{"region":"=?base64?x"}'],
      'no suffix: literal',
    );
  } finally {
    await http.close(100);
  }
});

test('a tool whose x-mcp-header breaks the spec is refused when it is defined', () => {
  const tool = (headers: Record<string, string>) => ({
    info: { name: 'bad', version: '1' },
    tools: [
      {
        name: 't',
        description: 't',
        input: z.object({ a: z.string(), b: z.number(), c: z.string() }),
        headers,
        run: () => ({ content: [] }),
      },
    ],
  });
  assert.throws(() => createServer(tool({ a: 'Has Space' })), /not a token/);
  assert.throws(() => createServer(tool({ a: 'X', c: 'x' })), /given twice/);
  assert.throws(() => createServer(tool({ b: 'B' })), /no top-level string, integer or boolean/);
  assert.throws(() => createServer(tool({ missing: 'M' })), /no top-level/);
});

test('a task over HTTP: made by one POST, polled by others with Mcp-Name = taskId, its result read after the first connection is gone', async () => {
  const http = await endpoint();
  try {
    const created = await postMessage(
      http.url,
      message(1, 'tools/call', { name: 'slow', arguments: {} }),
      headers('tools/call', 'slow'),
    );
    const { taskId, resultType } = ((await created.json()) as any).result;
    assert.is(resultType, 'task');
    const get = (id: number, name = taskId) =>
      postMessage(http.url, message(id, 'tasks/get', { taskId }), headers('tasks/get', name)).then(async (r) => [
        r.status,
        (await r.json()) as any,
      ]);
    const [status, working] = await get(2);
    assert.equal([status, working.result.status], [200, 'working']);
    const [refused, mismatch] = await get(3, 'another-task');
    assert.equal([refused, mismatch.error.code], [400, -32020], 'Mcp-Name says another task');
    release();
    let done: any;
    for (let i = 0; i < 100 && done?.result.status !== 'completed'; i += 1) done = (await get(10 + i))[1];
    assert.equal(done.result.result, { content: [{ type: 'text', text: 'done' }] });
  } finally {
    await http.close(100);
  }
});

test.run();
