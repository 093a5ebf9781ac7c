// Asking the client in both eras, as transcripts: a handshake-era client gets a real
// elicitation/create, sampling/createMessage or roots/list request and answers it; a
// 2026-07-28 client gets input_required and calls again with the answer. Every message the
// server sends is checked against the official schema of the revision in use.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as z from 'zod/mini';
import { SchemaValidator } from '../../spec-tests/runner/schema-validator.js';
import { builtinSchemas } from '../../spec-tests/runner/builtin.js';
import type { JsonObject, JsonValue } from '../../spec-tests/runner/json-types.js';
import type { ServerDefinition } from '../definition.js';
import { type Transcript, transcript } from './harness.js';

const schemas = SchemaValidator.load(builtinSchemas());

const SUMMARY_REQUEST = {
  messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'Sum up: 3 of 5 done.' } }],
  maxTokens: 100,
  includeContext: 'none' as const,
};

const definition = (): ServerDefinition => ({
  info: { name: 'test-server', version: '1.0.0' },
  tools: [
    {
      name: 'create',
      description: 'Creates a thing; asks for its title when the call leaves it out.',
      input: z.object({ title: z.string(), size: z.optional(z.int()) }),
      ask: { message: 'What should it be called?', fields: { title: { type: 'string', title: 'Title' } } },
      run: (args) => ({ content: [{ type: 'text', text: `created ${args.title}` }] }),
    },
    {
      name: 'summarize',
      description: "Asks the host's model, or counts by itself.",
      input: z.object({}),
      async run(_args, context) {
        const sampled = await context.sample(SUMMARY_REQUEST);
        const text = sampled.ok ? `model ${sampled.value.model}: ${sampled.value.text}` : `computed (${sampled.why})`;
        return { content: [{ type: 'text', text }] };
      },
    },
    {
      name: 'where',
      description: 'Lists the roots.',
      input: z.object({}),
      async run(_args, context) {
        const roots = await context.roots();
        return {
          content: [{ type: 'text', text: roots.ok ? roots.value.map((r) => r.uri).join(' ') : `no roots (${roots.why})` }],
        };
      },
    },
    {
      name: 'confirm',
      description: 'Asks yes or no, waiting 50 ms at most.',
      input: z.object({}),
      async run(_args, context) {
        const answer = await context.elicit(
          {
            message: 'Sure?',
            requestedSchema: { type: 'object', properties: { sure: { type: 'boolean' } }, required: ['sure'] },
          },
          { timeoutMs: 50 },
        );
        return {
          content: [{ type: 'text', text: answer.ok ? `sure: ${answer.value.sure}` : `${answer.why}: ${answer.detail}` }],
        };
      },
    },
    {
      name: 'plan',
      description: 'Asks the user, then the model: two questions, two rounds in 2026-07-28.',
      input: z.object({}),
      async run(_args, context) {
        const form = {
          message: 'Goal?',
          requestedSchema: { type: 'object' as const, properties: { goal: { type: 'string' as const } } },
        };
        const goal = await context.elicit(form, { key: 'goal' });
        const plan = await context.sample(SUMMARY_REQUEST, { key: 'plan' });
        const text = `${goal.ok ? goal.value.goal : goal.why} / ${plan.ok ? plan.value.text : plan.why}`;
        return { content: [{ type: 'text', text }] };
      },
    },
    {
      name: 'brief',
      description: 'Asks the user, the model and the roots together: one round in 2026-07-28.',
      input: z.object({}),
      async run(_args, context) {
        const { goal, plan, where } = await context.askAll({
          goal: { elicit: GOAL_FORM },
          plan: { sample: SUMMARY_REQUEST },
          where: { roots: true },
        });
        const text = [
          goal.ok ? goal.value.goal : goal.why,
          plan.ok ? plan.value.text : plan.why,
          where.ok ? where.value.map((root) => root.uri).join(' ') : where.why,
        ].join(' / ');
        return { content: [{ type: 'text', text }] };
      },
    },
    {
      name: 'draft',
      description: "Needs the host's model, and says so instead of falling back.",
      input: z.object({}),
      async run(_args, context) {
        context.requireClientCapability('sampling');
        const plan = await context.sample(SUMMARY_REQUEST);
        return { content: [{ type: 'text', text: plan.ok ? plan.value.text : plan.why }] };
      },
    },
  ],
  prompts: [
    {
      name: 'kickoff',
      description: 'Asks the user for the goal, then opens the conversation with it.',
      arguments: [{ name: 'team', required: true }],
      async get({ team }, context) {
        const goal = await context.elicit(GOAL_FORM, { key: 'goal' });
        const text = `${team}: ${goal.ok ? goal.value.goal : `no goal (${goal.why})`}`;
        return { messages: [{ role: 'user', content: { type: 'text', text } }] };
      },
    },
  ],
});

const GOAL_FORM = {
  message: 'Goal?',
  requestedSchema: { type: 'object' as const, properties: { goal: { type: 'string' as const } }, required: ['goal'] },
};

const call = (id: unknown, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});
const answer = (id: unknown, result: unknown) => ({ jsonrpc: '2.0', id, result });

/** A handshake session on `version` with `capabilities`, checking what the server sends against that revision's schema. */
async function session(version: string, capabilities: Record<string, unknown>) {
  const t = transcript(definition());
  await t.initialize(version, capabilities);
  const sent = new Map<unknown, JsonObject>();
  const seen: unknown[] = [];
  return {
    t,
    send(message: any) {
      if (message.method) sent.set(message.id, message);
      t.client(message);
    },
    async server(done?: (messages: any[]) => boolean): Promise<any[]> {
      const out = (await (done ? t.until(done) : t.server())) as any[];
      seen.push(...out);
      return out;
    },
    async schemaProblems(): Promise<string[]> {
      const validator = await schemas;
      return seen.flatMap((m) => validator.validate(m as JsonValue, version, (id) => sent.get(id)).map((v) => v.problem));
    },
  };
}

// ---- elicitation, handshake era --------------------------------------------------------------

for (const version of ['2025-06-18', '2025-11-25']) {
  test(`${version}: create without a title sends elicitation/create; the accepted answer completes the call`, async () => {
    const s = await session(version, { elicitation: {} });
    s.send(call(1, 'create', { size: 3 }));
    const [asked] = await s.server();
    const form = {
      message: 'What should it be called?',
      requestedSchema: { type: 'object', properties: { title: { type: 'string', title: 'Title' } }, required: ['title'] },
    };
    // `mode` exists from 2025-11-25 (https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation).
    assert.equal(asked, {
      jsonrpc: '2.0',
      id: asked.id,
      method: 'elicitation/create',
      params: version === '2025-11-25' ? { mode: 'form', ...form } : form,
    });
    s.send(answer(asked.id, { action: 'accept', content: { title: 'Widget', size: 999 } }));
    const [done] = await s.server((out) => out.length > 0);
    assert.equal(done.result, { content: [{ type: 'text', text: 'created Widget' }] });
    assert.equal(await s.schemaProblems(), []);
  });
}

test('2025-11-25: a declined or cancelled form is a tool result that says so; the tool is not run', async () => {
  for (const action of ['decline', 'cancel']) {
    const s = await session('2025-11-25', { elicitation: { form: {} } });
    s.send(call(1, 'create'));
    const [asked] = await s.server();
    s.send(answer(asked.id, { action }));
    const [done] = await s.server((out) => out.length > 0);
    assert.equal(done.result, {
      content: [{ type: 'text', text: `The user chose not to answer (${action}); create was not run.` }],
      isError: true,
    });
  }
});

test('2025-11-25: an error answer, or an answer that leaves the title out, is the ordinary tool error, with the reason', async () => {
  const s = await session('2025-11-25', { elicitation: {} });
  s.send(call(1, 'create'));
  const [asked] = await s.server();
  s.send({ jsonrpc: '2.0', id: asked.id, error: { code: -1, message: 'User closed the dialog' } });
  const [failed] = await s.server((out) => out.length > 0);
  assert.is(failed.result.isError, true);
  assert.match(
    failed.result.content[0].text,
    /^Invalid arguments for create: title.*asking the user failed: User closed the dialog/,
  );

  s.send(call(2, 'create'));
  const [again] = await s.server();
  s.send(answer(again.id, { action: 'accept', content: { title: 42 } }));
  const [unfilled] = await s.server((out) => out.length > 0);
  assert.match(unfilled.result.content[0].text, /^Invalid arguments for create: title.*does not fit the question/);
  assert.equal(await s.schemaProblems(), []);
});

test('2025-11-25: an unanswered form times out; the client is told to stop, the tool reports it', async () => {
  const s = await session('2025-11-25', { elicitation: {} });
  s.send(call(1, 'confirm'));
  const [asked] = await s.server();
  assert.is(asked.method, 'elicitation/create');
  const out = await s.server((messages) => messages.some((m) => m.id === 1));
  assert.equal(out[0], {
    jsonrpc: '2.0',
    method: 'notifications/cancelled',
    params: { requestId: asked.id, reason: 'elicitation/create timed out' },
  });
  assert.equal(out[1].result.content[0].text, 'failed: elicitation/create got no response within 50 ms');
});

test('2025-11-25: cancelling the call while its form is open cancels the form too, and answers nothing; a late answer is ignored', async () => {
  const s = await session('2025-11-25', { elicitation: {} });
  s.send(call(1, 'create'));
  const [asked] = await s.server();
  assert.is(asked.method, 'elicitation/create');
  s.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
  assert.equal(
    await s.server(),
    [
      {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: asked.id, reason: 'elicitation/create: the request it was made for was cancelled' },
      },
    ],
    'the form is withdrawn; no response for the cancelled call',
  );
  s.send(answer(asked.id, { action: 'accept', content: { title: 'Too late' } }));
  assert.equal(await s.server(), []);
  assert.is(s.t.session.inFlight, 0);
});

test('a client without the elicitation capability is never asked: the missing title is a tool error', async () => {
  const s = await session('2025-11-25', { sampling: {} });
  s.send(call(1, 'create'));
  const [only] = await s.server();
  assert.is(only.id, 1, 'no request to the client');
  assert.match(only.result.content[0].text, /^Invalid arguments for create: title/);
  assert.not.match(only.result.content[0].text, /asking the user failed/);
});

for (const version of ['2024-11-05', '2025-03-26']) {
  test(`${version}: no elicitation in this revision, whatever the client declares`, async () => {
    const s = await session(version, { elicitation: {} });
    s.send(call(1, 'create'));
    s.send(call(2, 'confirm'));
    // Answers to requests in flight together may come in any order (JSON-RPC 2.0): read them by id.
    const out = (await s.server()).sort((a, b) => a.id - b.id);
    assert.equal(
      out.map((m) => m.id),
      [1, 2],
      'two answers, no request',
    );
    assert.is(out[0].result.isError, true);
    assert.equal(out[1].result.content[0].text, `unsupported: ${version} has no elicitation`);
  });
}

// ---- sampling and roots, handshake era -------------------------------------------------------

test('2025-11-25: sampling/createMessage to a client that offers sampling; its text comes back to the tool', async () => {
  const s = await session('2025-11-25', { sampling: {} });
  s.send(call(1, 'summarize'));
  const [asked] = await s.server();
  assert.equal(asked.method, 'sampling/createMessage');
  assert.equal(asked.params, SUMMARY_REQUEST);
  s.send(
    answer(asked.id, { role: 'assistant', content: { type: 'text', text: 'On track.' }, model: 'm-1', stopReason: 'endTurn' }),
  );
  const [done] = await s.server((out) => out.length > 0);
  assert.equal(done.result.content[0].text, 'model m-1: On track.');
  assert.equal(await s.schemaProblems(), []);
});

test('sampling falls back: no capability, an error answer (the user refused), a reply without text', async () => {
  const without = await session('2025-11-25', {});
  without.send(call(1, 'summarize'));
  assert.equal((await without.server())[0].result.content[0].text, 'computed (unsupported)');

  const s = await session('2025-06-18', { sampling: {} });
  s.send(call(1, 'summarize'));
  const [asked] = await s.server();
  s.send({ jsonrpc: '2.0', id: asked.id, error: { code: -1, message: 'User rejected sampling request' } });
  assert.equal((await s.server((out) => out.length > 0))[0].result.content[0].text, 'computed (failed)');
  s.send(call(2, 'summarize'));
  const [again] = await s.server();
  s.send(answer(again.id, { role: 'assistant', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' }, model: 'm' }));
  assert.equal((await s.server((out) => out.length > 0))[0].result.content[0].text, 'computed (failed)');
});

test('2024-11-05: roots/list to a client that declared roots', async () => {
  const s = await session('2024-11-05', { roots: { listChanged: true } });
  s.send(call(1, 'where'));
  const [asked] = await s.server();
  assert.equal({ method: asked.method, params: asked.params }, { method: 'roots/list', params: {} });
  s.send(answer(asked.id, { roots: [{ uri: 'file:///work', name: 'work' }, { uri: 'file:///tmp' }] }));
  assert.equal((await s.server((out) => out.length > 0))[0].result.content[0].text, 'file:///work file:///tmp');
  assert.equal(await s.schemaProblems(), []);
});

test('2025-11-25: askAll asks its questions one after the other; each answer goes back to its key', async () => {
  const s = await session('2025-11-25', { elicitation: {}, sampling: {}, roots: {} });
  s.send(call(1, 'brief'));
  const [form] = await s.server();
  assert.is(form.method, 'elicitation/create', 'the first question alone');
  s.send(answer(form.id, { action: 'accept', content: { goal: 'ship' } }));
  const [sampling] = await s.server((out) => out.length > 0);
  assert.equal(
    { method: sampling.method, params: sampling.params },
    { method: 'sampling/createMessage', params: SUMMARY_REQUEST },
  );
  s.send(answer(sampling.id, { role: 'assistant', content: { type: 'text', text: 'step 1' }, model: 'm' }));
  const [roots] = await s.server((out) => out.length > 0);
  assert.is(roots.method, 'roots/list');
  s.send(answer(roots.id, { roots: [{ uri: 'file:///work' }] }));
  const [done] = await s.server((out) => out.length > 0);
  assert.equal(done.result.content, [{ type: 'text', text: 'ship / step 1 / file:///work' }]);
  assert.equal(await s.schemaProblems(), []);
});

test('2025-11-25: a prompt asks the user with elicitation/create, and builds its messages from the answer', async () => {
  const s = await session('2025-11-25', { elicitation: {} });
  s.send({ jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name: 'kickoff', arguments: { team: 'core' } } });
  const [asked] = await s.server();
  assert.is(asked.method, 'elicitation/create');
  s.send(answer(asked.id, { action: 'accept', content: { goal: 'ship' } }));
  const [done] = await s.server((out) => out.length > 0);
  assert.equal(done.result.messages, [{ role: 'user', content: { type: 'text', text: 'core: ship' } }]);
  assert.equal(await s.schemaProblems(), []);
});

test('2025-11-25: a tool that requires a capability the client did not declare fails as a tool result', async () => {
  const s = await session('2025-11-25', {});
  s.send(call(1, 'draft'));
  const [only] = await s.server();
  assert.equal(only.result, {
    content: [{ type: 'text', text: 'Missing required client capability: sampling' }],
    isError: true,
  });
});

// ---- 2026-07-28: the same helpers through multi round-trip requests ---------------------------

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'test-client', version: '1' },
};
const stateless = (id: unknown, name: string, capabilities: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: {}, ...extra, _meta: { ...META, 'io.modelcontextprotocol/clientCapabilities': capabilities } },
});

async function exchange(t: Transcript, sent: unknown[], message: unknown): Promise<any> {
  sent.push(message);
  t.client(message);
  const [reply] = (await t.server()) as any[];
  return reply;
}

async function validated2026(messages: unknown[], sent: unknown[]): Promise<void> {
  const validator = await schemas;
  const byId = new Map((sent as JsonObject[]).map((m) => [m.id, m]));
  const problems = messages.flatMap((m) =>
    validator.validate(m as JsonValue, '2026-07-28', (id) => byId.get(id as never)).map((v) => v.problem),
  );
  assert.equal(problems, []);
}

test('2026-07-28: sampling through MRTR: input_required with the request, the retry carries the reply', async () => {
  const t = transcript(definition());
  const sent: unknown[] = [];
  const first = await exchange(t, sent, stateless(1, 'summarize', { sampling: {} }));
  assert.is(first.result.resultType, 'input_required');
  assert.equal(first.result.inputRequests, { sampling: { method: 'sampling/createMessage', params: SUMMARY_REQUEST } });
  const reply = { role: 'assistant', content: { type: 'text', text: 'On track.' }, model: 'm-1' };
  const second = await exchange(
    t,
    sent,
    stateless(2, 'summarize', { sampling: {} }, { requestState: first.result.requestState, inputResponses: { sampling: reply } }),
  );
  assert.equal(second.result.content, [{ type: 'text', text: 'model m-1: On track.' }]);
  assert.is(second.result.resultType, 'complete');

  const plain = await exchange(t, sent, stateless(3, 'summarize', {}));
  assert.equal(plain.result.content, [{ type: 'text', text: 'computed (unsupported)' }], 'no sampling in _meta: no question');
  await validated2026([first, second, plain], sent);
});

test('2026-07-28: two questions take two rounds; the sealed state keeps the first answer', async () => {
  const t = transcript(definition());
  const sent: unknown[] = [];
  const capabilities = { elicitation: {}, sampling: {} };
  const first = await exchange(t, sent, stateless(1, 'plan', capabilities));
  assert.equal(Object.keys(first.result.inputRequests), ['goal']);
  const goal = { goal: { action: 'accept', content: { goal: 'ship' } } };
  const second = await exchange(
    t,
    sent,
    stateless(2, 'plan', capabilities, { requestState: first.result.requestState, inputResponses: goal }),
  );
  assert.equal(Object.keys(second.result.inputRequests), ['plan']);
  const plan = { plan: { role: 'assistant', content: { type: 'text', text: 'step 1' }, model: 'm' } };
  const third = await exchange(
    t,
    sent,
    stateless(3, 'plan', capabilities, { requestState: second.result.requestState, inputResponses: plan }),
  );
  assert.equal(third.result.content, [{ type: 'text', text: 'ship / step 1' }]);
  await validated2026([first, second, third], sent);
});

test('2026-07-28: a retry without the sampling it was asked for, and without the answer, is -32021', async () => {
  const t = transcript(definition());
  const sent: unknown[] = [];
  const first = await exchange(t, sent, stateless(1, 'summarize', { sampling: {} }));
  const retry = await exchange(t, sent, stateless(2, 'summarize', {}, { requestState: first.result.requestState }));
  assert.equal(retry.error.code, -32021);
  assert.equal(retry.error.data, { requiredCapabilities: { sampling: {} } });
  await validated2026([retry], sent);
});

test('2026-07-28: askAll puts every question in one input_required; one retry with all the answers completes', async () => {
  const t = transcript(definition());
  const sent: unknown[] = [];
  const capabilities = { elicitation: {}, sampling: {}, roots: {} };
  const first = await exchange(t, sent, stateless(1, 'brief', capabilities));
  assert.equal(first.result.inputRequests, {
    goal: { method: 'elicitation/create', params: { mode: 'form', ...GOAL_FORM } },
    plan: { method: 'sampling/createMessage', params: SUMMARY_REQUEST },
    where: { method: 'roots/list', params: {} },
  });
  const answers = {
    goal: { action: 'accept', content: { goal: 'ship' } },
    plan: { role: 'assistant', content: { type: 'text', text: 'step 1' }, model: 'm' },
    where: { roots: [{ uri: 'file:///work' }] },
  };
  const second = await exchange(
    t,
    sent,
    stateless(2, 'brief', capabilities, { requestState: first.result.requestState, inputResponses: answers }),
  );
  assert.equal(second.result.content, [{ type: 'text', text: 'ship / step 1 / file:///work' }]);
  await validated2026([first, second], sent);
});

test('2026-07-28: askAll asks only what is still unanswered, and only what the request can answer', async () => {
  const t = transcript(definition());
  const sent: unknown[] = [];
  const capabilities = { elicitation: {}, sampling: {} };
  const first = await exchange(t, sent, stateless(1, 'brief', capabilities));
  assert.equal(Object.keys(first.result.inputRequests), ['goal', 'plan'], 'no roots in _meta: roots is not asked');
  const partial = { goal: { action: 'accept', content: { goal: 'ship' } } };
  const second = await exchange(
    t,
    sent,
    stateless(2, 'brief', capabilities, { requestState: first.result.requestState, inputResponses: partial }),
  );
  assert.equal(Object.keys(second.result.inputRequests), ['plan'], 'the answered question is not asked again');
  const rest = { plan: { role: 'assistant', content: { type: 'text', text: 'step 1' }, model: 'm' } };
  const third = await exchange(
    t,
    sent,
    stateless(3, 'brief', capabilities, { requestState: second.result.requestState, inputResponses: rest }),
  );
  assert.equal(third.result.content, [{ type: 'text', text: 'ship / step 1 / unsupported' }]);
  await validated2026([first, second, third], sent);
});

const promptGet = (id: unknown, capabilities: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'prompts/get',
  params: { name: 'kickoff', ...extra, _meta: { ...META, 'io.modelcontextprotocol/clientCapabilities': capabilities } },
});

test('2026-07-28: prompts/get answers input_required; the retry, without its arguments, completes from the sealed state', async () => {
  const t = transcript(definition());
  const sent: unknown[] = [];
  const first = await exchange(t, sent, promptGet(1, { elicitation: {} }, { arguments: { team: 'core' } }));
  assert.is(first.result.resultType, 'input_required');
  assert.equal(first.result.inputRequests, { goal: { method: 'elicitation/create', params: { mode: 'form', ...GOAL_FORM } } });
  const goal = { goal: { action: 'accept', content: { goal: 'ship' } } };
  const second = await exchange(
    t,
    sent,
    promptGet(2, { elicitation: {} }, { requestState: first.result.requestState, inputResponses: goal }),
  );
  assert.is(second.result.resultType, 'complete');
  assert.equal(second.result.messages, [{ role: 'user', content: { type: 'text', text: 'core: ship' } }]);
  await validated2026([first, second], sent);
});

test("2026-07-28: a requestState sealed for a prompt does not open a tool's retry", async () => {
  const t = transcript(definition());
  const sent: unknown[] = [];
  const first = await exchange(t, sent, promptGet(1, { elicitation: {} }, { arguments: { team: 'core' } }));
  const goal = { goal: { action: 'accept', content: { goal: 'ship' } } };
  const misused = await exchange(
    t,
    sent,
    stateless(2, 'plan', { elicitation: {} }, { requestState: first.result.requestState, inputResponses: goal }),
  );
  assert.is(misused.error.code, -32602);
  assert.match(misused.error.message, /requestState is not valid/);
});

test('2026-07-28: a tool that requires a capability the request did not declare is -32021, naming it', async () => {
  const t = transcript(definition());
  const sent: unknown[] = [];
  const refused = await exchange(t, sent, stateless(1, 'draft', { elicitation: {} }));
  assert.equal(refused.error, {
    code: -32021,
    message: 'Missing required client capability: sampling',
    data: { requiredCapabilities: { sampling: {} } },
  });
  const asked = await exchange(t, sent, stateless(2, 'draft', { sampling: {} }));
  assert.is(asked.result.resultType, 'input_required', 'declared: the tool goes on and asks');
  await validated2026([refused, asked], sent);
});

test.run();
