// First reading: skip this file. It is performance code: what a tool accepts is its zod schema.
//
// A quick check of a tool's arguments, made from the tool's input schema. A zod parse walks
// generic code and allocates a result; for a lone request, with its caches cold, it is one of
// the largest costs of a tools/call (docs/performance.md). The check made here accepts only
// values that zod accepts and returns unchanged, so the arguments can go to the tool as they
// are; anything else (a wrong type, a key the schema does not declare, which zod would drop or
// refuse) goes to zod, which also writes the error. It is made from the schema's own description,
// so it cannot drift from it; a schema using a kind or a check this file does not know gets no
// quick check at all. lib/tests/tool-quick-arguments.test.ts holds every tool's check to zod.

import type * as z from 'zod/mini';

export type QuickCheck = (value: unknown) => boolean;

/** What zod/mini keeps of a schema in `_zod.def`: only what is read here. */
interface Def {
  type: string;
  checks?: { _zod: { def: { check: string; minimum?: number; maximum?: number } } }[];
  innerType?: Schema;
  element?: Schema;
  options?: Schema[];
  shape?: Record<string, Schema>;
  catchall?: Schema;
  entries?: Record<string, unknown>;
}
interface Schema {
  _zod: { def: Def; traits: Set<string> };
}

/** The quick check of `schema`, or undefined when it uses something this file does not check. */
export function compileQuickCheck(schema: z.ZodMiniType): QuickCheck | undefined {
  try {
    return compile(schema as unknown as Schema);
  } catch (error) {
    if (error instanceof Unchecked) return undefined;
    throw error;
  }
}

class Unchecked extends Error {}

function compile(schema: Schema): QuickCheck {
  const def = schema._zod.def;
  const length = lengthBounds(schema);
  switch (def.type) {
    case 'optional': {
      const inner = compile(def.innerType!);
      return (value) => value === undefined || inner(value);
    }
    case 'nullable': {
      const inner = compile(def.innerType!);
      return (value) => value === null || inner(value);
    }
    case 'string':
      return (value) => typeof value === 'string' && length(value.length);
    case 'boolean':
      return (value) => typeof value === 'boolean';
    case 'number':
      return numberCheck(schema);
    case 'enum': {
      const values = Object.values(def.entries!);
      if (!values.every((v) => typeof v === 'string')) throw new Unchecked();
      return (value) => typeof value === 'string' && values.includes(value);
    }
    case 'array': {
      const element = compile(def.element!);
      return (value) => Array.isArray(value) && length(value.length) && value.every(element);
    }
    case 'union': {
      const options = def.options!.map(compile);
      return (value) => options.some((option) => option(value));
    }
    case 'object':
      return objectCheck(def);
    default:
      throw new Unchecked();
  }
}

/**
 * An object zod returns unchanged: a plain object (what JSON.parse makes; zod drops an own
 * `__proto__`) whose keys are all declared (a stripping object would drop the others, a strict
 * one refuses them; a loose one keeps them) and whose declared keys pass their checks, absent
 * ones as undefined.
 */
function objectCheck(def: Def): QuickCheck {
  const catchall = def.catchall?._zod.def.type;
  if (catchall !== undefined && catchall !== 'unknown' && catchall !== 'never') throw new Unchecked();
  const loose = catchall === 'unknown';
  const keys = Object.keys(def.shape!);
  const checks = Object.values(def.shape!).map(compile);
  return (value) => {
    if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return false;
    const record = value as Record<string, unknown>;
    if (Object.hasOwn(record, '__proto__')) return false;
    if (!loose) for (const key in record) if (!keys.includes(key)) return false;
    for (let i = 0; i < keys.length; i++) if (!checks[i]!(record[keys[i]!])) return false;
    return true;
  };
}

/** z.number() takes any finite number, z.int() a safe integer; inclusive bounds only. */
function numberCheck(schema: Schema): QuickCheck {
  const own = schema._zod.traits.has('$ZodCheck') ? [schema as unknown as NonNullable<Def['checks']>[number]] : [];
  let integer = false;
  let minimum = -Infinity;
  let maximum = Infinity;
  for (const check of [...own, ...(schema._zod.def.checks ?? [])]) {
    const c = check._zod.def as { check: string; format?: string; value?: number; inclusive?: boolean };
    if (c.check === 'number_format' && c.format === 'safeint') integer = true;
    else if (c.check === 'greater_than' && c.inclusive) minimum = Math.max(minimum, c.value!);
    else if (c.check === 'less_than' && c.inclusive) maximum = Math.min(maximum, c.value!);
    else if (!isMetadata(c.check)) throw new Unchecked();
  }
  return (value) =>
    typeof value === 'number' &&
    (integer ? Number.isSafeInteger(value) : Number.isFinite(value)) &&
    value >= minimum &&
    value <= maximum;
}

/** Length bounds of a string or an array; any other check but metadata leaves the schema to zod. */
function lengthBounds(schema: Schema): (length: number) => boolean {
  const def = schema._zod.def;
  if (def.type === 'number') return () => true; // numberCheck reads the number's checks
  let minimum = 0;
  let maximum = Infinity;
  for (const check of def.checks ?? []) {
    const c = check._zod.def;
    if (c.check === 'min_length') minimum = Math.max(minimum, c.minimum!);
    else if (c.check === 'max_length') maximum = Math.min(maximum, c.maximum!);
    else if (!isMetadata(c.check)) throw new Unchecked();
  }
  return (length) => length >= minimum && length <= maximum;
}

const isMetadata = (check: string): boolean => check === 'describe' || check === 'meta';
