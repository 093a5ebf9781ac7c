// Pieces of random JQL shared by the fuzz tests of the in-memory engine and of the SQL one.
import fc from 'fast-check';

/** A clause on `field` with one of `values`: `=`, `!=`, `IN`, `NOT IN`, and `IS [NOT] EMPTY` where the field may be empty. */
export const oneOf = (field: string, values: readonly string[], emptyable: boolean): fc.Arbitrary<string> =>
  fc.oneof(
    fc.tuple(fc.constantFrom('=', '!='), fc.constantFrom(...values)).map(([op, v]) => `${field} ${op} "${v}"`),
    fc
      .tuple(fc.boolean(), fc.subarray([...values], { minLength: 1 }))
      .map(([not, vs]) => `${field} ${not ? 'NOT IN' : 'IN'} (${vs.map((v) => `"${v}"`).join(', ')})`),
    ...(emptyable ? [fc.boolean().map((not) => `${field} IS ${not ? 'NOT ' : ''}EMPTY`)] : []),
  );
