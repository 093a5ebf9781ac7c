// Pagination: opaque cursors, no nextCursor on the last page, -32602 for a bad cursor.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RpcError } from '../errors.js';
import { type PagedSource, arraySource, concatSources, encodeCursor, paginate } from '../pagination.js';

const letters = arraySource(['a', 'b', 'c', 'd', 'e']);

function walk<T>(source: PagedSource<T>, pageSize = 2): T[][] {
  const pages: T[][] = [];
  let cursor: string | undefined;
  do {
    const page = paginate(source, cursor, pageSize);
    pages.push(page.items as T[]);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return pages;
}

test('walking the cursors visits every item once, in order', () => {
  assert.equal(walk(letters), [['a', 'b'], ['c', 'd'], ['e']]);
});

test('the last page has no nextCursor key at all', () => {
  const last = paginate(letters, encodeCursor(4), 2);
  assert.is('nextCursor' in last, false);
  assert.is('nextCursor' in paginate(letters, undefined, 10), false);
});

test('an empty list is one empty page', () => {
  assert.equal(paginate(arraySource([]), undefined, 3), { items: [] });
});

test('a cursor we did not issue is -32602', () => {
  for (const bad of [
    'garbage',
    '',
    encodeCursor(-1),
    Buffer.from('{"offset":"1"}').toString('base64url'),
    encodeCursor(5),
    encodeCursor(99),
  ]) {
    try {
      paginate(letters, bad, 2);
      assert.unreachable(`accepted ${bad}`);
    } catch (error) {
      assert.instance(error, RpcError);
      assert.is((error as RpcError).code, -32602);
    }
  }
});

test('concatenated sources page across their boundaries', () => {
  const joined = concatSources([arraySource([1, 2, 3]), arraySource<number>([]), arraySource([4, 5])]);
  assert.is(joined.count(), 5);
  assert.equal(walk<number>(joined, 2), [[1, 2], [3, 4], [5]]);
  assert.equal(joined.slice(2, 10), [3, 4, 5]);
});

test.run();
