// Values for property tests of hand checks against zod: numbers at the edges where the two may
// disagree, and a value of every JSON kind, plus undefined and an object with an own
// `__proto__` key (as JSON.parse makes one).
import fc from 'fast-check';
import * as assert from 'uvu/assert';
import type * as z from 'zod/mini';

export const oddNumber = fc.oneof(fc.integer(), fc.double(), fc.constant(2 ** 53), fc.constant(-0), fc.constant(Number.NaN));

export const anyValue = fc.oneof(
  fc.string(),
  oddNumber,
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.array(fc.nat(), { maxLength: 2 }),
  fc.dictionary(fc.string(), fc.nat(), { maxKeys: 2 }),
  fc.constant(JSON.parse('{"__proto__":{"a":1}}')),
);

/** The property: what the quick check accepts, zod accepts and returns unchanged. Returns how many it accepted. */
export function agreesWithZod(
  values: fc.Arbitrary<unknown>,
  schema: z.ZodMiniType,
  quick: (value: unknown) => boolean,
  numRuns: number,
): number {
  let accepted = 0;
  fc.assert(
    fc.property(values, (value) => {
      if (!quick(value)) return;
      accepted++;
      const parsed = schema.safeParse(value);
      assert.ok(parsed.success, `zod refused ${JSON.stringify(value)}`);
      assert.equal(parsed.data, value);
    }),
    { numRuns },
  );
  return accepted;
}
