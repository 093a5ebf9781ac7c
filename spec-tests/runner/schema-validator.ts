// Validates every message a server sends against the official MCP JSON Schema of the negotiated
// revision (the built-in copies, or DIR/<version>/schema.json with --schema-dir DIR). Ajv is
// loaded only when this is asked for, to keep the runner's startup lean. Known gap in the schemas, skipped on purpose:
// error responses with "id": null, which JSON-RPC requires and no MCP schema can express
// (rule A-3).
import type { ValidateFunction } from 'ajv';
import type { JsonObject, JsonValue } from './json-types.js';
import { isJsonObject } from './json-types.js';
import { messageKind } from './message-kinds.js';
import type { RuleViolation } from './envelope-rules.js';
import type { SchemaSource } from './schema-source.js';

type AjvLike = {
  addSchema(schema: object, key: string): unknown;
  getSchema(ref: string): ValidateFunction | undefined;
  addFormat(name: string, test: (value: string) => boolean): unknown;
};
type AjvClass = new (options: object) => AjvLike;

/** Looks up the request the client sent with a given id, to know which result type to expect. */
export type SentRequestLookup = (id: JsonValue | undefined) => JsonObject | undefined;

interface LoadedSchema {
  ajv: AjvLike;
  key: string;
  pointerPrefix: string;
  definitions: Record<string, unknown>;
  methodDefinitions: Map<string, string>;
}

const MAX_REPORTED_ERRORS = 3;

export class SchemaValidator {
  private readonly schemas = new Map<string, LoadedSchema | string>();

  private constructor(
    private readonly source: SchemaSource,
    private readonly draft07: AjvClass,
    private readonly draft2020: AjvClass,
  ) {}

  static async load(source: SchemaSource): Promise<SchemaValidator> {
    const [draft07Module, draft2020Module] = await Promise.all([import('ajv'), import('ajv/dist/2020.js')]);
    return new SchemaValidator(
      source,
      draft07Module.default.default as unknown as AjvClass,
      draft2020Module.default.default as unknown as AjvClass,
    );
  }

  /** Whether there is a schema for `version` (a server may negotiate one that does not exist). */
  has(version: string): boolean {
    return typeof this.schemaFor(version) !== 'string';
  }

  validate(message: JsonValue, version: string, sentRequest: SentRequestLookup): RuleViolation[] {
    const schema = this.schemaFor(version);
    if (typeof schema === 'string') return [{ problem: schema, rule: this.source.describe }];
    if (Array.isArray(message)) return message.flatMap((item) => this.validateSingle(schema, version, item, sentRequest));
    return this.validateSingle(schema, version, message, sentRequest);
  }

  private validateSingle(
    schema: LoadedSchema,
    version: string,
    message: JsonValue,
    sentRequest: SentRequestLookup,
  ): RuleViolation[] {
    if (!isJsonObject(message)) return [];
    const kind = messageKind(message);
    if (kind === 'response') return this.validateResponse(schema, version, message, sentRequest);
    if (kind === 'notification')
      return this.check(schema, version, message, [
        'JSONRPCNotification',
        this.methodDefinition(schema, message, 'ServerNotification'),
      ]);
    if (kind === 'request')
      return this.check(schema, version, message, ['JSONRPCRequest', this.methodDefinition(schema, message, 'ServerRequest')]);
    return [];
  }

  private validateResponse(
    schema: LoadedSchema,
    version: string,
    message: JsonObject,
    sentRequest: SentRequestLookup,
  ): RuleViolation[] {
    if ('error' in message) {
      // Rule A-3: JSON-RPC needs id null where the id could not be read, and no MCP schema can
      // say it; 2025-11-25 leaves the id out instead, which the older schemas cannot say either.
      if (message.id === null || !('id' in message)) return [];
      return this.check(schema, version, message, [firstDefined(schema, ['JSONRPCErrorResponse', 'JSONRPCError'])]);
    }
    const envelope = this.check(schema, version, message, [firstDefined(schema, ['JSONRPCResultResponse', 'JSONRPCResponse'])]);
    const resultDefinition = this.resultDefinition(schema, message, sentRequest(message.id));
    if (resultDefinition === undefined || !isJsonObject(message.result)) return envelope;
    return [...envelope, ...this.check(schema, version, message.result, [resultDefinition], 'result')];
  }

  /** CallToolRequest → CallToolResult; requests with no result type of their own get EmptyResult. */
  private resultDefinition(schema: LoadedSchema, response: JsonObject, request: JsonObject | undefined): string | undefined {
    if (!request || typeof request.method !== 'string') return undefined;
    const result = isJsonObject(response.result) ? response.result : {};
    if (result.resultType === 'input_required' && 'InputRequiredResult' in schema.definitions) return 'InputRequiredResult';
    // A server without the tasks capability MUST process a task-augmented request normally
    // (https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks), so only a result holding a task is a CreateTaskResult.
    if (isJsonObject(request.params) && 'task' in request.params && 'task' in result && 'CreateTaskResult' in schema.definitions)
      return 'CreateTaskResult';
    // The tasks extension of 2026-07-28 (io.modelcontextprotocol/tasks) answers a request that
    // declares it with a CreateTaskResult, `resultType: "task"`: a shape of the extension, not of
    // the core schema, so the core result type does not apply (the fixture's expectations check it).
    if (result.resultType === 'task' && declaresTasksExtension(request)) return undefined;
    const requestDefinition = schema.methodDefinitions.get(`ClientRequest:${request.method}`);
    if (requestDefinition === undefined) return undefined;
    const named = requestDefinition.replace(/Request$/, 'Result');
    return named in schema.definitions ? named : 'EmptyResult';
  }

  private methodDefinition(schema: LoadedSchema, message: JsonObject, union: string): string | undefined {
    return schema.methodDefinitions.get(`${union}:${String(message.method)}`);
  }

  private check(
    schema: LoadedSchema,
    version: string,
    value: JsonValue,
    definitions: (string | undefined)[],
    where = '',
  ): RuleViolation[] {
    const violations: RuleViolation[] = [];
    for (const definition of definitions) {
      if (definition === undefined) continue;
      const validate = schema.ajv.getSchema(`${schema.key}${schema.pointerPrefix}${definition}`);
      if (!validate || validate(value)) continue;
      const details = (validate.errors ?? [])
        .slice(0, MAX_REPORTED_ERRORS)
        .map((error) => `${where}${error.instancePath || '/'} ${error.message ?? ''} ${JSON.stringify(error.params)}`);
      violations.push({
        problem: `does not match ${definition}: ${details.join('; ')}`,
        rule: `schema/${version}/schema.json ${schema.pointerPrefix}${definition}`,
      });
    }
    return violations;
  }

  private schemaFor(version: string): LoadedSchema | string {
    const cached = this.schemas.get(version);
    if (cached !== undefined) return cached;
    const loaded = this.compile(version);
    this.schemas.set(version, loaded);
    return loaded;
  }

  private compile(version: string): LoadedSchema | string {
    const text = this.source.read(version);
    if (text === undefined) return `no schema for negotiated version ${version} in ${this.source.describe}`;
    const document = JSON.parse(text) as Record<string, unknown>;
    const is2020 = String(document.$schema ?? '').includes('2020-12');
    const ajv = new (is2020 ? this.draft2020 : this.draft07)({ strict: false, allErrors: false });
    addFormats(ajv);
    const key = `mcp-${version}`;
    ajv.addSchema(document, key);
    const pointerPrefix = is2020 ? '#/$defs/' : '#/definitions/';
    const definitions = (is2020 ? document.$defs : document.definitions) as Record<string, unknown>;
    return { ajv, key, pointerPrefix, definitions, methodDefinitions: indexMethods(definitions, pointerPrefix) };
  }
}

function firstDefined(schema: LoadedSchema, names: string[]): string | undefined {
  return names.find((name) => name in schema.definitions);
}

/** Maps "ClientRequest:tools/call" → "CallToolRequest" from the schema's own unions. */
function indexMethods(definitions: Record<string, unknown>, pointerPrefix: string): Map<string, string> {
  const index = new Map<string, string>();
  for (const union of ['ClientRequest', 'ServerNotification', 'ServerRequest']) {
    for (const member of unionMembers(definitions[union], pointerPrefix)) {
      const method = methodConstant(definitions[member]);
      if (method !== undefined) index.set(`${union}:${method}`, member);
    }
  }
  return index;
}

function unionMembers(union: unknown, pointerPrefix: string): string[] {
  if (!isJsonObject(union as JsonValue)) return [];
  const options = (union as { anyOf?: { $ref?: string }[] }).anyOf ?? [];
  return options.map((option) => (option.$ref ?? '').slice(pointerPrefix.length)).filter((name) => name !== '');
}

function methodConstant(definition: unknown): string | undefined {
  const method = (definition as { properties?: { method?: { const?: unknown } } } | undefined)?.properties?.method?.const;
  return typeof method === 'string' ? method : undefined;
}

// The MCP schemas use three formats. ajv-formats is not a dependency, so they are checked here.
function addFormats(ajv: AjvLike): void {
  ajv.addFormat('byte', (value) => /^[A-Za-z0-9+/]*={0,2}$/.test(value) && value.length % 4 === 0);
  ajv.addFormat('uri', (value) => /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/.test(value)); // RFC 3986 absolute URI
  ajv.addFormat('uri-template', (value) => !/\s/.test(value) && balancedBraces(value)); // RFC 6570
}

function balancedBraces(value: string): boolean {
  let open = false;
  for (const char of value) {
    if (char === '{') {
      if (open) return false;
      open = true;
    } else if (char === '}') {
      if (!open) return false;
      open = false;
    }
  }
  return !open;
}

function declaresTasksExtension(request: JsonObject): boolean {
  const meta = isJsonObject(request.params) && isJsonObject(request.params._meta) ? request.params._meta : {};
  const capabilities = meta['io.modelcontextprotocol/clientCapabilities'];
  const extensions = isJsonObject(capabilities) ? capabilities.extensions : undefined;
  return isJsonObject(extensions) && 'io.modelcontextprotocol/tasks' in extensions;
}
