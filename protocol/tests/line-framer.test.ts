// Layer 1 tests: the same input must give the same lines however it is cut into chunks.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type Frame, createLineFramer } from '../line-framer.js';

function frames(chunks: (string | Uint8Array)[], maxLineBytes = 1024): Frame[] {
  const out: Frame[] = [];
  const framer = createLineFramer(maxLineBytes, (frame) => out.push(frame));
  for (const chunk of chunks) framer.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  framer.end();
  return out;
}

const lines = (...texts: string[]): Frame[] => texts.map((text) => ({ kind: 'message', text }));

/** A seeded generator, so a failure names the seed that reproduces it. */
function random(seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
}

function splitAtRandom(bytes: Uint8Array, next: () => number, maxChunk: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length;) {
    const size = 1 + Math.floor(next() * maxChunk);
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  return chunks;
}

test('splits on newline and keeps the text of each line', () => {
  assert.equal(frames(['{"a":1}\n{"b":2}\n']), lines('{"a":1}', '{"b":2}'));
});

test('a line arriving in several chunks is one line', () => {
  assert.equal(frames(['{"a"', ':1', '}\n']), lines('{"a":1}'));
});

test('a multi-byte character split across chunks survives', () => {
  const bytes = Buffer.from('{"t":"héllo → 世界 😀"}\n');
  for (let cut = 1; cut < bytes.length - 1; cut++) {
    assert.equal(frames([bytes.subarray(0, cut), bytes.subarray(cut)]), lines('{"t":"héllo → 世界 😀"}'), `cut at ${cut}`);
  }
});

test('CRLF line endings are tolerated', () => {
  assert.equal(frames(['{"a":1}\r\n{"b":2}\r\n']), lines('{"a":1}', '{"b":2}'));
});

test('a leading byte-order mark is stripped', () => {
  assert.equal(frames(['\uFEFF{"a":1}\n']), lines('{"a":1}'));
});

test('blank and whitespace-only lines are skipped', () => {
  assert.equal(frames(['\n\n  \n\r\n{"a":1}\n\n']), lines('{"a":1}'));
});

test('a last line without a final newline is still processed at end of input', () => {
  assert.equal(frames(['{"a":1}\n{"b":2}']), lines('{"a":1}', '{"b":2}'));
});

test('invalid UTF-8 is reported, and the next line is read normally', () => {
  assert.equal(frames([new Uint8Array([0x7b, 0xff, 0xfe, 0x7d, 0x0a]), '{"ok":true}\n']), [
    { kind: 'not-utf8' },
    ...lines('{"ok":true}'),
  ]);
});

test('an oversized line is reported once, dropped up to its newline, and the session goes on', () => {
  const big = 'x'.repeat(100);
  assert.equal(frames([`${big}\n{"a":1}\n`], 50), [{ kind: 'too-long', limitBytes: 50 }, ...lines('{"a":1}')]);
  // Across chunks: reported when the limit is crossed, not buffered to the end.
  assert.equal(frames([big.slice(0, 40), big.slice(40), big, '\n{"b":2}\n'], 50), [
    { kind: 'too-long', limitBytes: 50 },
    ...lines('{"b":2}'),
  ]);
});

test('a line of exactly the limit is accepted', () => {
  const exact = '"' + 'y'.repeat(48) + '"';
  assert.equal(frames([exact + '\n'], 50), lines(exact));
});

test('random chunk boundaries give the same frames (seeded)', () => {
  const texts = Array.from({ length: 40 }, (_, i) =>
    JSON.stringify({ i, s: 'é世😀'.repeat(i % 7), pad: 'z'.repeat((i * 37) % 300) }),
  );
  const input = Buffer.from(texts.map((t, i) => (i % 3 === 0 ? `${t}\r\n` : `${t}\n`)).join(''));
  for (const seed of [1, 2, 3, 42, 1234, 99991]) {
    const next = random(seed);
    for (const maxChunk of [1, 3, 17, 256, 4096]) {
      assert.equal(frames(splitAtRandom(input, next, maxChunk), 4096), lines(...texts), `seed ${seed}, chunks up to ${maxChunk}`);
    }
  }
});

test('a handler that throws on one line does not corrupt the next', () => {
  const out: Frame[] = [];
  let first = true;
  const framer = createLineFramer(1024, (frame) => {
    if (first) {
      first = false;
      throw new Error('handler fault');
    }
    out.push(frame);
  });
  framer.push(Buffer.from('{"a":'));
  assert.throws(() => framer.push(Buffer.from('1}\n')));
  framer.push(Buffer.from('{"b":2}\n'));
  assert.equal(out, lines('{"b":2}'));
});

test('pause stops between two lines of one chunk; resume hands on the rest, then the end', () => {
  const out: Frame[] = [];
  const framer = createLineFramer(1024, (frame) => {
    out.push(frame);
    framer.pause();
  });
  framer.push(Buffer.from('{"a":1}\n{"b":2}\n{"c":'));
  framer.push(Buffer.from('3}\n{"d":4}'));
  framer.end();
  assert.equal(out, lines('{"a":1}'));
  assert.is(framer.holding, true);
  for (let turn = 0; turn < 3; turn++) framer.resume();
  assert.equal(out, lines('{"a":1}', '{"b":2}', '{"c":3}', '{"d":4}'), 'the last line, without its newline, comes last');
  assert.is(framer.holding, false);
});

test('pausing after any line, however the input is cut, gives the same lines', () => {
  const texts = Array.from({ length: 50 }, (_, i) => `{"id":${i},"pad":"${'x'.repeat(i * 7)}"}`);
  const input = Buffer.from(texts.join('\n') + '\n');
  for (let seed = 1; seed <= 20; seed++) {
    const next = random(seed);
    const out: Frame[] = [];
    const framer = createLineFramer(4096, (frame) => {
      out.push(frame);
      if (next() < 0.5) framer.pause();
    });
    for (const chunk of splitAtRandom(input, next, 600)) {
      framer.push(chunk);
      if (next() < 0.5) framer.resume();
    }
    while (framer.holding) framer.resume();
    assert.equal(out, lines(...texts), `seed ${seed}`);
  }
});

test.run();
