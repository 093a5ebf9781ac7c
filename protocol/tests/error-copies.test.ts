// A program bundled in pieces holds a copy of protocol/errors.ts in each piece (the tracker's
// companions, lib/companion-bundle.ts), and `instanceof` knows only its own copy's RpcError. An
// RpcError thrown by another copy must still reach the client with its own code and message,
// not as the engine's "Internal error" (protocol/errors.ts, isRpcError).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ServerDefinition } from '../definition.js';
import * as z from 'zod/mini';
import { createServer } from '../server.js';
import { RpcError, isRpcError } from '../errors.js';
import { transcript } from './harness.js';

// The query string makes the file load again: another module, another class.
const ANOTHER_COPY = '../errors.js?another-copy';
const anotherCopy = async () => (await import(ANOTHER_COPY)) as typeof import('../errors.js');

test('an RpcError of another copy is not an instance of this one, and isRpcError knows it all the same', async () => {
  const another = await anotherCopy();
  const foreign = new another.RpcError(-32602, 'bad uri');
  assert.not.ok(foreign instanceof RpcError, 'the test needs two copies of the class');
  assert.ok(isRpcError(foreign));
  assert.not.ok(isRpcError(new Error('plain')));
  assert.not.ok(isRpcError({ code: -32602, message: 'looks like one' }));
});

test('resources/read: an RpcError thrown by another copy is answered with its code, message and data', async () => {
  const another = await anotherCopy();
  const definition: ServerDefinition = {
    info: { name: 'test-server', version: '1.0.0' },
    resources: [
      {
        uri: 'test://companion',
        name: 'companion',
        read: () => {
          throw new another.RpcError(another.ErrorCode.InternalError, 'needs mcp-tracker-reads.cjs beside this file', {
            file: 'x',
          });
        },
      },
    ],
  };
  const t = transcript(definition);
  await t.initialize();
  t.client({ jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'test://companion' } });
  const [answer] = (await t.server()) as any[];
  assert.equal(answer.error, { code: -32603, message: 'needs mcp-tracker-reads.cjs beside this file', data: { file: 'x' } });
});

test('tools/call: a tool that throws an RpcError reports its sentence, without a stack; a bug reports its stack', async () => {
  const another = await anotherCopy();
  const reports: string[] = [];
  const server = createServer(
    {
      info: { name: 'test-server', version: '1.0.0' },
      tools: [
        {
          name: 'needs_companion',
          description: 'Throws what a seam throws when its file is missing.',
          input: z.object({}),
          run: () => {
            throw new another.RpcError(another.ErrorCode.InternalError, 'needs mcp-tracker-reads.cjs beside this file');
          },
        },
        {
          name: 'buggy',
          description: 'Throws what a bug throws.',
          input: z.object({}),
          run: () => {
            throw new TypeError('x is undefined');
          },
        },
      ],
    },
    (detail) => reports.push(detail),
  );
  const t = transcript(server);
  await t.initialize();
  t.client({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'needs_companion', arguments: {} } });
  t.client({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'buggy', arguments: {} } });
  const answers = (await t.server()) as any[];
  assert.is(answers[0].result.isError, true);
  assert.match(answers[0].result.content[0].text, 'needs mcp-tracker-reads.cjs beside this file');
  assert.equal(reports[0], 'tool needs_companion failed: needs mcp-tracker-reads.cjs beside this file');
  assert.match(reports[1] ?? '', /^tool buggy failed: TypeError: x is undefined\n\s+at /);
});

test.run();
