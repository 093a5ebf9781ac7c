// The tracker's cache of what it made from store snapshots: made once, bounded by size.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type SnapshotCacheOptions, createSnapshotCache } from '../tracker/snapshot-cache.js';

function counted(maxChars: number, options: SnapshotCacheOptions = {}) {
  const made: string[] = [];
  const cache = createSnapshotCache(
    (snapshot: { name: string; size: number }) => {
      made.push(snapshot.name);
      return 'x'.repeat(snapshot.size);
    },
    (text) => text.length,
    maxChars,
    options,
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

test('onSecondUse: a snapshot asked for once is made and not kept; asked again, it is kept from then on', () => {
  const { cache, made } = counted(100, { onSecondUse: true });
  const [once, twice] = ['once', 'twice'].map((name) => ({ name, size: 10 }));
  cache.get(once!);
  cache.get(twice!);
  cache.get(twice!);
  cache.get(twice!);
  cache.get(twice!);
  assert.equal(made, ['once', 'twice', 'twice'], 'made on the first and the second use, then read from the cache');
});

test.run();
