// Tasks (the io.modelcontextprotocol/tasks extension of 2026-07-28, protocol/tasks.ts): a call
// answered with a handle, polled with tasks/get, answered with tasks/update, ended with
// tasks/cancel; only for requests that declare the extension; bounded in number and in time.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as z from 'zod/mini';
import type { ServerDefinition } from '../definition.js';
import { ErrorCode, RpcError } from '../errors.js';
import { type Server, createServer } from '../server.js';
import { TASKS_EXTENSION } from '../tasks.js';
import { ToolError } from '../tools.js';
import { transcript } from './harness.js';

/** Released by the test, so a task stays `working` exactly as long as the test wants. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

const definition = (release: Promise<void>, seen: { aborted?: boolean } = {}): ServerDefinition => ({
  info: { name: 'test-server', version: '1.0.0' },
  tools: [
    { name: 'now', description: 'At once.', input: z.object({}), run: () => ({ content: [{ type: 'text', text: 'now' }] }) },
    {
      name: 'slow',
      description: 'Waits for the test, reporting progress.',
      input: z.object({}),
      task: 'optional',
      async run(_args, context) {
        context.signal.addEventListener('abort', () => (seen.aborted = true));
        context.progress(1, 2, 'half way');
        await release;
        return { content: [{ type: 'text', text: 'done' }] };
      },
    },
    {
      name: 'only_task',
      description: 'Runs only as a task.',
      input: z.object({}),
      task: 'required',
      run: () => ({ content: [{ type: 'text', text: 'from a task' }] }),
    },
    {
      name: 'ask_two',
      description: 'Asks two questions at once.',
      input: z.object({}),
      task: 'optional',
      async run(_args, context) {
        const form = (field: string) => ({
          message: field,
          requestedSchema: { type: 'object' as const, properties: { [field]: { type: 'string' as const } }, required: [field] },
        });
        const [a, b] = await Promise.all([context.elicit(form('a')), context.elicit(form('b'))]);
        return { content: [{ type: 'text', text: `${a.ok && a.value.a} ${b.ok && b.value.b}` }] };
      },
    },
    {
      name: 'tool_fails',
      description: 'A tool error.',
      input: z.object({}),
      task: 'optional',
      run: () => {
        throw new ToolError('no luck');
      },
    },
    {
      name: 'protocol_fails',
      description: 'A JSON-RPC error.',
      input: z.object({}),
      task: 'optional',
      run: () => {
        throw new RpcError(ErrorCode.InternalError, 'Internal error: broken');
      },
    },
  ],
});

const WITH_TASKS: Record<string, unknown> = { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } };
const meta = (capabilities: Record<string, unknown>) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': capabilities,
});
const req = (id: unknown, method: string, params: Record<string, unknown> = {}, capabilities = WITH_TASKS) => ({
  jsonrpc: '2.0',
  id,
  method,
  params: { ...params, _meta: meta(capabilities) },
});
const call = (id: unknown, name: string, capabilities = WITH_TASKS) =>
  req(id, 'tools/call', { name, arguments: {} }, capabilities);

/** Sends one request and gives its answer's result or error, without the serverInfo `_meta`. */
async function ask(t: ReturnType<typeof transcript>, message: { id: unknown }): Promise<any> {
  t.client(message);
  const [answer] = (await t.until((out) => out.some((m) => m.id === message.id))) as any[];
  if (answer.result) delete answer.result._meta;
  return answer.error ? { error: answer.error } : answer.result;
}

/** Polls tasks/get until the task's status is `status`. */
async function pollUntil(t: ReturnType<typeof transcript>, taskId: string, status: string): Promise<any> {
  for (let i = 0; i < 200; i += 1) {
    const task = await ask(t, req(`poll-${i}`, 'tasks/get', { taskId }));
    if (task.status === status) return task;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`task ${taskId} never reached ${status}`);
}

test('server/discover names the extension under capabilities.extensions; initialize does not', async () => {
  const t = transcript(definition(new Promise(() => {})));
  const discovered = await ask(t, req(1, 'server/discover'));
  assert.equal(discovered.capabilities.extensions, { [TASKS_EXTENSION]: {} });
  const initialized = (await t.initialize('2025-11-25')) as any;
  assert.is(initialized.result.capabilities.extensions, undefined);
});

test('a call from a request that declares the extension: a flat CreateTaskResult, polled to its inlined result', async () => {
  const { open, opened } = gate();
  const t = transcript(definition(opened));
  const created = await ask(t, call(1, 'slow'));
  assert.equal(Object.keys(created).sort(), [
    'createdAt',
    'lastUpdatedAt',
    'pollIntervalMs',
    'resultType',
    'status',
    'statusMessage',
    'taskId',
    'ttlMs',
  ]);
  assert.is(created.resultType, 'task');
  assert.is(created.status, 'working');
  assert.match(created.taskId, /^[0-9a-f-]{36}$/);
  // Held before the answer left: a tasks/get at once finds it, with the progress as its statusMessage.
  const working = await ask(t, req(2, 'tasks/get', { taskId: created.taskId }));
  assert.equal(
    { resultType: working.resultType, status: working.status, statusMessage: working.statusMessage },
    { resultType: 'complete', status: 'working', statusMessage: 'half way' },
  );
  assert.is('result' in working, false);
  open();
  const completed = await pollUntil(t, created.taskId, 'completed');
  assert.equal(completed.result, { content: [{ type: 'text', text: 'done' }] });
  assert.is(completed.createdAt, created.createdAt);
});

test('a request without the extension: an optional task runs at once, a required one is -32021, tasks/* are -32021', async () => {
  const { open, opened } = gate();
  open();
  const t = transcript(definition(opened));
  const plain = { elicitation: {} };
  const atOnce = await ask(t, call(1, 'slow', plain));
  assert.equal(atOnce, { content: [{ type: 'text', text: 'done' }], resultType: 'complete' });
  const refused = await ask(t, call(2, 'only_task', plain));
  assert.equal(refused.error.code, -32021);
  assert.equal(refused.error.data, { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } });
  for (const method of ['tasks/get', 'tasks/cancel']) {
    assert.is((await ask(t, req(method, method, { taskId: 'x' }, plain))).error.code, -32021, method);
  }
  const update = await ask(t, req(3, 'tasks/update', { taskId: 'x', inputResponses: {} }, plain));
  assert.is(update.error.code, -32021);
});

test('questions park the task in input_required; tasks/update may answer some; unknown keys are ignored', async () => {
  const t = transcript(definition(new Promise(() => {})));
  const { taskId } = await ask(t, call(1, 'ask_two'));
  const parked = await pollUntil(t, taskId, 'input_required');
  assert.equal(Object.keys(parked.inputRequests), ['input-1', 'input-2']);
  assert.is(parked.inputRequests['input-1'].method, 'elicitation/create');
  const ack = await ask(
    t,
    req(2, 'tasks/update', {
      taskId,
      inputResponses: { 'input-1': { action: 'accept', content: { a: 'A' } }, 'never-asked': { action: 'accept' } },
    }),
  );
  assert.equal(ack, { resultType: 'complete' });
  const still = await ask(t, req(3, 'tasks/get', { taskId }));
  assert.is(still.status, 'input_required');
  assert.equal(Object.keys(still.inputRequests), ['input-2']);
  await ask(t, req(4, 'tasks/update', { taskId, inputResponses: { 'input-2': { action: 'accept', content: { b: 'B' } } } }));
  const completed = await pollUntil(t, taskId, 'completed');
  assert.equal(completed.result.content, [{ type: 'text', text: 'A B' }]);
});

test('tasks/cancel: the task is cancelled at once and its work aborted; a finished task stays as it was', async () => {
  const seen: { aborted?: boolean } = {};
  const t = transcript(definition(new Promise(() => {}), seen));
  const { taskId } = await ask(t, call(1, 'slow'));
  assert.equal(await ask(t, req(2, 'tasks/cancel', { taskId })), { resultType: 'complete' });
  const cancelled = await ask(t, req(3, 'tasks/get', { taskId }));
  assert.equal(
    { status: cancelled.status, statusMessage: cancelled.statusMessage },
    { status: 'cancelled', statusMessage: 'half way' },
  );
  assert.is(seen.aborted, true);
  const finished = (await ask(t, call(4, 'only_task'))).taskId;
  await pollUntil(t, finished, 'completed');
  assert.equal(await ask(t, req(5, 'tasks/cancel', { taskId: finished })), { resultType: 'complete' });
  assert.is((await ask(t, req(6, 'tasks/get', { taskId: finished }))).status, 'completed');
  assert.is((await ask(t, req(7, 'tasks/cancel', { taskId: 'unknown' }))).error.code, -32602);
});

test('unknown task ids are -32602; tasks/result and tasks/list do not exist (-32601)', async () => {
  const t = transcript(definition(new Promise(() => {})));
  assert.is((await ask(t, req(1, 'tasks/get', { taskId: 'no-such-task' }))).error.code, -32602);
  assert.is((await ask(t, req(2, 'tasks/update', { taskId: 'no-such-task', inputResponses: {} }))).error.code, -32602);
  assert.is((await ask(t, req(3, 'tasks/result', { taskId: 'no-such-task' }))).error.code, -32601);
  assert.is((await ask(t, req(4, 'tasks/list'))).error.code, -32601);
});

test('failed is for a JSON-RPC error only: a tool error completes with isError', async () => {
  const t = transcript(definition(new Promise(() => {})));
  const toolError = await pollUntil(t, (await ask(t, call(1, 'tool_fails'))).taskId, 'completed');
  assert.equal(toolError.result, { content: [{ type: 'text', text: 'no luck' }], isError: true });
  const protocolError = await pollUntil(t, (await ask(t, call(2, 'protocol_fails'))).taskId, 'failed');
  assert.equal(protocolError.error, { code: -32603, message: 'Internal error: broken' });
  assert.is('result' in protocolError, false);
});

test('a task outlives the connection that made it: another connection reads its result', async () => {
  const { open, opened } = gate();
  const server: Server = createServer(definition(opened));
  const first = transcript(server);
  const { taskId } = await ask(first, call(1, 'slow'));
  first.session.close();
  open();
  const second = transcript(server);
  const completed = await pollUntil(second, taskId, 'completed');
  assert.equal(completed.result.content, [{ type: 'text', text: 'done' }]);
});

test('a task answers only whoever started it: to another user, or to nobody, its id is unknown (Auth binding)', async () => {
  const { open, opened } = gate();
  const server: Server = createServer(definition(opened));
  const alice = transcript(server, { subject: 'alice' });
  const bob = transcript(server, { subject: 'bob' });
  const anonymous = transcript(server);
  const { taskId } = await ask(alice, call(1, 'slow'));
  for (const [stranger, name] of [
    [bob, 'bob'],
    [anonymous, 'an unauthenticated connection'],
  ] as const) {
    assert.is((await ask(stranger, req(2, 'tasks/get', { taskId }))).error?.code, -32602, `${name} reads it`);
    assert.is((await ask(stranger, req(3, 'tasks/cancel', { taskId }))).error?.code, -32602, `${name} cancels it`);
    assert.is((await ask(stranger, req(4, 'tasks/update', { taskId, inputResponses: {} }))).error?.code, -32602);
  }
  open();
  assert.is((await pollUntil(alice, taskId, 'completed')).status, 'completed', 'its owner still reads it, uncancelled');
});

test('bounds: past maxTasks an optional task runs at once and a required one is refused; a task is forgotten after ttlMs', async () => {
  const { open, opened } = gate();
  const t = transcript({ ...definition(opened), taskLimits: { maxTasks: 1, ttlMs: 60 } });
  const { taskId } = await ask(t, call(1, 'slow'));
  open();
  assert.equal((await ask(t, call(2, 'now'))).content, [{ type: 'text', text: 'now' }]);
  assert.equal(await ask(t, call(3, 'slow')), { content: [{ type: 'text', text: 'done' }], resultType: 'complete' });
  const refused = await ask(t, call(4, 'only_task'));
  assert.is(refused.isError, true);
  assert.match(refused.content[0].text, /as many tasks as it can/);
  assert.is((await ask(t, req(5, 'tasks/get', { taskId }))).status, 'completed');
  await new Promise((resolve) => setTimeout(resolve, 80));
  assert.is((await ask(t, req(6, 'tasks/get', { taskId }))).error.code, -32602);
  assert.is((await ask(t, call(7, 'only_task'))).resultType, 'task', 'a slot is free again');
});

test('the handshake era has no tasks: the tool runs at once, and tasks/get does not exist', async () => {
  const { open, opened } = gate();
  open();
  const t = transcript(definition(opened));
  await t.initialize('2025-11-25', { elicitation: {} });
  t.client({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'only_task', arguments: {} } });
  t.client({ jsonrpc: '2.0', id: 2, method: 'tasks/get', params: { taskId: 'x' } });
  const out = (await t.until((messages) => messages.length >= 2)) as any[];
  assert.equal(out.find((m) => m.id === 1).result, { content: [{ type: 'text', text: 'from a task' }] });
  assert.is(out.find((m) => m.id === 2).error.code, -32601);
});

test.run();
