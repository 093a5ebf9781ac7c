// Values for property tests of hand checks against zod: numbers at the edges where the two may
// disagree, and a value of every JSON kind, plus undefined and an object with an own
// `__proto__` key (as JSON.parse makes one).
import fc from 'fast-check';

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
