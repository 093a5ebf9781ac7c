// The quick checks of schemas.ts must never let through what zod would refuse or change.
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as z from 'zod/mini';
import * as schemas from '../schemas.js';
import {
  CallToolParamsSchema,
  EmptyParamsSchema,
  PaginatedParamsSchema,
  QUICK_CHECKS,
  META,
  ResourceUriParamsSchema,
  StatelessMetaSchema,
  quickCheck,
} from '../schemas.js';
import { agreesWithZod, anyValue } from './odd-values.js';

// Values near the shapes, derived from each schema: every key it declares, with right and wrong
// types, and a key it does not declare. A key added to a schema is generated at once.

/** What zod's own description of a schema says (zod/mini keeps it in `_zod.def`). */
interface Def {
  type: string;
  innerType?: { _zod: { def: Def } };
  shape?: Record<string, { _zod: { def: Def } }>;
  entries?: Record<string, string>;
}

function nearValues(def: Def): fc.Arbitrary<unknown> {
  switch (def.type) {
    case 'optional':
      // Mostly present: a check deep inside an optional key is then reached often.
      return fc.oneof(
        { arbitrary: fc.constant(undefined), weight: 1 },
        { arbitrary: nearValues(def.innerType!._zod.def), weight: 3 },
      );
    case 'object': {
      const keys: Record<string, fc.Arbitrary<unknown>> = { other: anyValue };
      for (const [key, value] of Object.entries(def.shape!)) keys[key] = nearValues(value._zod.def);
      // Also objects with every required key present, so that a check deep inside is reached often.
      const required = Object.entries(def.shape!).flatMap(([key, value]) => (value._zod.def.type === 'optional' ? [] : [key]));
      return fc.oneof(
        { arbitrary: anyValue, weight: 1 },
        { arbitrary: fc.record(keys, { requiredKeys: [] }), weight: 1 },
        { arbitrary: fc.record(keys, { requiredKeys: required }), weight: 2 },
      );
    }
    case 'string':
      return fc.oneof({ arbitrary: fc.string(), weight: 3 }, { arbitrary: anyValue, weight: 1 });
    case 'boolean':
      return fc.oneof(fc.boolean(), anyValue);
    case 'enum':
      return fc.oneof(fc.constantFrom(...Object.values(def.entries!)), fc.string(), anyValue);
    case 'record':
      return fc.oneof(anyValue, fc.dictionary(fc.string(), anyValue, { maxKeys: 3 }));
    default:
      return anyValue;
  }
}

/** What the quick check accepts, zod accepts and returns unchanged. Returns how many it accepted. */
function agreement(schema: z.ZodMiniType, quick: (value: unknown) => boolean, numRuns = 3000): number {
  return agreesWithZod(nearValues(schema._zod.def as Def), schema, quick, numRuns);
}

for (const [schema, quick] of QUICK_CHECKS) {
  const name = Object.entries(schemas).find(([, value]) => value === schema)?.[0];
  test(`${name}: what the quick check accepts, zod accepts and returns unchanged`, () => {
    assert.ok(agreement(schema, quick) > 0, 'the quick check accepted nothing: the property says nothing');
  });
}

test('a key added to a schema cannot take the quick path unchecked', () => {
  const Extended = z.looseObject({ ...CallToolParamsSchema.shape, task: z.optional(z.looseObject({ ttl: z.number() })) });
  const checksOfToday = {
    _meta: (value: unknown) => value === undefined,
    name: (value: unknown) => typeof value === 'string',
    arguments: (value: unknown) => value === undefined,
    inputResponses: (value: unknown) => value === undefined,
    requestState: (value: unknown) => value === undefined,
  };
  // @ts-expect-error the checks have nothing for `task`
  assert.throws(() => quickCheck(Extended, checksOfToday), /task/);
  // Taught carelessly, the generated values (derived from the schema) find the disagreement.
  const careless = quickCheck(Extended, { ...checksOfToday, task: () => true });
  const failure = (() => {
    try {
      agreement(Extended, careless, 20_000);
    } catch (error) {
      return error as Error;
    }
  })();
  assert.match(String((failure?.cause as Error | undefined)?.message), /zod refused/);
  assert.ok(agreement(Extended, quickCheck(Extended, { ...checksOfToday, task: (value) => value === undefined })) > 0);
});

test('only a loose object can have a quick check: a strict or stripping one changes what it lets pass', () => {
  assert.throws(() => quickCheck(z.object({ name: z.string() }), { name: () => true }), /looseObject/);
  assert.throws(() => quickCheck(z.strictObject({ name: z.string() }), { name: () => true }), /looseObject/);
});

test('the usual shapes take the quick path', () => {
  const quick = (schema: Parameters<typeof QUICK_CHECKS.get>[0], value: unknown) => QUICK_CHECKS.get(schema)!(value);
  assert.ok(quick(EmptyParamsSchema, undefined));
  assert.ok(quick(PaginatedParamsSchema, { cursor: 'abc' }));
  assert.ok(quick(CallToolParamsSchema, { name: 'get_issue', arguments: { key: 'PROJ-101' }, _meta: { progressToken: 7 } }));
  assert.ok(quick(ResourceUriParamsSchema, { uri: 'jira://projects' }));
  assert.not.ok(quick(CallToolParamsSchema, { name: 'get_issue', requestState: 'x' }), 'a MRTR retry goes to zod');
  assert.not.ok(quick(CallToolParamsSchema, { name: 'get_issue', _meta: { progressToken: 1.5 } }));
  // A 2026-07-28 request's _meta: the usual one passes; each wrong member sends it to zod.
  const meta = {
    [META.protocolVersion]: '2026-07-28',
    [META.clientCapabilities]: { roots: { listChanged: true }, sampling: {} },
    [META.clientInfo]: { name: 'client', version: '1.0.0', title: 'Client' },
    [META.logLevel]: 'info',
  };
  assert.ok(quick(StatelessMetaSchema, meta));
  for (const wrong of [
    { [META.protocolVersion]: 20260728 },
    { [META.clientCapabilities]: { roots: { listChanged: 'yes' } } },
    { [META.clientCapabilities]: { elicitation: true } },
    { [META.clientInfo]: { name: 'client', version: '1.0.0', title: 7 } },
    { [META.clientInfo]: { name: 'client' } },
    { [META.logLevel]: 'loud' },
  ]) {
    const value = { ...meta, ...wrong };
    assert.not.ok(quick(StatelessMetaSchema, value), JSON.stringify(wrong));
    assert.not.ok(StatelessMetaSchema.safeParse(value).success, `zod refuses ${JSON.stringify(wrong)} too`);
  }
  // JSON.parse makes `__proto__` an own key, which zod drops: those go to zod too.
  for (const text of [
    '{"name":"x","arguments":{"__proto__":{"a":1},"k":2}}',
    '{"name":"x","__proto__":{"a":1}}',
    '{"name":"x","_meta":{"__proto__":{"a":1}}}',
  ]) {
    assert.not.ok(quick(CallToolParamsSchema, JSON.parse(text)), text);
    const parsed = CallToolParamsSchema.safeParse(JSON.parse(text));
    assert.ok(parsed.success);
  }
});

test.run();
