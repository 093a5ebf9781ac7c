// Files import one another without a circle, type-only imports included, in the engine
// (protocol/) and in the tracker (lib/): each file can be read knowing only what it imports.
// The store's rooms (lib/store/*/, README.md there) import one way too, and the picture in
// docs/architecture.md is the one scripts/architecture.ts draws from these imports. Tools,
// resources and prompts share content.ts.
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DOC, diagram, diagramInDoc } from '../../scripts/architecture.js';
import { findCircle, importGraph } from '../../scripts/import-graph.js';

test('no circle of imports in protocol/', () => {
  const circle = findCircle(importGraph(['protocol']));
  assert.is(circle, undefined, `protocol/ imports in a circle: ${circle?.join(' -> ')}`);
});

test('no circle of imports in lib/', () => {
  const circle = findCircle(importGraph(['lib']));
  assert.is(circle, undefined, `lib/ imports in a circle: ${circle?.join(' -> ')}`);
});

/** A file of lib/store as its room: the folder it is in, or itself when it is at the top. */
const roomOf = (file: string): string => /^lib\/store\/[\w-]+\//.exec(file)?.[0] ?? file;

test("the store's rooms import one way: no circle between lib/store's folders", () => {
  const rooms = new Map<string, string[]>();
  for (const [file, imported] of importGraph(['lib/store'])) {
    const room = roomOf(file);
    const others = imported.map(roomOf).filter((to) => to !== room && to.startsWith('lib/store/'));
    rooms.set(room, [...(rooms.get(room) ?? []), ...others]);
  }
  const circle = findCircle(rooms);
  assert.is(circle, undefined, `lib/store's rooms import in a circle: ${circle?.join(' -> ')}`);
});

test('the circle check finds one', () => {
  const graph = new Map([
    ['a', ['b']],
    ['b', ['c']],
    ['c', ['a']],
  ]);
  assert.equal(findCircle(graph), ['a', 'b', 'c', 'a']);
});

test('docs/architecture.md shows the picture the imports draw (npx tsx scripts/architecture.ts --write)', () => {
  assert.is(diagramInDoc(readFileSync(DOC, 'utf8')), diagram());
});

test('prompts and resources take content blocks from content.ts, not from tools.ts', () => {
  const graph = importGraph(['protocol']);
  for (const file of ['prompts', 'resources'])
    assert.not.ok(graph.get(`protocol/${file}`)?.includes('protocol/tools'), `${file}.ts imports tools.ts`);
});

test.run();
