// Errors that quote what the client sent quote a short excerpt of it and its size, never all
// of it: a 1 MB name must not come back as a 1 MB error (or twice, in message and data).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as z from 'zod/mini';
import type { ServerDefinition } from '../definition.js';
import { transcript } from './harness.js';

const definition: ServerDefinition = {
  info: { name: 'echo-bounds', version: '1.0.0' },
  tools: [{ name: 'add', description: 'Adds.', input: z.strictObject({ a: z.number() }), run: () => ({ content: [] }) }],
  resources: [{ uri: 'test://a', name: 'a', read: () => [{ uri: 'test://a', text: 'A' }] }],
  resourceTemplates: [
    {
      uriTemplate: 'test://item/{id}',
      name: 'item',
      read: () => null,
      complete: { id: () => ({ values: [] }) },
    },
  ],
  prompts: [{ name: 'hello', arguments: [], get: () => ({ messages: [] }) }],
};

const huge = (prefix: string) => prefix + 'x'.repeat(1_000_000);
const request = (id: number, method: string, params?: unknown) => ({ jsonrpc: '2.0', id, method, params });

/** Each answer is a short line (at most ten excerpts, twice) that says how big the quoted input was. */
function assertShort(answers: unknown[]): void {
  for (const answer of answers) {
    const line = JSON.stringify(answer);
    assert.ok(line.length < 8000, `${line.length} characters: ${line.slice(0, 300)}`);
    assert.ok(/… \(\d+ bytes\)/.test(line), `no size given: ${line.slice(0, 300)}`);
  }
}

test('unknown tool, prompt, resource, template and method: each quotes an excerpt', async () => {
  const t = transcript(definition);
  await t.initialize();
  t.client(request(1, 'tools/call', { name: huge('tool'), arguments: {} }));
  t.client(request(2, 'prompts/get', { name: huge('prompt') }));
  t.client(request(3, 'resources/read', { uri: huge('test://nothing/') }));
  t.client(request(4, 'resources/read', { uri: huge('test://item/') }));
  t.client(
    request(5, 'completion/complete', {
      ref: { type: 'ref/resource', uri: huge('test://') },
      argument: { name: 'id', value: '' },
    }),
  );
  t.client(request(6, 'method/' + huge('')));
  const answers = ((await t.until((messages) => messages.length === 6)) as any[]).sort((a, b) => a.id - b.id);
  assert.equal(
    answers.map((answer) => answer.id),
    [1, 2, 3, 4, 5, 6],
  );
  assert.ok(
    answers.every((answer) => answer.error),
    'all errors',
  );
  assertShort(answers);
  const expected = `test://nothing/${'x'.repeat(185)}… (1000015 bytes)`;
  assert.ok(answers[2].error.data.uri === expected, 'data.uri is the excerpt');
});

test('unknown prompt arguments and unknown keys in tool arguments: a few of them, each cut short', async () => {
  const t = transcript(definition);
  await t.initialize();
  const many = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`${i}-${'k'.repeat(1000)}`, '1']));
  t.client(request(1, 'prompts/get', { name: 'hello', arguments: many }));
  t.client(request(2, 'tools/call', { name: 'add', arguments: { a: 1, ...many } }));
  // Two requests in flight at once: their answers may come in either order.
  const [prompt, tool] = ((await t.until((messages) => messages.length === 2)) as any[]).sort((a, b) => a.id - b.id);
  assertShort([prompt]);
  const text = tool.result.content[0].text as string;
  assert.ok(text.length < 8000, `the tool error is ${text.length} characters`);
});

test('an unknown method before initialize, and an id already in use, quote an excerpt', async () => {
  const t = transcript({
    ...definition,
    tools: [
      {
        name: 'wait',
        description: 'Waits a moment.',
        input: z.object({}),
        run: () => new Promise((resolve) => setTimeout(() => resolve({ content: [] }), 50)),
      },
    ],
  });
  t.client(request(1, 'tools/list' + huge('')));
  assertShort(await t.server());
  await t.initialize();
  const id = huge('id');
  t.client({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'wait', arguments: {} } });
  t.client({ jsonrpc: '2.0', id, method: 'ping' });
  const [inUse] = (await t.server()) as any[];
  assertShort([{ error: inUse.error }]);
  await t.until((messages) => messages.length > 0);
});

test('a 2026-07-28 request with an unsupported version quotes an excerpt of it', async () => {
  const t = transcript(definition);
  const meta = { 'io.modelcontextprotocol/protocolVersion': huge('2099-'), 'io.modelcontextprotocol/clientCapabilities': {} };
  t.client(request(1, 'server/discover', { _meta: meta }));
  const answers = await t.server();
  assert.is((answers[0] as any).error?.code, -32022);
  assertShort(answers);
});

test.run();
