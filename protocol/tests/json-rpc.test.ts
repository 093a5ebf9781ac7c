// Layer 2 tests: what kind of message is this line? (spec-tests/RULES.md: rules 1.x, J1-J15)
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MAX_VALUES, classify, encodeLine, parseLine } from '../json-rpc.js';

const kindOf = (text: string) => {
  const parsed = parseLine(text);
  return parsed.kind === 'single' ? parsed.message.kind : parsed.kind;
};
const invalidId = (value: unknown) => {
  const message = classify(value);
  assert.is(message.kind, 'invalid');
  return message.kind === 'invalid' ? message.id : undefined;
};

test('a request, a notification and a response are told apart', () => {
  assert.is(kindOf('{"jsonrpc":"2.0","id":1,"method":"ping"}'), 'request');
  assert.is(kindOf('{"jsonrpc":"2.0","method":"notifications/initialized"}'), 'notification');
  assert.is(kindOf('{"jsonrpc":"2.0","id":1,"result":{}}'), 'response');
  assert.is(kindOf('{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"no"}}'), 'response');
});

test('J8: text that is not JSON is a parse error; J10: so is a broken batch', () => {
  assert.is(kindOf('{"jsonrpc":"2.0","method":"foobar,"params":"bar","baz]'), 'parse-error');
  assert.is(kindOf('[{"jsonrpc":"2.0","method":"sum","params":[1,2,4],"id":"1"},{"jsonrpc":"2.0","method"]'), 'parse-error');
});

test('J11-J13: an array is a batch, whatever it holds', () => {
  assert.is(kindOf('[]'), 'batch');
  assert.is(kindOf('[1,2,3]'), 'batch');
});

test('J9: a non-string method without an id is an invalid request with id null', () => {
  assert.is(invalidId({ jsonrpc: '2.0', method: 1, params: 'bar' }), null);
});

test('values that are not objects are invalid requests with id null', () => {
  for (const value of [1, 'x', null, true]) assert.is(invalidId(value), null);
});

test('ids: strings and integers, 0 and "" included, keep their exact type', () => {
  for (const id of [0, '', '1', 1, -5, 'abc']) {
    const message = classify({ jsonrpc: '2.0', id, method: 'ping' });
    assert.is(message.kind, 'request');
    if (message.kind === 'request') assert.is(message.id, id);
  }
});

test('ids that MCP forbids (null, fractional, boolean, object) are invalid with id null', () => {
  for (const id of [null, 1.5, true, { a: 1 }, [1]]) assert.is(invalidId({ jsonrpc: '2.0', id, method: 'ping' }), null);
});

test('a request with a usable id but a bad envelope is answered with that id', () => {
  assert.is(invalidId({ id: 7, method: 'ping' }), 7);
  assert.is(invalidId({ jsonrpc: '1.0', id: 'x', method: 'ping' }), 'x');
  assert.is(invalidId({ jsonrpc: '2.0', id: 8, method: 'ping', params: 'bar' }), 8);
  assert.is(invalidId({ jsonrpc: '2.0', id: 9, method: 'ping', params: null }), 9);
  assert.is(invalidId({ jsonrpc: '2.0', id: 10 }), 10);
});

test('a malformed notification is ignored, never answered', () => {
  assert.is(classify({ jsonrpc: '1.0', method: 'notifications/initialized' }).kind, 'ignored');
  assert.is(classify({ jsonrpc: '2.0', method: 'x', params: 'bar' }).kind, 'ignored');
});

test('J1, J5: array params pass the envelope (the method decides what it accepts)', () => {
  assert.is(classify({ jsonrpc: '2.0', method: 'subtract', params: [42, 23], id: 1 }).kind, 'request');
  assert.is(classify({ jsonrpc: '2.0', method: 'update', params: [1, 2, 3, 4, 5] }).kind, 'notification');
});

test('a malformed response is ignored: answering it could start an endless exchange', () => {
  assert.is(classify({ jsonrpc: '2.0', id: 1, result: {}, error: {} }).kind, 'ignored');
  assert.is(classify({ jsonrpc: '2.0', id: null, error: { code: 1, message: 'x' } }).kind, 'ignored');
});

test('extra top-level keys are tolerated', () => {
  assert.is(classify({ jsonrpc: '2.0', id: 1, method: 'ping', extra: true }).kind, 'request');
});

test('nesting deeper than the limit is refused before parsing; brackets inside strings do not count', () => {
  assert.is(parseLine('['.repeat(11) + ']'.repeat(11), 10).kind, 'too-deep');
  assert.is(parseLine('['.repeat(10) + ']'.repeat(10), 10).kind, 'batch');
  const text = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'x', params: { s: '[[[[[[[[[[[[[[["\\' } });
  assert.is(parseLine(text, 5).kind, 'single');
});

test('more values than MAX_VALUES are refused before parsing; commas and brackets inside strings do not count', () => {
  assert.is(parseLine(JSON.stringify(Array.from({ length: MAX_VALUES + 1 }, () => 0))).kind, 'too-many-values');
  assert.is(parseLine(JSON.stringify(Array.from({ length: MAX_VALUES - 1 }, () => 0))).kind, 'batch');
  const text = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'x', params: { s: ',{['.repeat(MAX_VALUES) } });
  assert.is(parseLine(text).kind, 'single');
});

test('a message refused for its values keeps the id and the kind its top level shows', () => {
  const many = { list: Array.from({ length: MAX_VALUES }, () => ({ id: 9, method: 'nested' })) };
  const refused = (message: object) => parseLine(JSON.stringify(message));
  assert.equal(refused({ jsonrpc: '2.0', params: many, id: 7, method: 'x' }), {
    kind: 'too-many-values',
    maxValues: MAX_VALUES,
    id: 7,
    notification: false,
  });
  assert.equal(refused({ jsonrpc: '2.0', id: 'a"b', method: 'x', params: many }), {
    kind: 'too-many-values',
    maxValues: MAX_VALUES,
    id: 'a"b',
    notification: false,
  });
  assert.equal(refused({ jsonrpc: '2.0', method: 'x', params: many }), {
    kind: 'too-many-values',
    maxValues: MAX_VALUES,
    id: null,
    notification: true,
  });
  assert.equal(refused({ jsonrpc: '2.0', id: 1.5, method: 'x', params: many }), {
    kind: 'too-many-values',
    maxValues: MAX_VALUES,
    id: null,
    notification: false,
  });
  assert.equal(refused(Array.from({ length: MAX_VALUES + 1 }, () => ({ id: 1, method: 'ping' }))), {
    kind: 'too-many-values',
    maxValues: MAX_VALUES,
    id: null,
    notification: false,
  });
});

test('the nesting check agrees with the real depth of any JSON value, escaped quotes and brackets in strings included', () => {
  const depthOf = (value: unknown): number =>
    typeof value === 'object' && value !== null ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0;
  const tricky = fc.stringMatching(/^[\\"[\]{}a]{0,12}$/);
  const values = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, tricky, fc.integer(), fc.array(tie('value')), fc.dictionary(tricky, tie('value'))),
  })).value;
  fc.assert(
    fc.property(values, fc.integer({ min: 0, max: 4 }), (value, maxDepth) => {
      const text = JSON.stringify(value);
      if (text.length <= maxDepth) return; // short lines skip the check by design
      assert.is(parseLine(text, maxDepth).kind === 'too-deep', depthOf(value) > maxDepth);
    }),
    { numRuns: 2000 },
  );
});

test('encodeLine: one compact line, U+2028 and U+2029 escaped, round-trips', () => {
  const message = { jsonrpc: '2.0', id: 1, result: { text: 'a\nb\u2028c\u2029d' } };
  const line = encodeLine(message);
  assert.is(line.indexOf('\n'), line.length - 1);
  assert.not.match(line, /[\u2028\u2029]/);
  assert.equal(JSON.parse(line), message);
});

test.run();
