// Tool results as sent: the JSON structuredResult made is reused only while it is still true.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as z from 'zod/mini';
import type { ServerDefinition } from '../definition.js';
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

test.run();
