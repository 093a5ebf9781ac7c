// The writer that owns stdout: one line per message, back-pressure, a peer that went away.
import { Writable } from 'node:stream';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createLineWriter } from '../line-writer.js';

/** A stream that accepts writes only when told to, like a pipe whose reader is slow. */
function slowPipe(highWaterMark: number) {
  const written: string[] = [];
  const pending: (() => void)[] = [];
  const stream = new Writable({
    highWaterMark,
    write(chunk: Buffer, _encoding, callback) {
      written.push(chunk.toString('utf8'));
      pending.push(callback);
    },
  });
  return { stream, written, release: () => pending.splice(0).forEach((done) => done()) };
}

test('one compact JSON message per line, in order', async () => {
  const { stream, written, release } = slowPipe(1 << 20);
  const writer = createLineWriter(stream, { onDrain() {}, onClosed() {} });
  writer.send({ jsonrpc: '2.0', id: 1, result: { a: [1, 2] } });
  writer.send({ jsonrpc: '2.0', method: 'x' });
  release();
  await new Promise((resolve) => setImmediate(resolve));
  release();
  assert.equal(written.join(''), '{"jsonrpc":"2.0","id":1,"result":{"a":[1,2]}}\n{"jsonrpc":"2.0","method":"x"}\n');
});

test('a full buffer sets backedUp until drain, which is reported', async () => {
  const { stream, release } = slowPipe(16);
  let drained = 0;
  const writer = createLineWriter(stream, { onDrain: () => drained++, onClosed() {} });
  writer.send({ jsonrpc: '2.0', id: 1, result: { padding: 'x'.repeat(64) } });
  assert.is(writer.backedUp, true);
  while (writer.backedUp) {
    release();
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.is(drained, 1);
});

test('flush resolves only once everything written has left', async () => {
  const { stream, release } = slowPipe(1 << 20);
  const writer = createLineWriter(stream, { onDrain() {}, onClosed() {} });
  writer.send({ jsonrpc: '2.0', id: 1, result: {} });
  let flushed = false;
  const flushing = writer.flush().then(() => (flushed = true));
  await new Promise((resolve) => setImmediate(resolve));
  assert.is(flushed, false, 'not before the pipe took the data');
  for (let i = 0; i < 3; i++) {
    release();
    await new Promise((resolve) => setImmediate(resolve));
  }
  await flushing;
  assert.is(flushed, true);
});

test('EPIPE closes the writer quietly: later sends are dropped, the owner is told once', async () => {
  const failing = new Writable({
    write(_chunk, _encoding, callback) {
      callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    },
  });
  const reasons: string[] = [];
  const writer = createLineWriter(failing, { onDrain() {}, onClosed: (reason) => reasons.push(reason) });
  writer.send({ jsonrpc: '2.0', id: 1, result: {} });
  await new Promise((resolve) => setImmediate(resolve));
  assert.is(writer.closed, true);
  writer.send({ jsonrpc: '2.0', id: 2, result: {} });
  await writer.flush();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(reasons, ['EPIPE']);
});

test.run();
