// The tracker's cache of what it made from store snapshots: made once, bounded by size.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createSnapshotCache } from '../tracker/snapshot-cache.js';

function counted(maxChars: number) {
  const made: string[] = [];
  const cache = createSnapshotCache(
    (snapshot: { name: string; size: number }) => {
      made.push(snapshot.name);
      return 'x'.repeat(snapshot.size);
    },
    (text) => text.length,
    maxChars,
  );
  return { cache, made };
}

test('a snapshot is made into its value once while it stays cached; an equal but new snapshot is made again', () => {
  const { cache, made } = counted(100);
  const a = { name: 'a', size: 10 };
  assert.is(cache.get(a), 'x'.repeat(10));
  assert.is(cache.get(a), 'x'.repeat(10));
  cache.get({ name: 'a', size: 10 });
  assert.equal(made, ['a', 'a']);
});

test('over the budget, the least recently used go first', () => {
  const { cache, made } = counted(30);
  const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((name) => ({ name, size: 10 }));
  cache.get(a!);
  cache.get(b!);
  cache.get(c!);
  cache.get(a!); // a is now the most recently used
  cache.get(d!); // 40 > 30: b goes
  made.length = 0;
  cache.get(a!);
  cache.get(c!);
  cache.get(d!);
  assert.equal(made, [], 'a, c and d stayed');
  cache.get(b!);
  assert.equal(made, ['b']);
});

test('a value bigger than the whole budget is handed out but not kept', () => {
  const { cache, made } = counted(30);
  const big = { name: 'big', size: 31 };
  cache.get(big);
  cache.get(big);
  assert.equal(made, ['big', 'big']);
});

test.run();
