// A schema's description, for the JSON Schema a client reads in tools/list.
//
// `schema.check(z.describe(text))` would clone the schema and add a check that does nothing
// but register the description; every tool schema is built at each server start, and building
// zod schemas is a large part of what a start costs beyond node's own (docs/performance.md). Registering
// the description on the schema itself puts the same entry in zod's global registry, which
// both protocol/json-schema.ts and z.toJSONSchema read (lib/tests/tool-json-schema.test.ts).
import * as z from 'zod/mini';

/** `schema`, its description registered: what z.describe does, without the clone and the check. */
export function described<T extends z.ZodMiniType>(schema: T, description: string): T {
  z.globalRegistry.add(schema, { description });
  return schema;
}
