// protocol/json-schema.ts writes the JSON Schema of every tool this repository defines exactly
// as zod's own z.toJSONSchema does (same keywords, same order), in both dialects, and refuses
// by name a kind of schema it does not convert.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as z from 'zod/mini';
import { type JsonSchemaDialect, toJsonSchema } from '../../protocol/json-schema.js';
import type { ToolDefinition } from '../../protocol/tools.js';
import { conformanceDefinition } from '../../spec-tests/conformance-server/definition.js';
import { openStore, silentLogger } from '../store/index.js';
import { trackerTools } from '../tracker/tools.js';

const DIALECTS: readonly JsonSchemaDialect[] = ['draft-7', 'draft-2020-12'];

function zodsOwn(schema: z.ZodMiniType, dialect: JsonSchemaDialect): string {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: dialect, io: 'input' }) as Record<string, unknown>;
  return JSON.stringify(rest);
}

function schemasOf(tools: readonly ToolDefinition[]): [string, z.ZodMiniType][] {
  return tools.flatMap((tool) => [
    [`${tool.name} input`, tool.input] as [string, z.ZodMiniType],
    ...(tool.output ? [[`${tool.name} output`, tool.output] as [string, z.ZodMiniType]] : []),
  ]);
}

test('every tracker tool and every conformance-server tool: the same JSON Schema as z.toJSONSchema, in both dialects', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'tool-json-schema-'));
  const store = await openStore({ path: join(directory, 'tracker.jsonl'), log: silentLogger, watch: false });
  try {
    const schemas = schemasOf([...trackerTools(store), ...(conformanceDefinition.tools ?? [])]);
    assert.ok(schemas.length > 20, `${schemas.length} schemas`);
    for (const [name, schema] of schemas)
      for (const dialect of DIALECTS)
        assert.is(JSON.stringify(toJsonSchema(schema, dialect)), zodsOwn(schema, dialect), `${name}, ${dialect}`);
  } finally {
    store.close();
    rmSync(directory, { recursive: true, force: true });
  }
});

test('tools/list tells the model what an argument is: the descriptions the tracker tools give reach their JSON Schema', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'tool-json-schema-'));
  const store = await openStore({ path: join(directory, 'tracker.jsonl'), log: silentLogger, watch: false });
  try {
    const tools = trackerTools(store);
    const described = (tool: string, argument: string): string | undefined => {
      const input = tools.find((candidate) => candidate.name === tool)!.input;
      const { properties } = toJsonSchema(input, 'draft-2020-12') as { properties: Record<string, { description?: string }> };
      return properties[argument]!.description;
    };
    assert.is(described('create_issue', 'title'), 'One line saying what is wrong or what to do.');
    assert.is(described('create_issue', 'priority'), "P0 (most urgent)-P3, or Jira's (High)");
    assert.is(described('add_attachment', 'content'), 'The file, base64.');
    assert.is(described('summarize_sprint', 'prose'), "true: the host's model writes the summary (sampling).");
  } finally {
    store.close();
    rmSync(directory, { recursive: true, force: true });
  }
});

test('the kinds a tool schema may use, each as zod writes it', () => {
  const schema = z.object({
    text: z.optional(z.string().check(z.minLength(1), z.maxLength(5), z.regex(/^a/), z.describe('Some text.'))),
    count: z.int().check(z.minimum(0), z.maximum(9)),
    ratio: z.nullable(z.number()),
    flag: z.boolean(),
    kind: z.enum(['a', 'b']),
    fixed: z.literal('x'),
    list: z.readonly(z.array(z.string()).check(z.maxLength(3))),
    either: z.union([z.string(), z.array(z.string())]),
    anything: z.unknown(),
    open: z.looseObject({ a: z.string() }),
    byName: z.record(z.string(), z.unknown()),
  });
  for (const dialect of DIALECTS) assert.is(JSON.stringify(toJsonSchema(schema, dialect)), zodsOwn(schema, dialect), dialect);
});

test('a kind it does not convert is refused by name, not written wrong', () => {
  assert.throws(() => toJsonSchema(z.object({ when: z.date() }), 'draft-2020-12'), /zod type "date"/);
  assert.throws(() => toJsonSchema(z.object({ n: z.number().check(z.multipleOf(2)) }), 'draft-2020-12'), /multiple_of/);
  assert.throws(() => toJsonSchema(z.record(z.enum(['a', 'b']), z.string()), 'draft-2020-12'), /keys are not plain strings/);
});

test.run();
