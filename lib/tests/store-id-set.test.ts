// Sets of issue ids (id-set.ts): a sorted array while small, a bitmap once big, and back. Each
// operation is checked against a plain Set of numbers through random sequences that cross the
// size at which a set changes form, both ways; and the bitmaps a query combines against the
// same operations on Sets.
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  allBits,
  andBits,
  countBits,
  eachBit,
  emptyBits,
  IdSet,
  notBits,
  orBits,
  setBit,
  type Bits,
} from '../store/indexes/id-set.js';

/** Adds, then deletes, then adds again: a set grows past the bitmap's size and shrinks below the array's. */
const operations = fc.tuple(
  fc.constantFrom(40, 1_000, 5_000),
  fc.array(fc.tuple(fc.boolean(), fc.double({ min: 0, max: 1, noNaN: true })), { minLength: 1, maxLength: 600 }),
);

function bitsOf(ids: Iterable<number>, count: number): Bits {
  const bits = emptyBits(count);
  for (const id of ids) setBit(bits, id);
  return bits;
}

function idsOf(bits: Bits, descending = false): number[] {
  const ids: number[] = [];
  eachBit(bits, (id) => void ids.push(id), descending);
  return ids;
}

test('property: an IdSet answers as a Set of numbers through adds and deletes that change its form', () => {
  fc.assert(
    fc.property(operations, ([universe, steps]) => {
      const ours = new IdSet();
      const expected = new Set<number>();
      // Mostly adds for the first half, mostly deletes after: the set grows, then shrinks.
      steps.forEach(([flip, at], i) => {
        const adding = i < steps.length / 2 !== flip;
        const id = Math.floor(at * universe);
        if (adding) {
          ours.add(id);
          expected.add(id);
        } else {
          const victim = [...expected][Math.floor(at * expected.size)] ?? id;
          ours.delete(victim);
          expected.delete(victim);
        }
        assert.is(ours.size, expected.size);
      });
      const sorted = [...expected].sort((a, b) => a - b);
      assert.equal([...ours.toArray()], sorted);
      assert.is(ours.first(), sorted[0] ?? -1);
      for (let id = 0; id < universe; id += 7) assert.is(ours.has(id), expected.has(id), `has(${id})`);
      const visited: number[] = [];
      ours.forEach((id) => visited.push(id));
      assert.equal(visited, sorted);
      assert.equal(idsOf(ours.orInto(emptyBits(universe))), sorted);
    }),
    { seed: 15, numRuns: 300 },
  );
});

test('an IdSet made from many ids, emptied one by one, answers at every size', () => {
  const ids = Array.from({ length: 3_000 }, (_, i) => i * 3);
  const set = new IdSet([...ids]);
  for (const [i, id] of ids.entries()) {
    assert.ok(set.has(id));
    set.delete(id);
    assert.not.ok(set.has(id));
    assert.is(set.size, ids.length - i - 1);
    if (i % 97 === 0) assert.equal([...set.toArray()], ids.slice(i + 1));
  }
});

test('property: AND, OR, NOT and counting of bitmaps answer as the same operations on Sets', () => {
  const count = fc.integer({ min: 1, max: 200 });
  fc.assert(
    fc.property(
      count.chain((n) => fc.tuple(fc.constant(n), fc.uniqueArray(fc.nat(n - 1)), fc.uniqueArray(fc.nat(n - 1)))),
      ([n, a, b]) => {
        const [setA, setB] = [new Set(a), new Set(b)];
        const all = Array.from({ length: n }, (_, i) => i);
        assert.equal(
          idsOf(andBits(bitsOf(a, n), bitsOf(b, n))),
          all.filter((i) => setA.has(i) && setB.has(i)),
        );
        assert.equal(
          idsOf(orBits(bitsOf(a, n), bitsOf(b, n))),
          all.filter((i) => setA.has(i) || setB.has(i)),
        );
        const not = notBits(bitsOf(a, n), n);
        assert.equal(
          idsOf(not),
          all.filter((i) => !setA.has(i)),
        );
        assert.is(countBits(not), n - setA.size);
        assert.equal(idsOf(not, true), all.filter((i) => !setA.has(i)).reverse());
        assert.is(countBits(allBits(n)), n);
      },
    ),
    { seed: 15, numRuns: 500 },
  );
});

test('a query bitmap starts empty and shares no word with another, across shared buffers and past their size', () => {
  // emptyBits cuts bitmaps from shared buffers (id-set.ts): each must be its own, zeroed words.
  for (const count of [1_000, 100_000, 200_000]) {
    const kept: Bits[] = [];
    for (let i = 0; i < 600; i++) {
      const bits = emptyBits(count);
      assert.is(bits.length, (count + 31) >>> 5);
      assert.is(countBits(bits), 0, `bitmap ${i} of ${count} issues starts empty`);
      bits.fill(0xffffffff);
      kept.push(bits);
    }
    kept.forEach((bits, i) => assert.is(countBits(bits), bits.length * 32, `bitmap ${i} of ${count} issues kept its bits`));
  }
});

test.run();
