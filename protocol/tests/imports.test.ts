// The engine's files import one another without a circle, type-only imports included: each can
// be read knowing only what it imports. Tools, resources and prompts share content.ts.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const PROTOCOL = join(import.meta.dirname, '..');

/** Each file of protocol/ (without `.ts`) and the files of protocol/ it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of readdirSync(PROTOCOL).filter((name) => name.endsWith('.ts'))) {
    const source = readFileSync(join(PROTOCOL, file), 'utf8');
    const imported = [...source.matchAll(/\bfrom '\.\/([\w-]+)\.js'/g)].map((match) => match[1]!);
    graph.set(file.slice(0, -'.ts'.length), imported);
  }
  return graph;
}

/** A circle of imports, as the files on it (the first again at the end), or undefined. */
function findCircle(graph: Map<string, string[]>): string[] | undefined {
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string): string[] | undefined => {
    if (path.includes(file)) return [...path.slice(path.indexOf(file)), file];
    if (done.has(file)) return undefined;
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      const circle = visit(next);
      if (circle) return circle;
    }
    path.pop();
    done.add(file);
    return undefined;
  };
  for (const file of graph.keys()) {
    const circle = visit(file);
    if (circle) return circle;
  }
  return undefined;
}

test('no circle of imports in protocol/', () => {
  const circle = findCircle(importGraph());
  assert.is(circle, undefined, `protocol/ imports in a circle: ${circle?.join(' -> ')}`);
});

test('the circle check finds one', () => {
  const graph = new Map([
    ['a', ['b']],
    ['b', ['c']],
    ['c', ['a']],
  ]);
  assert.equal(findCircle(graph), ['a', 'b', 'c', 'a']);
});

test('prompts and resources take content blocks from content.ts, not from tools.ts', () => {
  const graph = importGraph();
  for (const file of ['prompts', 'resources']) assert.not.ok(graph.get(file)?.includes('tools'), `${file}.ts imports tools.ts`);
});

test.run();
