// The quick checks of schemas.ts must never let through what zod would refuse or change.
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  CallToolParamsSchema,
  EmptyParamsSchema,
  PaginatedParamsSchema,
  QUICK_CHECKS,
  ResourceUriParamsSchema,
} from '../schemas.js';

// Values near the shapes: the right keys with right and wrong types, and odd numbers for ids.
const oddNumber = fc.oneof(fc.integer(), fc.double(), fc.constant(2 ** 53), fc.constant(-0), fc.constant(Number.NaN));
const anyValue = fc.oneof(
  fc.string(),
  oddNumber,
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.array(fc.nat(), { maxLength: 2 }),
  fc.dictionary(fc.string(), fc.nat(), { maxKeys: 2 }),
);
const meta = fc.oneof(
  anyValue,
  fc.record({ progressToken: fc.oneof(fc.string(), oddNumber, anyValue), extra: anyValue }, { requiredKeys: [] }),
);
const params = fc.oneof(
  anyValue,
  fc.record(
    {
      _meta: meta,
      name: fc.oneof(fc.string(), anyValue),
      uri: fc.oneof(fc.string(), anyValue),
      cursor: fc.oneof(fc.string(), anyValue),
      arguments: fc.oneof(fc.dictionary(fc.string(), anyValue), anyValue),
      inputResponses: anyValue,
      requestState: anyValue,
      other: anyValue,
    },
    { requiredKeys: [] },
  ),
);

for (const [name, schema] of Object.entries({
  EmptyParamsSchema,
  PaginatedParamsSchema,
  CallToolParamsSchema,
  ResourceUriParamsSchema,
})) {
  test(`${name}: what the quick check accepts, zod accepts and returns unchanged`, () => {
    const quick = QUICK_CHECKS.get(schema)!;
    let accepted = 0;
    fc.assert(
      fc.property(params, (value) => {
        if (!quick(value)) return;
        accepted++;
        const parsed = schema.safeParse(value);
        assert.ok(parsed.success, `zod refused ${JSON.stringify(value)}`);
        assert.equal(parsed.data, value);
      }),
      { numRuns: 3000 },
    );
    assert.ok(accepted > 0, 'the quick check accepted nothing: the property says nothing');
  });
}

test('the usual shapes take the quick path', () => {
  const quick = (schema: Parameters<typeof QUICK_CHECKS.get>[0], value: unknown) => QUICK_CHECKS.get(schema)!(value);
  assert.ok(quick(EmptyParamsSchema, undefined));
  assert.ok(quick(PaginatedParamsSchema, { cursor: 'abc' }));
  assert.ok(quick(CallToolParamsSchema, { name: 'get_issue', arguments: { key: 'PROJ-101' }, _meta: { progressToken: 7 } }));
  assert.ok(quick(ResourceUriParamsSchema, { uri: 'jira://projects' }));
  assert.not.ok(quick(CallToolParamsSchema, { name: 'get_issue', requestState: 'x' }), 'a MRTR retry goes to zod');
  assert.not.ok(quick(CallToolParamsSchema, { name: 'get_issue', _meta: { progressToken: 1.5 } }));
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
