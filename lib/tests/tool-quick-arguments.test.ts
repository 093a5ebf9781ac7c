// The quick check of a tool's arguments (protocol/quick-arguments.ts) never lets through what
// the tool's zod schema would refuse or change, for every tool this repository defines; and
// the calls a client makes most take it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as z from 'zod/mini';
import { compileQuickCheck } from '../../protocol/quick-arguments.js';
import type { ToolDefinition } from '../../protocol/tools.js';
import { conformanceDefinition } from '../../spec-tests/conformance-server/definition.js';
import { openStore, silentLogger } from '../store/index.js';
import { trackerTools } from '../tracker/tools.js';
import { agreesWithZod, anyValue, oddNumber } from '../../protocol/tests/odd-values.js';

// Values near a schema's shapes, derived from its description: right and wrong types, bounds
// crossed, enum values and others, keys it does not declare, `__proto__` as JSON.parse makes it.

interface Def {
  type: string;
  innerType?: { _zod: { def: Def } };
  element?: { _zod: { def: Def } };
  options?: { _zod: { def: Def } }[];
  shape?: Record<string, { _zod: { def: Def } }>;
  entries?: Record<string, string>;
}

function nearValues(def: Def): fc.Arbitrary<unknown> {
  switch (def.type) {
    case 'optional':
      return fc.oneof(fc.constant(undefined), nearValues(def.innerType!._zod.def));
    case 'nullable':
      return fc.oneof(fc.constant(null), nearValues(def.innerType!._zod.def));
    case 'object': {
      const keys = Object.fromEntries(Object.entries(def.shape!).map(([key, value]) => [key, nearValues(value._zod.def)]));
      return fc.oneof(
        { arbitrary: anyValue, weight: 1 },
        { arbitrary: fc.record(keys, { requiredKeys: [] }), weight: 4 },
        { arbitrary: fc.record({ ...keys, other: anyValue }, { requiredKeys: [] }), weight: 1 },
      );
    }
    case 'array':
      return fc.oneof(anyValue, fc.array(nearValues(def.element!._zod.def), { maxLength: 4 }));
    case 'union':
      return fc.oneof(...def.options!.map((option) => nearValues(option._zod.def)));
    case 'enum':
      return fc.oneof(fc.constantFrom(...Object.values(def.entries!)), anyValue);
    case 'string':
      return fc.oneof(fc.string({ maxLength: 3 }), fc.string({ minLength: 1 }), anyValue);
    case 'number':
      return fc.oneof(fc.integer({ min: -5, max: 120 }), oddNumber, anyValue);
    default:
      return anyValue;
  }
}

/** What the quick check accepts, zod accepts and returns unchanged. Returns how many it accepted. */
function agreement(schema: z.ZodMiniType, quick: (value: unknown) => boolean, numRuns = 2000): number {
  return agreesWithZod(nearValues(schema._zod.def as unknown as Def), schema, quick, numRuns);
}

async function withTools(run: (tools: ToolDefinition[]) => void): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), 'tool-quick-arguments-'));
  const store = await openStore({ path: join(directory, 'tracker.jsonl'), log: silentLogger, watch: false });
  try {
    run([...trackerTools(store), ...(conformanceDefinition.tools ?? [])]);
  } finally {
    store.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

test('every tracker and conformance-server tool: what the quick check accepts, zod accepts and returns unchanged', async () => {
  await withTools((tools) => {
    let checked = 0;
    for (const tool of tools) {
      const quick = compileQuickCheck(tool.input);
      if (!quick) continue;
      checked++;
      try {
        agreement(tool.input, quick);
      } catch (error) {
        throw new Error(`${tool.name}: ${String((error as Error).message)}`);
      }
    }
    assert.ok(checked >= 10, `only ${checked} tools have a quick check`);
  });
});

test('the calls made most take the quick path; others go to zod', async () => {
  await withTools((tools) => {
    const quick = (name: string) => compileQuickCheck(tools.find((tool) => tool.name === name)!.input)!;
    const getIssue = quick('get_issue');
    const searchIssues = quick('search_issues');
    assert.ok(getIssue({ key: 'PROJ-101' }));
    assert.ok(getIssue({ key: 'PROJ-101', include: ['history', 'links'] }));
    assert.ok(searchIssues({ project: 'PROJ', text: 'payment slow', status: ['todo', 'in_progress'], limit: 20 }));
    assert.ok(searchIssues({ assignee: null, sprint: 'PROJ-S42', priority: 'P0' }));
    assert.not.ok(getIssue({}), 'a missing key is zod’s to report');
    assert.not.ok(
      getIssue({ key: 'PROJ-101', extra: 1 }),
      'zod refuses an undeclared key (a strict object), or drops it: the tool must not see it',
    );
    assert.not.ok(getIssue({ key: 'PROJ-101', include: ['everything'] }));
    assert.not.ok(searchIssues({ limit: 2.5 }));
    assert.not.ok(searchIssues({ priority: ['P0', 9] }), 'a priority is a string (the store reads the name: one vocabulary)');
    assert.not.ok(getIssue(JSON.parse('{"key":"PROJ-101","__proto__":{"a":1}}')));
  });
});

test('a schema with a check or a kind the quick check does not know gets none', () => {
  assert.is(compileQuickCheck(z.object({ key: z.string().check(z.regex(/^[A-Z]+-\d+$/)) })), undefined);
  assert.is(compileQuickCheck(z.object({ when: z.date() })), undefined);
  assert.is(compileQuickCheck(z.object({ n: z.number().check(z.refine((n) => n % 2 === 0)) })), undefined);
  assert.ok(compileQuickCheck(z.object({ key: z.string().check(z.minLength(1), z.describe('A key.')) })));
});

test('bounds are checked as zod checks them', () => {
  const schema = z.object({
    name: z.string().check(z.minLength(2), z.maxLength(4)),
    count: z.optional(z.int().check(z.minimum(0), z.maximum(9))),
    tags: z.optional(z.array(z.string()).check(z.maxLength(2))),
  });
  const quick = compileQuickCheck(schema)!;
  assert.ok(quick({ name: 'abc', count: 9, tags: ['x', 'y'] }));
  for (const value of [
    { name: 'a' },
    { name: 'abcde' },
    { name: 'ab', count: 10 },
    { name: 'ab', count: -1 },
    { name: 'ab', tags: ['1', '2', '3'] },
  ])
    assert.not.ok(quick(value), JSON.stringify(value));
  assert.ok(agreement(schema, quick) > 0);
});

test.run();
