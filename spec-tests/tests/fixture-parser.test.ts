import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseFixture, splitSections } from '../runner/fixture-parser.js';
import { parseJsonSequence } from '../runner/json-sequence.js';
import { parseRawChunks } from '../runner/raw-chunks.js';
import { serializeFixture } from '../runner/fixture-writer.js';
import { unmetRequirement } from '../runner/requirements-check.js';

const parse = (text: string) => parseFixture(text, 'x.txtar', 'x');

const SAMPLE = `What this tests.
More prose.
spec: https://modelcontextprotocol.io/specification/2025-06-18/basic: responses MUST echo the request id
covers: 1.2, J7
covers: M4
protocol: 2025-06-18
requires: capabilities.tools
requires: !capabilities.prompts
requires: protocolVersion = 2025-06-18
timeout: 750ms

-- client --
# a comment between values
{"jsonrpc":"2.0","id":1,"method":"ping"}
{
  "jsonrpc": "2.0",
  "id": "a",
  "method": "ping"
}
-- server --
{"jsonrpc":"2.0","id":1,"result":{}}
[{"jsonrpc":"2.0","id":null,"error":{"code":-32600}}]
-- server may --
{"jsonrpc":"2.0","method":"notifications/message"}
-- silence 300ms --
-- eof --
-- exit --
code: 0
within: 1500ms
`;

test('the header: prose, spec, covers, protocol, requires, timeout', () => {
  const { header } = parse(SAMPLE);
  assert.is(header.prose, 'What this tests.\nMore prose.');
  assert.equal(header.spec, [
    'https://modelcontextprotocol.io/specification/2025-06-18/basic: responses MUST echo the request id',
  ]);
  assert.equal(header.covers, ['1.2', 'J7', 'M4']);
  assert.equal(header.protocol, { kind: 'handshake', version: '2025-06-18' });
  assert.equal(
    header.requires.map((requirement) => requirement.alternatives[0]?.condition),
    [{ kind: 'present' }, { kind: 'absent' }, { kind: 'equals', value: '2025-06-18' }],
  );
  assert.equal(header.requires[0]?.alternatives[0]?.path, ['capabilities', 'tools']);
  assert.is(header.timeoutMs, 750);
});

test('requires: A | B holds when any alternative holds', () => {
  const text = SAMPLE.replace(
    'requires: capabilities.tools\n',
    'requires: capabilities.tools.listChanged | capabilities.resources.subscribe\n',
  );
  const [requirement] = parse(text).header.requires;
  assert.equal(
    requirement?.alternatives.map((alternative) => alternative.path.join('.')),
    ['capabilities.tools.listChanged', 'capabilities.resources.subscribe'],
  );
  const neither = { capabilities: { tools: {} } };
  const second = { capabilities: { resources: { subscribe: true } } };
  assert.match(
    unmetRequirement([requirement!], neither) ?? '',
    /but the initialize result has nothing \(key absent\) \| nothing/,
  );
  assert.is(unmetRequirement([requirement!], second), undefined);
});

test('sections become steps in order', () => {
  const { steps } = parse(SAMPLE);
  assert.equal(
    steps.map((step) => step.kind),
    ['send-json', 'expect', 'expect', 'silence', 'close-stdin', 'exit'],
  );
  const send = steps[0];
  assert.ok(send?.kind === 'send-json');
  if (send?.kind !== 'send-json') return;
  assert.equal(
    send.messages.map((message) => message.line),
    [14, 15],
  );
  assert.equal(send.messages[1]?.value, { jsonrpc: '2.0', id: 'a', method: 'ping' });
  const may = steps[2];
  assert.ok(may?.kind === 'expect' && may.optional);
  assert.equal(steps[3], { kind: 'silence', line: 25, ms: 300 });
  assert.equal(steps[5], { kind: 'exit', line: 27, code: 0, withinMs: 1500 });
});

test('protocol any / none', () => {
  assert.equal(parse('protocol: any\n').header.protocol, { kind: 'any' });
  assert.equal(parse('protocol: none\n').header.protocol, { kind: 'none' });
});

test('mistakes are reported with their line', () => {
  assert.throws(() => parse('no protocol line\n-- client --\n{}\n'), /protocol:/);
  assert.throws(() => parse('protocol: latest\n'), /line 1: protocol must be/);
  assert.throws(() => parse('protocol: any\n-- clients --\n'), /line 2: unknown section "-- clients --"/);
  assert.throws(() => parse('protocol: any\n-- client --\n{"a": 1,}\n'), /line 3: invalid JSON value/);
  assert.throws(() => parse('protocol: any\n-- server --\n{"result": {}}\n'), /line 3: a server expectation must be/);
  assert.throws(() => parse('protocol: any\n-- server --\n{"id": 1, "result": "<<strin>>"}\n'), /line 3: unknown matcher/);
  assert.throws(() => parse('protocol: any\n-- eof --\n-- client --\n{}\n'), /cannot send after/);
  assert.throws(() => parse('protocol: any\n-- exit --\ncode: zero\n'), /exit code must be a number/);
  assert.throws(() => parse('protocol: any\n-- client raw --\nbad \\q escape\n'), /line 3: unknown escape/);
});

test('JSON sequences: compact, pretty, scalars, strings with brackets', () => {
  const values = parseJsonSequence('{"a":"}]"} [1,\n2]\n"x" 42 null\n# comment\ntrue', 10);
  assert.equal(
    values.map((value) => value.value),
    [{ a: '}]' }, [1, 2], 'x', 42, null, true],
  );
  assert.equal(
    values.map((value) => value.line),
    [10, 10, 12, 12, 12, 14],
  );
  assert.throws(() => parseJsonSequence('{"a": "unterminated}', 1), /unterminated/);
});

test('raw chunks: one write per line, escapes spelled out, no implicit newline', () => {
  const chunks = parseRawChunks('{"id":1}\\r\\n\n\\xEF\\xBB\\xBFé\\\\n\n# a comment\n\\xE2\\x82\n\\xAC\\t', 1);
  assert.equal(
    chunks.map((chunk) => [...chunk]),
    [[...Buffer.from('{"id":1}\r\n')], [0xef, 0xbb, 0xbf, 0xc3, 0xa9, 0x5c, 0x6e], [0xe2, 0x82], [0xac, 0x09]],
  );
  assert.throws(() => parseRawChunks('\\xZZ', 1), /two hex digits/);
});

test('raw chunks: @repeat builds a large write', () => {
  const [chunk] = parseRawChunks('@repeat 100000 ab', 1);
  assert.is(chunk?.length, 200000);
  assert.is(chunk?.subarray(0, 4).toString(), 'abab');
});

test('splitting and serializing a fixture round-trips its text', () => {
  for (const text of [SAMPLE, '-- client --\n{}\n', 'header only\n', 'h\n-- server --\n{"id":1}']) {
    const { headerText, sections } = splitSections(text);
    assert.is(serializeFixture(headerText, sections), text);
  }
});

test.run();
