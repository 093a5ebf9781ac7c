// A tool's zod schema as the JSON Schema that tools/list publishes (inputSchema, outputSchema).
//
// zod's own z.toJSONSchema handles every kind of schema zod has, and brings the code for all of
// them into the bundle. Tool schemas use a few kinds only: objects, strings, numbers, booleans,
// enums, literals, arrays, records with string keys, unions and their optional, nullable and readonly forms, with length,
// bound and pattern checks and descriptions. This file writes those kinds the way zod writes
// them (same keywords, same order) and refuses any other kind by name, so a tool that needs one
// fails loudly when its schema is first listed, not with a silently wrong schema.
// lib/tests/tool-json-schema.test.ts holds it to z.toJSONSchema for every tool this repository
// defines, in both dialects.
import * as z from 'zod/mini';

/** draft-07 for revisions up to 2025-06-18, 2020-12 from 2025-11-25 (versions.ts). */
export type JsonSchemaDialect = 'draft-7' | 'draft-2020-12';

export type JsonSchema = Record<string, unknown>;

/** The URI that names JSON Schema 2020-12 in `$schema` (https://json-schema.org/draft/2020-12/schema). */
export const JSON_SCHEMA_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/** The input form (what a client may send), without `$schema`: tools.ts, jsonSchema, says when to name the dialect. */
export function toJsonSchema(schema: z.ZodMiniType, dialect: JsonSchemaDialect): JsonSchema {
  return convert(schema as z.core.$ZodType, dialect);
}

function convert(schema: z.core.$ZodType, dialect: JsonSchemaDialect): JsonSchema {
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  const inner = wrapped(schema);
  if (inner !== undefined) {
    // A wrapper's own keywords come first and win; the wrapped schema's follow.
    const own: JsonSchema = def.type === 'readonly' ? { readOnly: true } : {};
    Object.assign(own, z.globalRegistry.get(schema));
    return Object.assign({}, own, convert(inner, dialect), own);
  }
  const json = Object.assign(plain(schema, dialect), z.globalRegistry.get(schema));
  compactTypeUnion(json);
  return json;
}

/** What an optional, readonly or pipe schema wraps (for a pipe, its input side); undefined for other kinds. */
function wrapped(schema: z.core.$ZodType): z.core.$ZodType | undefined {
  const def = schema._zod.def;
  if (def.type === 'optional' || def.type === 'readonly') return (def as z.core.$ZodOptionalDef).innerType;
  if (def.type === 'pipe') {
    const pipe = def as z.core.$ZodPipeDef;
    return pipe.in._zod.traits.has('$ZodTransform') ? pipe.out : pipe.in;
  }
  return undefined;
}

function plain(schema: z.core.$ZodType, dialect: JsonSchemaDialect): JsonSchema {
  const def = schema._zod.def;
  const bag = aggregateChecks(schema);
  switch (def.type) {
    case 'string':
      return stringSchema(bag, dialect);
    case 'number':
      return numberSchema(bag);
    case 'boolean':
      return { type: 'boolean' };
    case 'null':
      return { type: 'null' };
    case 'unknown':
    case 'any':
      return {};
    case 'enum':
      return enumSchema(Object.values((def as z.core.$ZodEnumDef).entries));
    case 'literal':
      return literalSchema((def as z.core.$ZodLiteralDef<z.core.util.Literal>).values);
    case 'array':
      return arraySchema(bag, convert((def as z.core.$ZodArrayDef).element, dialect));
    case 'object':
      return objectSchema(def as z.core.$ZodObjectDef, dialect);
    case 'union': {
      const union = def as z.core.$ZodUnionDef;
      const options = union.options.map((option) => convert(option, dialect));
      return (union as { inclusive?: boolean }).inclusive === false ? { oneOf: options } : { anyOf: options };
    }
    case 'record':
      return recordSchema(def as z.core.$ZodRecordDef, dialect);
    case 'nullable':
      return { anyOf: [convert((def as z.core.$ZodNullableDef).innerType, dialect), { type: 'null' }] };
    default:
      throw new Error(`a tool schema uses zod type "${def.type}", which protocol/json-schema.ts does not convert`);
  }
}

/** What a schema's checks say, folded: the tightest lengths or bounds, the patterns, the format. */
interface Bag {
  minimum?: number;
  maximum?: number;
  format?: string;
  patterns?: Set<RegExp>;
}

/** The definitions zod keeps for its checks; only those a tool schema uses are read. */
interface CheckDef {
  check: string;
  minimum?: number;
  maximum?: number;
  value?: number;
  inclusive?: boolean;
  format?: string;
  pattern?: RegExp;
}

/** A number format schema (z.int()) is its own first check, as in zod's own reading. */
function aggregateChecks(schema: z.core.$ZodType): Bag {
  const own = schema._zod.traits.has('$ZodCheck') ? [schema as unknown as z.core.$ZodCheck] : [];
  const bag: Bag = {};
  for (const check of [...own, ...(schema._zod.def.checks ?? [])]) fold(bag, check._zod.def as CheckDef);
  return bag;
}

function fold(bag: Bag, def: CheckDef): void {
  const atLeast = (value: number) => (bag.minimum = Math.max(bag.minimum ?? -Infinity, value));
  const atMost = (value: number) => (bag.maximum = Math.min(bag.maximum ?? Infinity, value));
  switch (def.check) {
    case 'min_length':
      return void atLeast(def.minimum ?? 0);
    case 'max_length':
      return void atMost(def.maximum ?? Infinity);
    case 'greater_than':
      if (!def.inclusive) unsupported('an exclusive minimum');
      return void atLeast(def.value ?? -Infinity);
    case 'less_than':
      if (!def.inclusive) unsupported('an exclusive maximum');
      return void atMost(def.value ?? Infinity);
    case 'number_format':
      if (def.format !== 'safeint') unsupported(`number format "${def.format}"`);
      bag.format = def.format;
      atLeast(Number.MIN_SAFE_INTEGER);
      return void atMost(Number.MAX_SAFE_INTEGER);
    case 'string_format':
      bag.format = def.format;
      if (def.pattern !== undefined) (bag.patterns ??= new Set()).add(def.pattern);
      return;
    case 'describe':
    case 'meta':
    case 'custom':
      return; // metadata, or a refinement JSON Schema cannot say (zod leaves it out too)
    default:
      unsupported(`the check "${def.check}"`);
  }
}

/** `anyOf` of bare types becomes one `type` list, as zod writes a nullable string: ["string", "null"]. */
function compactTypeUnion(json: JsonSchema): void {
  const options = json.anyOf;
  if (!Array.isArray(options) || options.length === 0 || json.type !== undefined) return;
  const types: string[] = [];
  for (const option of options as JsonSchema[]) {
    compactTypeUnion(option);
    const keys = Object.keys(option);
    if (keys.length !== 1 || keys[0] !== 'type') return;
    for (const type of [option.type].flat()) {
      if (typeof type !== 'string') return;
      if (!types.includes(type)) types.push(type);
    }
  }
  delete json.anyOf;
  json.type = types.length === 1 ? types[0] : types;
}

function stringSchema(bag: Bag, dialect: JsonSchemaDialect): JsonSchema {
  const json: JsonSchema = { type: 'string' };
  if (bag.minimum !== undefined) json.minLength = bag.minimum;
  if (bag.maximum !== undefined) json.maxLength = bag.maximum;
  if (bag.format !== undefined && bag.format !== 'regex') unsupported(`string format "${bag.format}"`);
  const patterns = [...(bag.patterns ?? [])];
  if (patterns.length === 1) json.pattern = patterns[0]?.source;
  else if (patterns.length > 1)
    json.allOf = patterns.map((p) => (dialect === 'draft-7' ? { type: 'string', pattern: p.source } : { pattern: p.source }));
  return json;
}

function numberSchema(bag: Bag): JsonSchema {
  const json: JsonSchema = { type: bag.format?.includes('int') ? 'integer' : 'number' };
  if (bag.minimum !== undefined) json.minimum = bag.minimum;
  if (bag.maximum !== undefined) json.maximum = bag.maximum;
  return json;
}

function enumSchema(values: readonly unknown[]): JsonSchema {
  if (!values.every((v) => typeof v === 'string')) unsupported('an enum of other values than strings');
  return { type: 'string', enum: values };
}

function literalSchema(values: ReadonlySet<unknown> | readonly unknown[]): JsonSchema {
  const list = [...values];
  const [only] = list;
  if (list.length === 1 && (typeof only === 'string' || typeof only === 'number' || typeof only === 'boolean'))
    return { type: typeof only, const: only };
  if (list.length > 1 && list.every((v) => typeof v === 'string')) return { type: 'string', enum: list };
  return unsupported('a literal of several or unusual values');
}

function arraySchema(bag: Bag, items: JsonSchema): JsonSchema {
  const json: JsonSchema = {};
  if (bag.minimum !== undefined) json.minItems = bag.minimum;
  if (bag.maximum !== undefined) json.maxItems = bag.maximum;
  json.type = 'array';
  json.items = items;
  return json;
}

/** Input form: a key is required unless its schema accepts absence; no additionalProperties unless the object says. */
function objectSchema(def: z.core.$ZodObjectDef, dialect: JsonSchemaDialect): JsonSchema {
  const properties: JsonSchema = {};
  const required: string[] = [];
  for (const [key, field] of Object.entries(def.shape)) {
    Object.defineProperty(properties, key, {
      value: convert(field, dialect),
      enumerable: true,
      writable: true,
      configurable: true,
    });
    if (field._zod.optin === undefined) required.push(key);
  }
  const json: JsonSchema = { type: 'object', properties };
  if (required.length > 0) json.required = required;
  const catchall = def.catchall;
  if (catchall !== undefined) json.additionalProperties = catchall._zod.def.type === 'never' ? false : convert(catchall, dialect);
  return json;
}

/** A record with string keys: its keys as `propertyNames`, its values as `additionalProperties`. */
function recordSchema(def: z.core.$ZodRecordDef, dialect: JsonSchemaDialect): JsonSchema {
  if (def.keyType._zod.def.type !== 'string') unsupported('a record whose keys are not plain strings');
  return { type: 'object', propertyNames: convert(def.keyType, dialect), additionalProperties: convert(def.valueType, dialect) };
}

function unsupported(what: string): never {
  throw new Error(`a tool schema uses ${what}, which protocol/json-schema.ts does not convert`);
}
