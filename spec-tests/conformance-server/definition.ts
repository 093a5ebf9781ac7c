// The conformance server: exactly the surface the official suite's server scenarios call
// (@modelcontextprotocol/conformance, src/scenarios/server/), on our engine. Each tool,
// resource and prompt answers what its scenario's description asks for, word for word where
// the scenario compares text. The tracker has none of these names; this server exists only to
// be measured (spec-tests/conformance/run.mjs runs the suite against it).
//
// Nothing is faked: where a scenario needs something of the engine (several questions in one
// MRTR round, a prompt that asks, a refusal with -32021), the engine has it, and the tool or
// prompt here only uses it.

import * as z from 'zod/mini';
import type { ServerDefinition } from '../../protocol/definition.js';
import type { RequestContext } from '../../protocol/context.js';
import type { PromptDefinition } from '../../protocol/prompts.js';
import type { ResourceDefinition, ResourceTemplateDefinition } from '../../protocol/resources.js';
import type { Asked } from '../../protocol/asking.js';
import { type ToolDefinition, ToolError, type ToolResult } from '../../protocol/tools.js';
import { taskTools } from './task-tools.js';

/** A 1x1 red PNG and a minimal WAV, as the scenarios' reference server sends them. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV_BASE64 = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';

const NO_ARGUMENTS = z.object({});
const text = (value: string): ToolResult => ({ content: [{ type: 'text', text: value }] });
const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/** A tool without arguments whose result never changes. */
const fixed = (name: string, description: string, result: ToolResult): ToolDefinition => ({
  name,
  description,
  input: NO_ARGUMENTS,
  run: () => result,
});

const contentTools: ToolDefinition[] = [
  fixed('test_simple_text', 'Returns one text block.', text('This is a simple text response for testing.')),
  fixed('test_image_content', 'Returns one image block (a 1x1 PNG).', {
    content: [{ type: 'image', data: PNG_BASE64, mimeType: 'image/png' }],
  }),
  fixed('test_audio_content', 'Returns one audio block (a minimal WAV).', {
    content: [{ type: 'audio', data: WAV_BASE64, mimeType: 'audio/wav' }],
  }),
  fixed('test_embedded_resource', 'Returns one embedded text resource.', {
    content: [
      {
        type: 'resource',
        resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' },
      },
    ],
  }),
  fixed('test_multiple_content_types', 'Returns a text, an image and an embedded resource.', {
    content: [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: PNG_BASE64, mimeType: 'image/png' },
      {
        type: 'resource',
        resource: {
          uri: 'test://mixed-content-resource',
          mimeType: 'application/json',
          text: JSON.stringify({ test: 'data', value: 123 }),
        },
      },
    ],
  }),
  {
    name: 'test_error_handling',
    description: 'Always fails, as a tool result with isError.',
    input: NO_ARGUMENTS,
    run() {
      throw new ToolError('This tool intentionally returns an error for testing');
    },
  },
];

/** Tools that send notifications while they run: logs, progress. */
const notifyingTools: ToolDefinition[] = [
  {
    name: 'test_tool_with_logging',
    description: 'Logs three info messages, 50 ms apart, while it runs.',
    input: NO_ARGUMENTS,
    async run(_args, context) {
      context.log('info', 'Tool execution started');
      await pause(50, context.signal);
      context.log('info', 'Tool processing data');
      await pause(50, context.signal);
      context.log('info', 'Tool execution completed');
      return text('Tool with logging executed successfully');
    },
  },
  {
    name: 'test_tool_with_progress',
    description: 'Reports progress 0, 50 and 100 of 100, 50 ms apart, when the call asks for progress.',
    input: NO_ARGUMENTS,
    async run(_args, context) {
      for (const step of [0, 50, 100]) {
        if (step > 0) await pause(50, context.signal);
        context.progress(step, 100, `Completed step ${step} of 100`);
      }
      return text('Tool with progress executed successfully');
    },
  },
  // 2026-07-28: a request's logs go out only when its _meta names a log level
  // (https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/logging); the engine enforces that.
  {
    name: 'test_logging_tool',
    description: 'Logs one info message (sent only when the request asked for logs).',
    input: NO_ARGUMENTS,
    run(_args, context) {
      context.log('info', 'Diagnostic trace logging activated');
      return text('Logging evaluated');
    },
  },
  // 2026-07-28: what a request's response stream carries besides its answer are notifications, never requests.
  {
    name: 'test_streaming_elicitation',
    description: 'Reports progress once, then answers.',
    input: NO_ARGUMENTS,
    run(_args, context) {
      context.progress(50, 100);
      return text('Streaming complete');
    },
  },
];

/**
 * Sends a request to the client in the handshake era (https://modelcontextprotocol.io/specification/2025-11-25/client/sampling,
 * https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation): only when the client declared the
 * capability, which the spec requires of the server.
 */
async function askClient(context: RequestContext, capability: 'sampling' | 'elicitation', method: string, params: unknown) {
  if (context.client.capabilities[capability] === undefined) {
    throw new ToolError(`The client did not declare the ${capability} capability, so ${method} cannot be sent.`);
  }
  return (await context.request(method, params)) as Record<string, any>;
}

const elicitationResult = (prefix: string, answer: Record<string, any>) =>
  text(`${prefix}: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`);

const askingTools: ToolDefinition[] = [
  {
    name: 'test_sampling',
    description: 'Asks the client for an LLM completion of the prompt (sampling/createMessage).',
    input: z.object({ prompt: z.string().check(z.describe('The prompt to send to the LLM')) }),
    async run({ prompt }, context) {
      const answer = await askClient(context, 'sampling', 'sampling/createMessage', {
        messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
        maxTokens: 100,
      });
      return text(`LLM response: ${answer.content?.text ?? 'No response'}`);
    },
  },
  {
    name: 'test_elicitation',
    description: 'Asks the user for a username and an email (elicitation/create).',
    input: z.object({ message: z.string().check(z.describe('The message to show the user')) }),
    async run({ message }, context) {
      const answer = await askClient(context, 'elicitation', 'elicitation/create', {
        message,
        requestedSchema: {
          type: 'object',
          properties: {
            username: { type: 'string', description: "User's response" },
            email: { type: 'string', description: "User's email address" },
          },
          required: ['username', 'email'],
        },
      });
      return elicitationResult('User response', answer);
    },
  },
  {
    name: 'test_elicitation_sep1034_defaults',
    description: 'Asks with a default value for each primitive type (SEP-1034).',
    input: NO_ARGUMENTS,
    async run(_args, context) {
      const answer = await askClient(context, 'elicitation', 'elicitation/create', {
        message: 'Please review and update the form fields with defaults',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'User name', default: 'John Doe' },
            age: { type: 'integer', description: 'User age', default: 30 },
            score: { type: 'number', description: 'User score', default: 95.5 },
            status: {
              type: 'string',
              description: 'User status',
              enum: ['active', 'inactive', 'pending'],
              default: 'active',
            },
            verified: { type: 'boolean', description: 'Verification status', default: true },
          },
          required: [],
        },
      });
      return elicitationResult('Elicitation completed', answer);
    },
  },
  {
    name: 'test_elicitation_sep1330_enums',
    description: 'Asks with each of the five enum forms (SEP-1330).',
    input: NO_ARGUMENTS,
    async run(_args, context) {
      const titled = (prefix: string) => [
        { const: 'value1', title: `First ${prefix}` },
        { const: 'value2', title: `Second ${prefix}` },
        { const: 'value3', title: `Third ${prefix}` },
      ];
      const options = ['option1', 'option2', 'option3'];
      const answer = await askClient(context, 'elicitation', 'elicitation/create', {
        message: 'Please select options from the enum fields',
        requestedSchema: {
          type: 'object',
          properties: {
            untitledSingle: { type: 'string', description: 'Select one option', enum: options },
            titledSingle: { type: 'string', description: 'Select one option with titles', oneOf: titled('Option') },
            legacyEnum: {
              type: 'string',
              description: 'Select one option (legacy)',
              enum: ['opt1', 'opt2', 'opt3'],
              enumNames: ['Option One', 'Option Two', 'Option Three'],
            },
            untitledMulti: {
              type: 'array',
              description: 'Select multiple options',
              minItems: 1,
              maxItems: 3,
              items: { type: 'string', enum: options },
            },
            titledMulti: {
              type: 'array',
              description: 'Select multiple options with titles',
              minItems: 1,
              maxItems: 3,
              items: { anyOf: titled('Choice') },
            },
          },
          required: [],
        },
      });
      return elicitationResult('Elicitation completed', answer);
    },
  },
];

/**
 * Tools that ask through the engine's asking helpers (protocol/asking.ts): in 2026-07-28 each
 * question is an input request of a multi round-trip request
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr), under the key
 * the scenario names where it names one; the tool runs again from the start on each retry, and
 * the engine seals and checks the requestState. In the handshake era the same calls are real
 * requests to the client.
 */
const nameForm = (message: string, field: string) => ({
  message,
  requestedSchema: { type: 'object' as const, properties: { [field]: { type: 'string' as const } }, required: [field] },
});
const CONFIRM_FORM = {
  message: 'Please confirm',
  requestedSchema: { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] },
};

/** The answer, or the reason there is none as the tool's error. */
function answered<T>(asked: Asked<T>): T {
  if (!asked.ok) throw new ToolError(`No answer (${asked.why}): ${asked.detail}`);
  return asked.value;
}

const inputRequiredTools: ToolDefinition[] = [
  {
    name: 'test_input_required_result_elicitation',
    description: "Asks the user's name (elicitation, key user_name), then greets them.",
    input: NO_ARGUMENTS,
    async run(_args, context) {
      const { name } = answered(await context.elicit(nameForm('What is your name?', 'name'), { key: 'user_name' }));
      return text(`Hello, ${String(name)}!`);
    },
  },
  {
    name: 'test_input_required_result_sampling',
    description: "Asks the host's model a question (sampling), then reports its answer.",
    input: NO_ARGUMENTS,
    async run(_args, context) {
      const question = { role: 'user' as const, content: { type: 'text' as const, text: 'What is the capital of France?' } };
      const reply = answered(await context.sample({ messages: [question], maxTokens: 100 }, { key: 'capital_question' }));
      return text(`Sampling result: ${reply.text}`);
    },
  },
  {
    name: 'test_input_required_result_list_roots',
    description: "Asks for the client's roots (roots/list), then counts them.",
    input: NO_ARGUMENTS,
    async run(_args, context) {
      const roots = answered(await context.roots({ key: 'client_roots' }));
      return text(`Found ${roots.length} root(s)`);
    },
  },
  {
    name: 'test_input_required_result_request_state',
    description: 'Asks for a confirmation; the retry carries the sealed requestState back.',
    input: NO_ARGUMENTS,
    async run(_args, context) {
      const { ok } = answered(await context.elicit(CONFIRM_FORM, { key: 'confirm' }));
      return text(`state-ok: requestState validated (ok=${String(ok)})`);
    },
  },
  {
    name: 'test_input_required_result_tampered_state',
    description: 'Asks for a confirmation; a retry whose requestState was altered is refused.',
    input: NO_ARGUMENTS,
    async run(_args, context) {
      answered(await context.elicit(CONFIRM_FORM, { key: 'confirm' }));
      return text('integrity-ok: state verified');
    },
  },
  {
    name: 'test_input_required_result_multi_round',
    description: 'Asks two questions, one round each.',
    input: NO_ARGUMENTS,
    async run(_args, context) {
      const { name } = answered(await context.elicit(nameForm('Step 1: What is your name?', 'name'), { key: 'step1' }));
      const { color } = answered(
        await context.elicit(nameForm('Step 2: What is your favorite color?', 'color'), { key: 'step2' }),
      );
      return text(`Multi-round complete for ${String(name)} who likes ${String(color)}`);
    },
  },
  {
    name: 'test_input_required_result_multiple_inputs',
    description: "Asks the user's name, the host's model for a greeting and the client's roots, all in one round.",
    input: NO_ARGUMENTS,
    async run(_args, context) {
      const question = { role: 'user' as const, content: { type: 'text' as const, text: 'Generate a greeting' } };
      const answers = await context.askAll({
        user_name: { elicit: nameForm('What is your name?', 'name') },
        greeting: { sample: { messages: [question], maxTokens: 50 } },
        client_roots: { roots: true },
      });
      const { name } = answered(answers.user_name);
      const greeting = answered(answers.greeting);
      const roots = answered(answers.client_roots);
      return text(`${greeting.text}, ${String(name)}! (${roots.length} root(s))`);
    },
  },
  {
    name: 'test_input_required_result_capabilities',
    description: "Asks only what the request's capabilities allow: a form, else the host's model.",
    input: NO_ARGUMENTS,
    async run(_args, context) {
      const form = await context.elicit(nameForm('Elicitation input', 'value'), { key: 'elicit_input' });
      if (form.ok || form.why !== 'unsupported') return text(`Elicitation: ${JSON.stringify(answered(form))}`);
      const question = { role: 'user' as const, content: { type: 'text' as const, text: 'Sample request' } };
      const reply = answered(await context.sample({ messages: [question], maxTokens: 50 }, { key: 'sample_input' }));
      return text(`Sampling: ${reply.text}`);
    },
  },
];

/**
 * Needs sampling and cannot do without it: a request whose _meta does not declare it is refused
 * with -32021 and `requiredCapabilities: { sampling: {} }`
 * (https://modelcontextprotocol.io/specification/2026-07-28/basic "Per-request protocol fields").
 */
const capabilityTool: ToolDefinition = {
  name: 'test_missing_capability',
  description: "Asks the host's model for a word; refuses a request that does not declare sampling.",
  input: NO_ARGUMENTS,
  async run(_args, context) {
    context.requireClientCapability('sampling');
    const question = { role: 'user' as const, content: { type: 'text' as const, text: 'Say one word.' } };
    const reply = answered(await context.sample({ messages: [question], maxTokens: 10 }, { key: 'word' }));
    return text(`Sampling: ${reply.text}`);
  },
};

/**
 * The JSON Schema 2020-12 keywords the scenario looks for (SEP-1613, SEP-2106), carried as zod
 * metadata: z.toJSONSchema copies metadata into the schema it makes. `$schema` is not among them:
 * the engine names the 2020-12 dialect on every tool schema from 2025-11-25 (protocol/tools.ts,
 * jsonSchema), the revision the scenario starts at.
 */
const ADDRESS = z.object({ street: z.optional(z.string()), city: z.optional(z.string()) });
const JSON_SCHEMA_2020_12_KEYWORDS = {
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

const schemaTool: ToolDefinition = {
  name: 'json_schema_2020_12_tool',
  description: 'Tool with JSON Schema 2020-12 features',
  input: z
    .object({
      name: z.optional(z.string()),
      address: z.optional(ADDRESS),
      contactMethod: z.optional(z.enum(['phone', 'email'])),
      phone: z.optional(z.string()),
      email: z.optional(z.string()),
    })
    .check(z.meta(JSON_SCHEMA_2020_12_KEYWORDS)),
  run: (args) => text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`),
};

/**
 * An argument mirrored into a header (`x-mcp-header`, 2026-07-28 Streamable HTTP): the HTTP
 * transport refuses a call whose `Mcp-Param-Region` does not say what `region` says
 * (protocol/http-headers.ts); the tool itself only echoes it.
 */
const headerTool: ToolDefinition = {
  name: 'test_param_header',
  description: 'Echoes the region, which clients also send in the Mcp-Param-Region header.',
  input: z.object({ region: z.string(), query: z.optional(z.string()) }),
  headers: { region: 'Region' },
  run: ({ region }) => text(`Region: ${region}`),
};

/**
 * The SSE polling scenario's tool (SEP-1699): it answers after a second, so its answer comes on
 * an SSE stream primed with an event id and a `retry` field (protocol/http-sessions.ts), which a
 * client that loses the connection resumes with Last-Event-ID.
 */
const reconnectionTool: ToolDefinition = {
  name: 'test_reconnection',
  description: 'Answers after a second, on a resumable SSE stream.',
  input: NO_ARGUMENTS,
  async run(_args, context) {
    await pause(1000, context.signal);
    return text('Reconnection test completed');
  },
};

const resources: ResourceDefinition[] = [
  {
    uri: 'test://static-text',
    name: 'static-text',
    title: 'Static Text Resource',
    description: 'A static text resource for testing',
    mimeType: 'text/plain',
    read: () => [{ uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
  },
  {
    uri: 'test://static-binary',
    name: 'static-binary',
    title: 'Static Binary Resource',
    description: 'A static binary resource (image) for testing',
    mimeType: 'image/png',
    read: () => [{ uri: 'test://static-binary', mimeType: 'image/png', blob: PNG_BASE64 }],
  },
  {
    uri: 'test://watched-resource',
    name: 'watched-resource',
    title: 'Watched Resource',
    description: 'A resource to subscribe to',
    mimeType: 'text/plain',
    read: () => [{ uri: 'test://watched-resource', mimeType: 'text/plain', text: 'Watched resource content' }],
  },
];

const resourceTemplates: ResourceTemplateDefinition[] = [
  {
    uriTemplate: 'test://template/{id}/data',
    name: 'template',
    title: 'Resource Template',
    description: 'A resource template with parameter substitution',
    mimeType: 'application/json',
    read: ({ id }, uri) => [
      { uri, mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) },
    ],
  },
];

/** Completes from a fixed list by prefix: enough for completion/complete to have something to say. */
const fromList =
  (values: readonly string[]) =>
  (typed: string): { values: string[] } => ({ values: values.filter((value) => value.startsWith(typed)) });

const PNG_BLOCK = { type: 'image', data: PNG_BASE64, mimeType: 'image/png' } as const;

const prompts: PromptDefinition[] = [
  {
    name: 'test_simple_prompt',
    title: 'Simple Test Prompt',
    description: 'A simple prompt without arguments',
    arguments: [],
    get: () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }] }),
  },
  {
    name: 'test_prompt_with_arguments',
    title: 'Prompt With Arguments',
    description: 'A prompt with required arguments',
    arguments: [
      { name: 'arg1', description: 'First test argument', required: true, complete: fromList(['test', 'testing', 'hello']) },
      { name: 'arg2', description: 'Second test argument', required: true, complete: fromList(['world', 'there']) },
    ],
    get: ({ arg1, arg2 }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } }],
    }),
  },
  {
    name: 'test_prompt_with_embedded_resource',
    title: 'Prompt With Embedded Resource',
    description: 'A prompt that includes an embedded resource',
    arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
    get: ({ resourceUri = '' }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
          },
        },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ],
    }),
  },
  {
    name: 'test_prompt_with_image',
    title: 'Prompt With Image',
    description: 'A prompt that includes image content',
    arguments: [],
    get: () => ({
      messages: [
        { role: 'user', content: PNG_BLOCK },
        { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
      ],
    }),
  },
  {
    name: 'test_input_required_result_prompt',
    title: 'Prompt That Asks',
    description: 'Asks the user what context to use (elicitation, key user_context), then builds the prompt with it',
    arguments: [],
    async get(_args, context) {
      const form = {
        message: 'What context should the prompt use?',
        requestedSchema: { type: 'object' as const, properties: { context: { type: 'string' as const } }, required: ['context'] },
      };
      const answer = await context.elicit(form, { key: 'user_context' });
      const chosen = answer.ok ? String(answer.value.context) : `none (${answer.why})`;
      return { messages: [{ role: 'user', content: { type: 'text', text: `Use this context: ${chosen}` } }] };
    },
  },
];

export const conformanceDefinition: ServerDefinition = {
  info: { name: 'mcp-by-hand-conformance-server', version: '0.1.0', title: 'mcp-by-hand conformance server' },
  tools: [
    ...contentTools,
    ...notifyingTools,
    ...askingTools,
    ...inputRequiredTools,
    capabilityTool,
    schemaTool,
    headerTool,
    reconnectionTool,
    ...taskTools,
  ],
  resources,
  resourceTemplates,
  prompts,
  subscriptions: true,
  logging: true,
};
