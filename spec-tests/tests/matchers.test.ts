import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { matchValue, matchUnordered, parseMarker, checkMarkers } from '../runner/matchers.js';

test('plain values compare by parsed JSON, key order ignored', () => {
  assert.is(matchValue({ a: 1, b: [1, 'x'] }, { b: [1, 'x'], a: 1 }), undefined);
  assert.ok(matchValue({ a: 1 }, { a: 2 }));
});

test('ids keep their JSON type: 1 is not "1"', () => {
  const problem = matchValue({ id: '1' }, { id: 1 });
  assert.equal(problem, { path: '$.id', expected: '"1"', actual: '1' });
});

test('objects match as a subset unless marked <<exact>>', () => {
  assert.is(matchValue({ error: { code: -32601 } }, { error: { code: -32601, message: 'x', data: 1 } }), undefined);
  const problem = matchValue({ '<<exact>>': true, code: 1 }, { code: 1, extra: true });
  assert.is(problem?.path, '$.extra');
});

test('a missing key is a mismatch reported at its path', () => {
  const problem = matchValue({ result: { tools: [{ name: 'a' }] } }, { result: { tools: [{}] } });
  assert.equal(problem, { path: '$.result.tools[0].name', expected: '"a"', actual: 'nothing (key absent)' });
});

test('<<one-of:...>> accepts each listed answer, and absence only when listed', () => {
  const codes = { code: '<<one-of:-32600|-32700>>' };
  assert.is(matchValue(codes, { code: -32700 }), undefined);
  assert.is(matchValue(codes, { code: -32600 }), undefined);
  assert.is(matchValue(codes, { code: -32601 })?.path, '$.code');
  assert.ok(matchValue(codes, {}), 'absent is not listed');
  const id = { id: '<<one-of:null|absent>>' };
  assert.is(matchValue(id, { id: null }), undefined);
  assert.is(matchValue(id, {}), undefined);
  assert.ok(matchValue(id, { id: 0 }));
  assert.throws(() => checkMarkers({ code: '<<one-of:-32600|oops>>' }), /neither JSON nor absent/);
});

test('arrays keep order and length', () => {
  assert.is(matchValue([1, 2], [1, 2]), undefined);
  assert.ok(matchValue([1, 2], [2, 1]));
  assert.match(matchValue([1], [1, 2])?.expected ?? '', '1 items');
});

test('type matchers', () => {
  assert.is(matchValue('<<string>>', 'x'), undefined);
  assert.ok(matchValue('<<string>>', 1));
  assert.is(matchValue('<<number>>', 1.5), undefined);
  assert.ok(matchValue('<<number>>', '1'));
  assert.is(matchValue('<<integer>>', -3), undefined);
  assert.ok(matchValue('<<integer>>', 1.5));
  assert.is(matchValue('<<boolean>>', false), undefined);
  assert.ok(matchValue('<<boolean>>', null));
  assert.is(matchValue('<<object>>', {}), undefined);
  assert.ok(matchValue('<<object>>', []));
  assert.is(matchValue('<<array>>', []), undefined);
  assert.ok(matchValue('<<array>>', {}));
});

test('<<any>> needs the key to be present', () => {
  assert.is(matchValue({ a: '<<any>>' }, { a: null }), undefined);
  assert.ok(matchValue({ a: '<<any>>' }, {}));
});

test('<<absent>> accepts only a missing key', () => {
  assert.is(matchValue({ result: '<<absent>>' }, { error: {} }), undefined);
  assert.equal(matchValue({ result: '<<absent>>' }, { result: {} }), {
    path: '$.result',
    expected: 'nothing (key absent)',
    actual: '{}',
  });
});

test('<<timestamp>> accepts RFC 3339 date-times only', () => {
  assert.is(matchValue('<<timestamp>>', '2025-01-12T15:00:58Z'), undefined);
  assert.is(matchValue('<<timestamp>>', '2025-01-12T15:00:58.123+02:00'), undefined);
  assert.ok(matchValue('<<timestamp>>', '2025-01-12'));
  assert.ok(matchValue('<<timestamp>>', '2025-13-45T99:00:00Z'));
  assert.ok(matchValue('<<timestamp>>', 1736694058));
});

test('<<regex:...>> tests strings', () => {
  assert.is(matchValue('<<regex:^\\d{4}-\\d{2}-\\d{2}$>>', '2025-06-18'), undefined);
  assert.ok(matchValue('<<regex:^\\d{4}-\\d{2}-\\d{2}$>>', 'June'));
  assert.ok(matchValue('<<regex:.*>>', 5));
});

test('<<literal:...>> matches text that looks like a matcher', () => {
  assert.is(matchValue('<<literal:<<any>>>>', '<<any>>'), undefined);
  assert.ok(matchValue('<<literal:<<any>>>>', 'other'));
});

test('unknown matchers are rejected when the fixture loads', () => {
  assert.throws(() => parseMarker('<<strng>>'), /unknown matcher/);
  assert.throws(() => checkMarkers({ a: [{ b: '<<nope>>' }] }), /unknown matcher/);
  assert.is(parseMarker('<not a marker>'), undefined);
});

test('batch responses match in any order, each element once', () => {
  const expected = [{ id: 1 }, { id: null }, { id: null }];
  assert.is(matchUnordered(expected, [{ id: null }, { id: 1 }, { id: null }]), undefined);
  assert.ok(matchUnordered(expected, [{ id: null }, { id: 1 }, { id: 2 }]));
  assert.ok(matchUnordered(expected, [{ id: 1 }]));
  assert.ok(matchUnordered(expected, { id: 1 }));
});

test.run();
