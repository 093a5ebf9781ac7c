// JSON made once: spliced into the line as it is, the value it stands for anywhere else, and
// made only by a constructor that says what it encodes (tsc checks the @ts-expect-error lines).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { encodeLine, encodeLineBytes, resultMessage } from '../json-rpc.js';
import { PreEncoded, encodeJsonParts } from '../pre-encoded.js';
import type { ResourceContents } from '../resources.js';
import type { ServerDefinition } from '../definition.js';
import { transcript } from './harness.js';

test('a PreEncoded value is spliced into the line as it is, and is its value anywhere else', () => {
  const inner = { text: 'a "quoted"\nline', list: [1, 2] };
  const message = {
    jsonrpc: '2.0',
    id: 1,
    result: { first: PreEncoded.ofJson(JSON.stringify(inner)), second: 'x', third: PreEncoded.ofString('\u2028') },
  };
  const line = encodeLine(message);
  assert.equal(JSON.parse(line), { jsonrpc: '2.0', id: 1, result: { first: inner, second: 'x', third: '\u2028' } });
  assert.not.match(line, /[\u2028\u2029]/, 'a spliced fragment is escaped like the rest');
  assert.equal(JSON.parse(JSON.stringify(message)), JSON.parse(line));
  // A string that looks like a mark, but without this process's nonce, stays a string.
  const lookalike = { jsonrpc: '2.0', id: 2, result: { text: '\u00000123456789abcdef#0' } };
  assert.equal(JSON.parse(encodeLine(lookalike)), lookalike);
});

test('a whole result that is a PreEncoded makes the line JSON.stringify would, a string id escaped too', () => {
  const result = { text: 'a "quoted"\nline \u2028', list: [1, { b: null }] };
  for (const id of [7, 0, 'x', 'id \u2028 \u2029 "quoted"']) {
    const line = encodeLine(resultMessage(id, PreEncoded.ofValue(result)));
    const expected = JSON.stringify({ jsonrpc: '2.0', id, result })
      .replace(/\u2028/g, '\\u2028')
      .replace(/\u2029/g, '\\u2029');
    assert.is(line, `${expected}\n`);
  }
});

test('withFields puts the fields at the end of an object, as a spread after it would', () => {
  const fields = { resultType: 'complete', _meta: { a: '\u2029' } };
  assert.is(PreEncoded.ofValue({ a: 1 }).withFields(fields).json, '{"a":1,"resultType":"complete","_meta":{"a":"\\u2029"}}');
  assert.is(PreEncoded.ofValue({}).withFields(fields).json, '{"resultType":"complete","_meta":{"a":"\\u2029"}}');
  assert.is(PreEncoded.ofValue({ a: 1 }).withFields({}).json, '{"a":1}');
});

test('withFields keeps the result and its fields as parts, written into the line as they are: the same bytes, no joined copy', () => {
  const result = PreEncoded.ofValue({ content: [{ type: 'text', text: 'PROJ-101 \u2028' }] });
  const complete = result.withFields({ resultType: 'complete' });
  assert.equal(complete.jsonParts, [result.json.slice(0, -1), ',', '"resultType":"complete"}']);
  const message = resultMessage(7, complete);
  assert.is(Buffer.concat(encodeLineBytes(message)).toString('utf8'), encodeLine(message));
  assert.is(complete.size, complete.json.length, 'its size counted from the parts');
});

test('a fragment goes into the line as its own parts, the text around it as slices: the same bytes, no joined copy', () => {
  // As the current sprint's text is made: a head kept for as long as the numbers hold, and the time of each read.
  const head = PreEncoded.ofString('{"sprint":"PROJ-S42"');
  const tail = ',"read_at":"now \u2028"}';
  const text = PreEncoded.ofStringThen(head, tail);
  const whole = `{"sprint":"PROJ-S42"${tail}`;
  // The tail's JSON without its opening quote, U+2028 escaped as in every line.
  assert.equal(text.jsonParts, [head.json.slice(0, -1), JSON.stringify(tail).slice(1).replace('\u2028', '\\u2028')]);
  assert.is(JSON.parse(text.json), whole);
  const result = { contents: [{ uri: 'jira://sprint/current', text }], ttlMs: 0 };
  assert.equal(encodeJsonParts(result), [
    '{"contents":[{"uri":"jira://sprint/current","text":',
    ...text.jsonParts!,
    '}],"ttlMs":0}',
  ]);
  const message = resultMessage(3, result);
  assert.is(Buffer.concat(encodeLineBytes(message)).toString('utf8'), encodeLine(message));
  assert.equal(JSON.parse(encodeLine(message)).result.contents[0].text, whole);
});

test('ofString encodes the text itself: JSON text stays text, quotes and newlines included', () => {
  const text = JSON.stringify({ issue: { key: 'PROJ-1', title: 'a "quoted"\nline' } }, null, 2);
  const line = encodeLine({ contents: [{ uri: 'test://a', text: PreEncoded.ofString(text) }] });
  assert.equal(JSON.parse(line), { contents: [{ uri: 'test://a', text }] });
});

test('the type checker refuses a PreEncoded that is not a text where a text goes', () => {
  const json = JSON.stringify({ issue: 'PROJ-1' });
  const right: ResourceContents = { uri: 'test://a', text: PreEncoded.ofString(json) };
  // The mistake this guards against: the JSON of an object where the JSON of a string is due.
  // @ts-expect-error a PreEncoded<unknown> is not a PreEncoded<string>
  const wrong: ResourceContents = { uri: 'test://a', text: PreEncoded.ofJson(json) };
  // @ts-expect-error the constructor is private: nothing makes one without saying what it encodes
  const unchecked = new PreEncoded<string>(json);
  assert.ok(right && wrong && unchecked);
});

test('resources/read sends an ofString text as the text it encodes', async () => {
  const text = '{\n  "issue": "PROJ-1"\n}';
  const definition: ServerDefinition = {
    info: { name: 'pre-encoded', version: '1.0.0' },
    resources: [{ uri: 'test://a', name: 'a', read: () => [{ uri: 'test://a', text: PreEncoded.ofString(text) }] }],
  };
  const t = transcript(definition);
  await t.initialize();
  t.client({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'test://a' } });
  const [answer] = (await t.until((messages) => messages.length === 1)) as any[];
  assert.equal(answer.result.contents, [{ uri: 'test://a', text }]);
});

test.run();
