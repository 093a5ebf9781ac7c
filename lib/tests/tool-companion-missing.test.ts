// A tracker tool that reaches a companion file missing beside the server answers the same
// whether the call is answered at once or run as a task: a result with `isError: true` and the
// sentence naming the file to copy (lib/tracker/domain-errors.ts), never a `failed` task.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as z from 'zod/mini';
import type { ServerDefinition } from '../../protocol/definition.js';
import { TASKS_EXTENSION } from '../../protocol/tasks.js';
import { transcript } from '../../protocol/tests/harness.js';
import { domain } from '../tracker/domain-errors.js';

// The query string makes the file load again: another copy of the class, as a companion holds.
const ANOTHER_COPY = '../companion-bundle.js?another-copy';
const anotherCopy = async () => (await import(ANOTHER_COPY)) as typeof import('../companion-bundle.js');

const SENTENCE = 'bulk_update_status needs mcp-tracker-writes.mjs beside this file: copy it from the same dist/ folder';

async function definition(): Promise<ServerDefinition> {
  const { CompanionMissing } = await anotherCopy();
  return {
    info: { name: 'companion-test', version: '1.0.0' },
    tools: [
      {
        name: 'bulk_update_status',
        description: 'Reaches the writes companion, which is missing.',
        input: z.strictObject({}),
        task: 'optional',
        run: () =>
          domain(async () => {
            throw new CompanionMissing(SENTENCE);
          }),
      },
    ],
  };
}

const request = (id: number, method: string, params: Record<string, unknown>, tasks: boolean) => ({
  jsonrpc: '2.0',
  id,
  method,
  params: {
    ...params,
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': tasks ? { extensions: { [TASKS_EXTENSION]: {} } } : {},
    },
  },
});

test('at once and as a task alike: isError with the sentence, not a failed task', async () => {
  const t = transcript(await definition());
  const ask = async (message: { id: number }) => {
    t.client(message);
    const answers = (await t.until((out) => out.some((m) => m.id === message.id))) as any[];
    return answers.find((m) => m.id === message.id);
  };
  const call = { name: 'bulk_update_status', arguments: {} };
  const atOnce = (await ask(request(1, 'tools/call', call, false))).result;
  assert.equal(atOnce.content, [{ type: 'text', text: SENTENCE }]);
  assert.is(atOnce.isError, true);

  const created = (await ask(request(2, 'tools/call', call, true))).result;
  assert.is(created.resultType, 'task');
  let task: any;
  for (let i = 0; i < 200 && (task?.status ?? 'working') === 'working'; i++) {
    task = (await ask(request(10 + i, 'tasks/get', { taskId: created.taskId }, true))).result;
    if (task.status === 'working') await new Promise((resolve) => setTimeout(resolve, 5));
  }
  assert.is(task.status, 'completed');
  assert.equal(task.result.content, atOnce.content);
  assert.is(task.result.isError, true);
});

test.run();
