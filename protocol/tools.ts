// Tools: verbs the model decides to call (https://modelcontextprotocol.io/specification/2025-11-25/server/tools).
//
// The error split is the part most servers get wrong (rule 7.4):
// - a problem *finding* the tool, or params that are not a tools/call at all, is a protocol
//   error: -32602, in a JSON-RPC `error`;
// - a problem *inside* the tool — arguments that fail its inputSchema, an unknown issue, an
//   exception — is a result with `isError: true` and text the model can read and act on
//   (SEP-1303, 2025-11-25; we use it for every revision, which A-8 allows for older ones).
//
// An argument name the tool does not know is such a problem when its schema says so (a zod
// strictObject, `additionalProperties: false` in tools/list): a model's typo (`projcet`) would
// otherwise be dropped and the call run as if the argument were never given. The refusal names
// the closest known name, so the model can correct itself: the 2025-11-25 page's "Error
// Handling" lists input validation errors among the tool execution errors, which "contain
// actionable feedback that language models can use to self-correct and retry".

import * as z from 'zod/mini';
import { AskingContext, type ElicitForm, type ToolContext, runAsking } from './asking.js';
import { type ContentBlock, shapeContentBlock } from './content.js';
import type { AuthInfo, RequestContext } from './context.js';
import { ErrorCode, type RpcError, excerpt, excerpts, invalidParams, isRpcError } from './errors.js';
import { closestNames } from './closest-names.js';
import { type AskForMissing, FORM_KEY, InputRequired, type InputRequiredResult, type Rounds } from './mrtr.js';
import { JSON_SCHEMA_2020_12, type JsonSchema, toJsonSchema } from './json-schema.js';
import { PreEncoded } from './pre-encoded.js';
import { type QuickCheck, compileQuickCheck } from './quick-arguments.js';
import type { CallToolParams } from './schemas.js';
import {
  type CreateTaskResult,
  TaskContext,
  type TaskOutcome,
  type TaskStore,
  declaresTasks,
  isCreateTaskResult,
  tasksNotDeclared,
} from './tasks.js';
import type { VersionRules } from './versions.js';
import { describeIssues } from './validation.js';

export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolResult {
  content: ContentBlock[];
  /** Must conform to the tool's output schema; only sent from 2025-06-18. */
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface ToolDefinition<Input = any> {
  /** https://modelcontextprotocol.io/specification/2025-11-25/server/tools "Tool Names": 1-128 of A-Z a-z 0-9 _ - . */
  name: string;
  title?: string;
  description: string;
  input: z.ZodMiniType<Input>;
  output?: z.ZodMiniType;
  annotations?: ToolAnnotations;
  /** Arguments to ask the user for with a form, instead of failing, when a call leaves them out (any era that can ask). */
  ask?: AskForMissing;
  /**
   * Runs as a task (tasks.ts) for a 2026-07-28 request that declares the tasks extension:
   * 'optional' runs at once for one that does not; 'required' refuses it (-32021). The
   * handshake era has no such extension: there the tool runs at once.
   */
  task?: 'optional' | 'required';
  /**
   * Arguments a client mirrors into HTTP headers, each to `Mcp-Param-{value}` (`x-mcp-header`
   * on the property in 2026-07-28 tools/list; the HTTP transport holds the headers to the body:
   * http-headers.ts). Top-level string, integer or boolean arguments only.
   */
  headers?: Readonly<Record<string, string>>;
  run(args: Input, context: ToolContext): ToolResult | Promise<ToolResult>;
}

/** A failure the model can fix by calling differently; its message is shown to the model. */
export class ToolError extends Error {}

/**
 * A successful result with structured data and the same data as JSON text (https://modelcontextprotocol.io/specification/2025-06-18/server/tools
 * "Structured Content"). The data is encoded here, once: change it afterwards and neither block follows.
 */
export function structuredResult(data: Record<string, unknown>, extra: ContentBlock[] = []): ToolResult {
  const json = JSON.stringify(data);
  const result: ToolResult = { content: [{ type: 'text', text: json }, ...extra], structuredContent: data };
  // Not enumerable: a copy of the result ({ ...result }) is a result of its own, and never sent as this one.
  Object.defineProperty(result, ENCODED, { value: { data, json } satisfies Encoded });
  return result;
}

// Performance (a first reading may skip it, and `shapeResult` below): a result's JSON is made once.
/**
 * What structuredResult made of a result: its data's JSON, and once sent, the whole result's
 * JSON for the revision it was sent in. shapeResult puts that JSON together from the data's,
 * so the data is encoded once instead of three times (the text, the structuredContent, the
 * text escaped inside the line), and not at all when a tool hands out the same result again.
 * Used only while the result still holds that data and those blocks. Kept on the result
 * itself, not in a WeakMap: a WeakMap's entry would keep the JSON through young-generation
 * collections after the result is gone, and most results are gone once sent.
 */
const ENCODED = Symbol('the JSON structuredResult made');
interface Encoded {
  data: object;
  json: string;
  sent?: { rules: VersionRules; content: ContentBlock[]; result: SentToolResult };
}

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

export interface ToolRegistry {
  /** The tools `auth` may see (ServerDefinition.toolsFor), as this revision describes them. */
  describe(rules: VersionRules, auth?: AuthInfo): Record<string, unknown>[];
  /** The arguments a tool mirrors into headers (its `headers`), if it is a tool of ours that does. */
  paramHeaders(name: string): Readonly<Record<string, string>> | undefined;
  /** The result, synchronously when the tool answers synchronously. */
  call(params: CallToolParams, context: RequestContext): Answer | InputRequiredResult | Promise<Answer | InputRequiredResult>;
}

/** What a call comes to: the tool's result, or a task that will hold it. */
type Answer = SentToolResult | CreateTaskResult;

/** `rounds` seals the MRTR requestStates of the tools that ask (asking.ts, mrtr.ts); `tasks` holds the calls run as tasks. */
export function createToolRegistry(
  tools: readonly ToolDefinition[],
  report: (detail: string) => void,
  rounds: Rounds,
  tasks: TaskStore,
  toolsFor: (auth: AuthInfo | undefined) => ReadonlySet<string> | undefined = () => undefined,
): ToolRegistry {
  const byName = new Map<string, ToolDefinition>();
  for (const tool of tools) {
    if (!TOOL_NAME.test(tool.name)) throw new Error(`Tool name ${JSON.stringify(tool.name)} breaks the naming rule`);
    if (byName.has(tool.name)) throw new Error(`Two tools are named ${tool.name}`);
    if (tool.headers) checkParamHeaders(tool, tool.headers);
    byName.set(tool.name, tool);
  }
  // Performance (a first reading may skip it): JSON Schema generation is not free: do it once per dialect, on first tools/list.
  const described = new Map<VersionRules, Record<string, unknown>[]>();
  // Each tool's quick check of its arguments, made on its first call (quick-arguments.ts).
  const quickChecks = new Map<ToolDefinition, QuickCheck | undefined>();

  /** The tool's arguments as its schema parses them: the usual shapes skip zod, which returns them unchanged. */
  function parseArguments(tool: ToolDefinition, args: Record<string, unknown>) {
    if (!quickChecks.has(tool)) quickChecks.set(tool, compileQuickCheck(tool.input));
    if (quickChecks.get(tool)?.(args)) return { success: true as const, data: args };
    return tool.input.safeParse(args, { reportInput: true });
  }

  /**
   * Runs a tool on its arguments. A tool that answers synchronously is answered synchronously:
   * no promise is made on the busiest path, and its answer leaves with the requests read with it.
   */
  function run(tool: ToolDefinition, given: Record<string, unknown>, asking: ToolContext): Answer | Promise<Answer> {
    const failed = (thrown: unknown): SentToolResult => shapeResult(failure(tool, thrown, asking), asking.rules);
    let result: ToolResult | CreateTaskResult | Promise<ToolResult | CreateTaskResult>;
    try {
      const args = withoutMeta(tool, given);
      const parsed = parseArguments(tool, args);
      result = parsed.success ? execute(tool, parsed.data, asking) : runAfterAsking(tool, args, parsed.error.issues, asking);
    } catch (thrown) {
      return failed(thrown);
    }
    if (result instanceof Promise) return result.then((value) => shapeAnswer(value, asking.rules), failed);
    return shapeAnswer(result, asking.rules);
  }

  /** Arguments that fail the schema: those the tool may ask for are asked for, else the call is refused. */
  async function runAfterAsking(
    tool: ToolDefinition,
    args: Record<string, unknown>,
    issues: readonly z.core.$ZodIssue[],
    asking: ToolContext,
  ): Promise<ToolResult | CreateTaskResult> {
    const checked = await askForMissing(tool, args, issues, asking);
    return checked.success ? execute(tool, checked.data, asking) : checked.refusal;
  }

  /**
   * Runs the tool on valid arguments: in a task when the call gets one, else here and now. So
   * arguments a tool asks for (MRTR) are settled on the request, before any task exists: the
   * spec's SHOULD ("resolve all MRTR exchanges synchronously before responding with a CreateTaskResult").
   */
  function execute(
    tool: ToolDefinition,
    data: unknown,
    asking: ToolContext,
  ): ToolResult | CreateTaskResult | Promise<ToolResult> {
    if (tool.task && asking.rules.era === 'stateless' && declaresTasks(asking.client.capabilities)) {
      const { requestId, rules, client } = asking;
      const created = tasks.start(
        (control) => runTask(tool, data, new TaskContext(requestId, rules, client, control)),
        asking.auth?.subject,
      );
      if (created) return created;
      // Past the bound on tasks: an optional task's call is answered at once.
      if (tool.task === 'required')
        throw new ToolError(`The server holds as many tasks as it can; call ${tool.name} again later.`);
    }
    return tool.run(data, asking);
  }

  /**
   * A task's work. `failed` is for a JSON-RPC error only (the spec: "MUST NOT be used for
   * non-JSON-RPC errors"): an RpcError the tool throws; any other failure is the tool's, a
   * `completed` task whose result has `isError: true`, as the same call answered at once would.
   */
  async function runTask(tool: ToolDefinition, data: unknown, context: TaskContext): Promise<TaskOutcome> {
    const asking = new AskingContext(context, null);
    try {
      return { result: shapeResult(await tool.run(data, asking), context.rules) };
    } catch (thrown) {
      if (isRpcError(thrown)) return { error: thrown };
      return { result: shapeResult(failure(tool, thrown, asking), context.rules) };
    }
  }

  /** What a tool's failure becomes: thrown on when the protocol answers it, else a result the model reads. */
  function failure(tool: ToolDefinition, thrown: unknown, asking: ToolContext): ToolResult {
    // 2026-07-28: the tool asked the client something; runAsking ends the round with the question.
    if (thrown instanceof InputRequired) throw thrown;
    // A capability the request did not declare: a protocol error in 2026-07-28, which has a
    // code for it (https://modelcontextprotocol.io/specification/2026-07-28/basic "Per-request
    // protocol fields"); the handshake era has none, so there it is the tool's failure.
    if (isMissingCapability(thrown) && asking.rules.era === 'stateless') throw thrown;
    // Whatever went wrong inside the tool — even a failed request to the client — is the
    // tool's failure, reported to the model, not a protocol error.
    if (thrown instanceof ToolError || isMissingCapability(thrown)) return errorResult(thrown.message);
    // An RpcError is an answer somebody chose (the client refused a request, a file the server
    // needs is missing), and its sentence says it all; anything else is a bug: its stack.
    const detail = isRpcError(thrown)
      ? thrown.message
      : thrown instanceof Error
        ? (thrown.stack ?? thrown.message)
        : String(thrown);
    report(`tool ${tool.name} failed: ${detail}`);
    return errorResult(`${tool.name} failed: ${thrown instanceof Error ? thrown.message : String(thrown)}`);
  }

  return {
    paramHeaders: (name) => byName.get(name)?.headers,
    describe(rules, auth) {
      let list = described.get(rules);
      if (!list) described.set(rules, (list = [...byName.values()].map((tool) => describeTool(tool, rules))));
      const offered = toolsFor(auth);
      return offered === undefined ? list : list.filter((tool) => offered.has(tool.name as string));
    },
    call(params, context) {
      const { name } = params;
      const offered = toolsFor(context.auth);
      const tool = offered === undefined || offered.has(name) ? byName.get(name) : undefined;
      if (!tool) {
        const known = [...byName.keys()].filter((known) => offered === undefined || offered.has(known));
        throw invalidParams(`Unknown tool: ${excerpt(name)}`, { name: excerpt(name), known });
      }
      // A tool that can only run as a task, asked by a request that cannot take one (tasks.ts).
      if (tool.task === 'required' && context.rules.era === 'stateless' && !declaresTasks(context.client.capabilities)) {
        throw tasksNotDeclared();
      }
      return runAsking(`tools/call ${name}`, params, context, rounds, (args, asking) => run(tool, args, asking));
    },
  };
}

const isMissingCapability = (thrown: unknown): thrown is RpcError =>
  isRpcError(thrown) && thrown.code === ErrorCode.MissingRequiredClientCapability;

const errorResult = (text: string): ToolResult => ({ content: [{ type: 'text', text }], isError: true });

/**
 * Arguments that fail the tool's inputSchema. Those the tool may ask for (`ask`) and the call
 * left out are asked for with a form, in any era that can ask; a declined or cancelled form
 * ends the call; anything else wrong is a tool error the model can act on.
 */
async function askForMissing(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  issues: readonly z.core.$ZodIssue[],
  context: ToolContext,
): Promise<{ success: true; data: unknown } | { success: false; refusal: ToolResult }> {
  const missing = missingAskable(tool, issues);
  let why = '';
  if (missing) {
    const answer = await context.elicit(missingArgumentsForm(tool.ask!, missing), { key: FORM_KEY });
    if (answer.ok) {
      const completed = tool.input.safeParse({ ...args, ...answer.value }, { reportInput: true });
      if (completed.success) return completed;
      issues = completed.error.issues;
    } else if (answer.why === 'decline' || answer.why === 'cancel') {
      return { success: false, refusal: errorResult(`The user chose not to answer (${answer.why}); ${tool.name} was not run.`) };
    } else if (answer.why === 'failed') {
      why = ` (asking the user failed: ${answer.detail})`;
    }
  }
  const refusal = `Invalid arguments for ${tool.name}: ${describeArgumentIssues(tool, args, issues)}${why}. Fix the arguments to match the tool's inputSchema and call it again.`;
  return { success: false, refusal: errorResult(refusal) };
}

/** Suggestions for one unknown name. */
const SUGGESTIONS_MAX = 2;

/**
 * What is wrong with the arguments, names the tool does not know first: each with the closest
 * names it knows that the call left out ("unknown argument `projcet` (did you mean `project`?)";
 * a name given is no typo of another), and when one is close to none, the names there are.
 * Read from the tool's JSON Schema: the names the client was shown.
 */
function describeArgumentIssues(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  issues: readonly z.core.$ZodIssue[],
): string {
  const unknown = issues.filter((issue) => issue.code === 'unrecognized_keys');
  if (unknown.length === 0) return describeIssues(issues);
  const schema = toJsonSchema(tool.input, 'draft-2020-12');
  const clauses = unknown.map((issue) => {
    const given = valueAt(args, issue.path);
    const known = namesAt(schema, issue.path);
    const left = known.filter((name) => typeof given !== 'object' || given === null || !Object.hasOwn(given, name));
    return unknownNames(tool.name, issue.path, issue.keys, known, left);
  });
  const others = issues.filter((issue) => issue.code !== 'unrecognized_keys');
  if (others.length > 0) clauses.push(describeIssues(others));
  return clauses.join('; ');
}

/**
 * "unknown argument `projcet` (did you mean `project`?)", or "custom.0: unknown key `x`;
 * custom.0 takes name, type, options": guesses among `left`, the names the call did not give.
 */
function unknownNames(
  tool: string,
  path: readonly PropertyKey[],
  keys: readonly string[],
  known: readonly string[],
  left: readonly string[],
): string {
  const where = path.length === 0 ? '' : `${excerpt(path.join('.'))}: `;
  const what = path.length === 0 ? 'argument' : 'key';
  const guesses = excerpts(keys).map((name) => ({ name, close: closestNames(name, left, SUGGESTIONS_MAX) }));
  const said = guesses.map(({ name, close }) =>
    close.length === 0 ? quoted(name) : `${quoted(name)} (did you mean ${close.map(quoted).join(' or ')}?)`,
  );
  const owner = path.length === 0 ? tool : excerpt(path.join('.'));
  const takes = guesses.some(({ close }) => close.length === 0) ? `; ${owner} takes ${known.join(', ') || 'none'}` : '';
  return `${where}unknown ${what}${keys.length > 1 ? 's' : ''} ${said.join(', ')}${takes}`;
}

const quoted = (name: string): string => `\`${name}\``;

/** The value at `path` inside the arguments (undefined when the path leads nowhere). */
function valueAt(args: unknown, path: readonly PropertyKey[]): unknown {
  let at = args;
  for (const step of path) at = typeof at === 'object' && at !== null ? (at as Record<PropertyKey, unknown>)[step] : undefined;
  return at;
}

/** The property names a JSON Schema declares at `path`, through `properties` and array `items`. */
function namesAt(schema: JsonSchema | undefined, path: readonly PropertyKey[]): string[] {
  let at = schema;
  for (const step of path) {
    at = (typeof step === 'number' ? at?.items : (at?.properties as Record<string, JsonSchema> | undefined)?.[String(step)]) as
      JsonSchema | undefined;
  }
  return Object.keys((at?.properties as JsonSchema | undefined) ?? {});
}

/**
 * The arguments without a top-level `_meta` the tool does not declare. `_meta` is the name MCP
 * reserves for metadata a client or server attaches (https://modelcontextprotocol.io/specification/2025-11-25/basic
 * "General fields: `_meta`"); a request's own goes in params, beside `arguments`. One a client or
 * a gateway put among the arguments is not the model's typo, and a refusal the model cannot act
 * on would only make it try again: so it is left out, and never reaches the tool.
 */
function withoutMeta(tool: ToolDefinition, args: Record<string, unknown>): Record<string, unknown> {
  if (!Object.hasOwn(args, '_meta') || namesAt(toJsonSchema(tool.input, 'draft-2020-12'), []).includes('_meta')) return args;
  const { _meta: _left, ...rest } = args;
  return rest;
}

function missingArgumentsForm(ask: AskForMissing, missing: readonly string[]): ElicitForm {
  const properties = Object.fromEntries(missing.map((name) => [name, ask.fields[name]!]));
  return { message: ask.message, requestedSchema: { type: 'object', properties, required: [...missing] } };
}

/** The top-level arguments that are simply absent and that the tool can ask for; undefined if anything else is wrong. */
function missingAskable(tool: ToolDefinition, issues: readonly z.core.$ZodIssue[]): string[] | undefined {
  if (!tool.ask) return undefined;
  const missing = issues.map((issue) =>
    issue.code === 'invalid_type' && issue.input === undefined && issue.path.length === 1 ? String(issue.path[0]) : undefined,
  );
  return missing.every((name) => name !== undefined && Object.hasOwn(tool.ask!.fields, name)) ? (missing as string[]) : undefined;
}

/**
 * https://modelcontextprotocol.io/specification/2026-07-28/server/tools "x-mcp-header": a token
 * (RFC 9110 `1*tchar`), unique whatever its case, on a primitive property other than `number`
 * reachable from the root by `properties` alone (ours: a top-level argument). A client MUST drop
 * a tool that breaks these, so a tool of ours that would is refused here, when it is defined.
 */
function checkParamHeaders(tool: ToolDefinition, headers: Readonly<Record<string, string>>): void {
  const properties = (toJsonSchema(tool.input, 'draft-2020-12').properties ?? {}) as Record<string, { type?: unknown }>;
  const seen = new Set<string>();
  for (const [argument, header] of Object.entries(headers)) {
    const type = properties[argument]?.type;
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(header) || seen.has(header.toLowerCase())) {
      throw new Error(`Tool ${tool.name}: header name ${JSON.stringify(header)} is not a token, or is given twice`);
    }
    if (type !== 'string' && type !== 'integer' && type !== 'boolean') {
      throw new Error(`Tool ${tool.name}: ${argument} is no top-level string, integer or boolean argument`);
    }
    seen.add(header.toLowerCase());
  }
}

function describeTool(tool: ToolDefinition, rules: VersionRules): Record<string, unknown> {
  const out: Record<string, unknown> = { name: tool.name };
  if (rules.titles && tool.title) out.title = tool.title;
  out.description = tool.description;
  out.inputSchema = jsonSchema(tool.input, rules);
  // A 2026-07-28 keyword: older revisions' clients may compile the schema with validators that refuse unknown keywords.
  if (tool.headers && rules.era === 'stateless') out.inputSchema = withParamHeaders(out.inputSchema as JsonSchema, tool.headers);
  if (rules.structuredContent && tool.output) out.outputSchema = jsonSchema(tool.output, rules);
  if (rules.toolAnnotations && tool.annotations) {
    out.annotations = rules.titles || !tool.title ? tool.annotations : { title: tool.title, ...tool.annotations };
  }
  return out;
}

/**
 * inputSchema/outputSchema: a JSON Schema object rooted at `type: "object"` (rule 7.3).
 *
 * From 2025-11-25 the schema names its dialect: `$schema` is 2020-12. The revision's "JSON Schema
 * Usage" (https://modelcontextprotocol.io/specification/2025-11-25/basic#json-schema-usage) makes
 * 2020-12 the default when `$schema` is absent, lets a schema say its dialect ("Schemas MAY include
 * a `$schema` field"), and has every implementation support 2020-12 (MUST); its Tool type lists
 * `$schema` on both schemas, and 2026-07-28 keeps all three rules. A client of these revisions
 * supports 2020-12, so naming it breaks none; a reader, or a validator that assumes draft-07 when
 * told nothing, learns the dialect from the schema itself. The price: some 14 tokens a tool in the
 * model's view of tools/list (lib/tests/tools-budget.test.ts). A tool that names another dialect
 * keeps its own.
 *
 * Before 2025-11-25 the dialect is unspecified (A-11): the revisions' own schemas are draft-07, so
 * we write draft-07 and leave `$schema` out. Naming 2020-12 there would break clients that compile
 * schemas with a draft-07 validator checking `$schema` (Ajv's default class throws "no schema with
 * key or ref" on an unknown meta-schema), and naming draft-07 breaks hosts whose validator knows
 * 2020-12 only.
 */
function jsonSchema(schema: z.ZodMiniType, rules: VersionRules): Record<string, unknown> {
  const json = toJsonSchema(schema, rules.jsonSchemaDialect);
  return rules.jsonSchemaDialect === 'draft-2020-12' ? { $schema: JSON_SCHEMA_2020_12, ...json } : json;
}

function withParamHeaders(schema: JsonSchema, headers: Readonly<Record<string, string>>): JsonSchema {
  const properties = { ...(schema.properties as Record<string, JsonSchema>) };
  for (const [argument, header] of Object.entries(headers)) {
    properties[argument] = { ...properties[argument], 'x-mcp-header': header };
  }
  return { ...schema, properties };
}

/** A task's handle goes as it is; a result is shaped for the revision. */
function shapeAnswer(value: ToolResult | CreateTaskResult, rules: VersionRules): Answer {
  return isCreateTaskResult(value) ? value : shapeResult(value, rules);
}

/** A tool result as sent: its JSON, made once. */
type SentToolResult = PreEncoded<ToolResult>;

/** Strips what the negotiated revision does not have (structuredContent, resource_link, lastModified), and encodes the rest. */
function shapeResult(result: ToolResult, rules: VersionRules): SentToolResult {
  const known = (result as { [ENCODED]?: Encoded })[ENCODED];
  if (known === undefined || known.data !== result.structuredContent) return PreEncoded.ofValue(shaped(result, rules));
  if (known.sent?.rules === rules && known.sent.content === result.content) return known.sent.result;
  const sent = encodeKnown(result, known.json, rules);
  known.sent = { rules, content: result.content, result: sent };
  return sent;
}

function shaped(result: ToolResult, rules: VersionRules): ToolResult {
  const out: ToolResult = { content: result.content.map((block) => shapeContentBlock(block, rules)) };
  if (rules.structuredContent && result.structuredContent !== undefined) out.structuredContent = result.structuredContent;
  if (result.isError) out.isError = true;
  return out;
}

/**
 * The JSON of `shaped(result, rules)`, key for key, put together from the data's JSON: as it
 * is for structuredContent, and encoded once more as a string for the text block that holds it
 * as text (the trap explained in pre-encoded.ts).
 */
function encodeKnown(result: ToolResult, json: string, rules: VersionRules): SentToolResult {
  const { content, structuredContent, isError } = shaped(result, rules);
  let asText: string | undefined;
  const blocks = content.map((block) => {
    if (block.type !== 'text' || block.text !== json) return JSON.stringify(block);
    asText ??= JSON.stringify(json);
    return textBlockJson(block, asText);
  });
  let out = `{"content":[${blocks.join(',')}]`;
  if (structuredContent !== undefined) out += `,"structuredContent":${json}`;
  if (isError) out += ',"isError":true';
  // The JSON of a ToolResult, as shaped() makes it; PreEncoded cannot check that for itself.
  return PreEncoded.ofJson(`${out}}`) as SentToolResult;
}

/** A text block's JSON, its `text` given as JSON already made, its keys in the block's order. */
function textBlockJson(block: ContentBlock, textJson: string): string {
  const fields: string[] = [];
  for (const [key, value] of Object.entries(block)) {
    // JSON.stringify leaves out a key whose value has no JSON (undefined): so do we.
    const valueJson = key === 'text' ? textJson : (JSON.stringify(value) as string | undefined);
    if (valueJson !== undefined) fields.push(`${JSON.stringify(key)}:${valueJson}`);
  }
  return `{${fields.join(',')}}`;
}
