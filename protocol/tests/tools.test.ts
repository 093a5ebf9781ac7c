// Tool results as sent: the JSON structuredResult made is reused only while it is still true.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as z from 'zod/mini';
import type { ServerDefinition } from '../definition.js';
import { encodeLine } from '../json-rpc.js';
import { createServer } from '../server.js';
import { type ToolResult, structuredResult } from '../tools.js';
import { transcript } from './harness.js';

function serverWith(run: () => ToolResult): ServerDefinition {
  return {
    info: { name: 'tools-test', version: '1.0.0' },
    tools: [{ name: 'probe', description: 'Returns what the test says.', input: z.object({}), run }],
  };
}

const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'probe', arguments: {} } });

test('a result that keeps its data object but changes it and its text sends the new data', async () => {
  const shared: Record<string, unknown> = { count: 0 };
  const first = structuredResult(shared);
  let next: ToolResult = first;
  const t = transcript(serverWith(() => next));
  await t.initialize('2025-06-18');
  t.client(call(1));
  const [a] = (await t.server()) as { result: ToolResult }[];
  assert.equal(a!.result.structuredContent, { count: 0 });
  shared.count = 43;
  next = { content: [{ type: 'text', text: 'count 43' }], structuredContent: shared };
  t.client(call(2));
  const [b] = (await t.server()) as { result: ToolResult }[];
  assert.equal(b!.result.structuredContent, { count: 43 });
  assert.equal(b!.result.content, [{ type: 'text', text: 'count 43' }]);
});

test('a text block with annotations keeps them when its JSON is reused', async () => {
  const result = structuredResult({ a: 1 });
  const block = result.content[0]!;
  result.content[0] = { ...block, annotations: { audience: ['user'] } } as typeof block;
  const t = transcript(serverWith(() => result));
  await t.initialize('2025-06-18');
  t.client(call(1));
  const [answer] = (await t.server()) as { result: ToolResult }[];
  assert.equal(answer!.result.content, [{ type: 'text', text: '{"a":1}', annotations: { audience: ['user'] } }]);
  assert.equal(answer!.result.structuredContent, { a: 1 });
});

test('before 2025-06-18 the same result has no structuredContent', async () => {
  const t = transcript(serverWith(() => structuredResult({ a: 1 })));
  await t.initialize('2025-03-26');
  t.client(call(1));
  const [answer] = (await t.server()) as { result: Record<string, unknown> }[];
  assert.equal(answer!.result, { content: [{ type: 'text', text: '{"a":1}' }] });
});

/** The lines a server writes for `messages`, exactly as encodeLine makes them. */
async function linesFor(run: () => ToolResult, messages: unknown[]): Promise<string[]> {
  const lines: string[] = [];
  const session = createServer(serverWith(run)).connect({
    send: (message) => lines.push(encodeLine(message)),
    report: () => {},
    settled: () => {},
  });
  for (const message of messages) session.receive({ kind: 'message', text: JSON.stringify(message) });
  await new Promise((resolve) => setImmediate(resolve));
  return lines;
}

const initialize = (version: string) => [
  {
    jsonrpc: '2.0',
    id: 'init',
    method: 'initialize',
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 't', version: '1' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
];

/** The line JSON.stringify makes of a message, with U+2028 and U+2029 escaped as the server escapes them. */
const lineOf = (message: unknown) =>
  `${JSON.stringify(message)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')}\n`;

test('the line of a structuredResult is the one JSON.stringify makes of the result as shaped, in every era', async () => {
  const data = { title: 'a "quoted"\nline \u2028 and \u2029', list: [1, { b: null }] };
  const json = JSON.stringify(data);
  const make = (): ToolResult => {
    const result = structuredResult(data, [
      { type: 'resource_link', uri: 'test://a', name: 'a' },
      { type: 'text', text: 'more', annotations: { audience: ['user'], lastModified: '2026-01-01T00:00:00Z' } },
    ]);
    result.content[0] = { type: 'text', text: json, annotations: { priority: 1, lastModified: '2026-01-01T00:00:00Z' } };
    result.isError = true;
    return result;
  };
  // The same result twice: the second answer is the JSON kept from the first.
  const twice = [call(1), call(2)];

  const current = await linesFor(make, [...initialize('2025-06-18'), ...twice]);
  const link = { type: 'resource_link', uri: 'test://a', name: 'a' };
  const annotations = { priority: 1, lastModified: '2026-01-01T00:00:00Z' };
  const more = { type: 'text', text: 'more', annotations: { audience: ['user'], lastModified: '2026-01-01T00:00:00Z' } };
  const result = { content: [{ type: 'text', text: json, annotations }, link, more], structuredContent: data, isError: true };
  assert.equal(
    current.slice(1),
    [1, 2].map((id) => lineOf({ jsonrpc: '2.0', id, result })),
  );

  const older = await linesFor(make, [...initialize('2025-03-26'), ...twice]);
  const olderResult = {
    content: [
      { type: 'text', text: json, annotations: { priority: 1 } },
      { type: 'text', text: 'a: test://a' },
      { ...more, annotations: { audience: ['user'] } },
    ],
    isError: true,
  };
  assert.equal(
    older.slice(1),
    [1, 2].map((id) => lineOf({ jsonrpc: '2.0', id, result: olderResult })),
  );

  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
  };
  const stateless = await linesFor(make, [{ ...call(3), params: { name: 'probe', arguments: {}, _meta: meta } }]);
  const serverInfo = { 'io.modelcontextprotocol/serverInfo': { name: 'tools-test', version: '1.0.0' } };
  assert.equal(stateless, [lineOf({ jsonrpc: '2.0', id: 3, result: { ...result, resultType: 'complete', _meta: serverInfo } })]);
});

test('a handler may pass context.progress on by itself', async () => {
  const t = transcript({
    info: { name: 'tools-test', version: '1.0.0' },
    tools: [
      {
        name: 'steps',
        description: 'Reports progress through a detached callback.',
        input: z.object({}),
        run: (_args, context) => {
          const { progress } = context;
          [1, 2].forEach((done) => progress(done, 2));
          return { content: [{ type: 'text', text: 'done' }] };
        },
      },
    ],
  });
  await t.initialize('2025-06-18');
  t.client({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'steps', arguments: {}, _meta: { progressToken: 'p' } },
  });
  const messages = (await t.server()) as { method?: string; params?: { progress: number } }[];
  assert.equal(
    messages.filter((m) => m.method === 'notifications/progress').map((m) => m.params?.progress),
    [1, 2],
  );
});

/** tools/list in a session of `version`: 2026-07-28 has no initialize, its version rides in _meta. */
async function listedSchemas(
  version: string,
  input: z.ZodMiniObject = z.object({ text: z.string() }),
): Promise<Record<string, unknown>> {
  const t = transcript({
    info: { name: 'tools-test', version: '1.0.0' },
    tools: [
      {
        name: 'echo',
        description: 'Says the text back.',
        input,
        output: z.object({ text: z.string() }),
        run: (args) => structuredResult({ text: String(args.text) }),
      },
    ],
  });
  const meta = {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
  };
  if (version === '2026-07-28') t.client({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } });
  else {
    await t.initialize(version);
    t.client({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  }
  const [answer] = (await t.server()) as { result: { tools: Record<string, unknown>[] } }[];
  const { inputSchema, outputSchema } = answer!.result.tools[0]!;
  return { inputSchema, outputSchema };
}

test('tool schemas name the 2020-12 dialect in $schema from 2025-11-25, and name none before', async () => {
  // 2025-11-25 basic "JSON Schema Usage": 2020-12 is the default dialect, and a schema MAY say its dialect.
  const properties = { text: { type: 'string' } };
  const dialect = 'https://json-schema.org/draft/2020-12/schema';
  const named = { $schema: dialect, type: 'object', properties, required: ['text'] };
  for (const version of ['2025-11-25', '2026-07-28']) {
    const { inputSchema, outputSchema } = await listedSchemas(version);
    assert.equal(inputSchema, named, `${version} inputSchema`);
    assert.equal(outputSchema, named, `${version} outputSchema`);
    assert.is(Object.keys(inputSchema as object)[0], '$schema', `${version}: $schema first, where a reader looks for it`);
  }
  // Before 2025-11-25 the dialect is unspecified: draft-07 form, and no $schema that an old validator could refuse.
  const unnamed = { type: 'object', properties, required: ['text'] };
  assert.equal(await listedSchemas('2025-06-18'), { inputSchema: unnamed, outputSchema: unnamed });
  assert.equal(await listedSchemas('2024-11-05'), { inputSchema: unnamed, outputSchema: undefined });
});

test('a tool whose schema names its own dialect keeps it', async () => {
  const draft07 = 'http://json-schema.org/draft-07/schema#';
  const input = z.object({ text: z.string() }).check(z.meta({ $schema: draft07 }));
  const { inputSchema } = await listedSchemas('2025-11-25', input);
  assert.is((inputSchema as { $schema: string }).$schema, draft07);
});

test.run();
