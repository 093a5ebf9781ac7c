// The writer that owns stdout: one line per message, back-pressure, a peer that went away.
import { Writable } from 'node:stream';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { URGENT_ROOM, createLineWriter } from '../line-writer.js';
import { PreEncoded } from '../pre-encoded.js';

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

test('a line of several chunks (a text kept as bytes) leaves in one writev: one system call, the client woken once', async () => {
  const calls: string[][] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      calls.push([chunk.toString('utf8')]);
      callback();
    },
    writev(chunks, callback) {
      calls.push(chunks.map(({ chunk }) => (chunk as Buffer).toString('utf8')));
      callback();
    },
  });
  const writer = createLineWriter(stream, { onDrain() {}, onClosed() {} });
  writer.send({ jsonrpc: '2.0', id: 1, result: PreEncoded.ofStringAsBytes('an issue text') });
  await writer.flush();
  assert.equal(calls.length, 1, `${calls.length} writes for one line`);
  assert.equal(calls[0]!.join(''), '{"jsonrpc":"2.0","id":1,"result":"an issue text"}\n');
  assert.ok(calls[0]!.length > 1, 'the line was several chunks');
});

/**
 * A stream that records each write and writev as the lines it carried. Like a pipe: it accepts
 * what it is given at once while `open`, else holds it until `open()` is called.
 */
function recordingPipe(highWaterMark: number, open = false) {
  const calls: string[][] = [];
  const pending: (() => void)[] = [];
  const stream = new Writable({
    highWaterMark,
    writev(chunks, callback) {
      calls.push(chunks.map(({ chunk }) => (chunk as Buffer).toString('utf8')));
      if (open) callback();
      else pending.push(callback);
    },
  });
  const opened = () => {
    open = true;
    pending.splice(0).forEach((done) => done());
  };
  return { stream, calls, open: opened };
}

test('gather: of the answers to one read of pipelined requests, the first leaves at once, the others in one writev as soon as its work returns', () => {
  const { stream, calls } = recordingPipe(1 << 20, true);
  const writer = createLineWriter(stream, { onDrain() {}, onClosed() {} });
  const line = (id: number) => `{"jsonrpc":"2.0","id":${id},"result":{}}\n`;
  const answer = writer.gather(() => {
    for (let id = 1; id <= 3; id++) writer.send({ jsonrpc: '2.0', id, result: {} });
    assert.equal(calls, [[line(1)]], 'only the first is written while the read is worked on');
    return 'done';
  });
  assert.is(answer, 'done');
  assert.equal(calls, [[line(1)], [line(2), line(3)]]);
  writer.gather(() => writer.send({ jsonrpc: '2.0', id: 4, result: {} }));
  assert.equal(calls.at(-1), [line(4)], 'a lone answer leaves at once');
});

test('lines that waited for room leave together once the stream drains, not a write each', async () => {
  const { stream, calls, open } = recordingPipe(100);
  const writer = createLineWriter(stream, { onDrain() {}, onClosed() {} });
  const lines = 12;
  writer.gather(() => {
    for (let id = 1; id <= lines; id++) writer.send({ jsonrpc: '2.0', id, result: { padding: 'x'.repeat(20) } });
  });
  open();
  await writer.flush();
  assert.equal(
    calls.flat().map((line) => JSON.parse(line).id),
    Array.from({ length: lines }, (_, i) => i + 1),
  );
  // About 60 bytes a line, a high-water mark of 100: after the first line each drain lets go,
  // the next two leave together.
  assert.ok(calls.length < lines * 0.8, `lines per call: ${calls.map((call) => call.length).join(', ')}`);
});

test('output waiting at maxQueuedBytes sets backedUp; onDrain once the client has read below it', async () => {
  const { stream, release } = slowPipe(16);
  let drained = 0;
  const writer = createLineWriter(stream, { onDrain: () => drained++, onClosed() {} }, { maxQueuedBytes: 200 });
  writer.send({ jsonrpc: '2.0', id: 1, result: { padding: 'x'.repeat(64) } });
  assert.is(writer.backedUp, false, 'about 100 bytes wait: under the limit');
  writer.send({ jsonrpc: '2.0', id: 2, result: { padding: 'x'.repeat(64) } });
  assert.is(writer.backedUp, true, 'about 200 bytes wait');
  while (writer.backedUp) {
    release();
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.is(drained, 1);
});

test('the stream gets lines only while under its high-water mark; the rest wait in the writer', async () => {
  // Node writes all a stream holds in one writev and drops the lot with ENOBUFS past 2 GiB.
  const { stream, written, release } = slowPipe(100);
  const writer = createLineWriter(stream, { onDrain() {}, onClosed() {} });
  for (let id = 1; id <= 50; id++) writer.send({ jsonrpc: '2.0', id, result: { padding: 'x'.repeat(200) } });
  assert.ok(stream.writableLength < 500, `the stream holds ${stream.writableLength} bytes: one line, not fifty`);
  while (written.length < 50) {
    release();
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.equal(
    written.map((line) => JSON.parse(line).id),
    Array.from({ length: 50 }, (_, i) => i + 1),
  );
});

test('sendFirst: the answer to a ping overtakes the lines waiting, never the one being written; refused once past the room for it (issue 30)', async () => {
  const { stream, written, release } = slowPipe(16);
  const writer = createLineWriter(stream, { onDrain() {}, onClosed() {} }, { maxQueuedBytes: 100 });
  for (let id = 1; id <= 3; id++) writer.send({ jsonrpc: '2.0', id, result: { padding: 'x'.repeat(64) } });
  assert.is(writer.backedUp, true);
  assert.is(writer.sendFirst({ jsonrpc: '2.0', id: 'ping', result: {} }), true);
  while (written.length < 4) {
    release();
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.equal(
    written.map((line) => JSON.parse(line).id),
    [1, 'ping', 2, 3],
  );
  // Their own room: output far past its limit does not hold them back, answers sent first filling it do.
  const pipe = slowPipe(16);
  let drained = 0;
  const full = createLineWriter(pipe.stream, { onDrain: () => drained++, onClosed() {} }, { maxQueuedBytes: 100 });
  full.send({ jsonrpc: '2.0', id: 1, result: { padding: 'x'.repeat(10) } });
  full.send({ jsonrpc: '2.0', id: 2, result: { padding: 'x'.repeat(URGENT_ROOM * 2) } });
  assert.is(full.sendFirst({ jsonrpc: '2.0', id: 'ping', result: {} }), true);
  assert.is(full.sendFirst({ jsonrpc: '2.0', id: 'big', result: { padding: 'x'.repeat(URGENT_ROOM) } }), true);
  assert.is(full.full, true);
  assert.is(full.sendFirst({ jsonrpc: '2.0', id: 'ping2', result: {} }), false);
  while (full.full) {
    pipe.release();
    await new Promise((resolve) => setImmediate(resolve));
  }
  pipe.release();
  await new Promise((resolve) => setImmediate(resolve));
  assert.ok(drained >= 1, 'room again for answers sent first is told, so the pings held back are answered');
});

test('answers sent first go out in the order they were sent: the oldest ping waited longest', async () => {
  const { stream, written, release } = slowPipe(16);
  const writer = createLineWriter(stream, { onDrain() {}, onClosed() {} }, { maxQueuedBytes: 100 });
  for (let id = 1; id <= 2; id++) writer.send({ jsonrpc: '2.0', id, result: { padding: 'x'.repeat(64) } });
  for (const id of ['ping0', 'ping1', 'ping2']) writer.sendFirst({ jsonrpc: '2.0', id, result: {} });
  while (written.length < 5) {
    release();
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.equal(
    written.map((line) => JSON.parse(line).id),
    [1, 'ping0', 'ping1', 'ping2', 2],
  );
});

test('ENOBUFS is back-pressure, not a gone client: the refused lines are written again, in order', async () => {
  // What Node does on stdout: the batch's callbacks get ENOBUFS, 'error' and then 'close' are
  // emitted, and the stream goes on accepting writes.
  const stream = new Writable({ write: (_chunk, _encoding, callback) => callback() });
  const lines: string[] = [];
  let refusing = true; // every write handed over before the refusal is reported is refused
  const write = (chunk: Buffer, callback: (error?: Error | null) => void): boolean => {
    const refused = refusing;
    setImmediate(() => {
      if (!refused) {
        lines.push(chunk.toString('utf8'));
        return callback();
      }
      refusing = false;
      const error = Object.assign(new Error('write ENOBUFS'), { code: 'ENOBUFS' });
      callback(error);
      stream.emit('error', error);
      stream.emit('close');
    });
    return true;
  };
  const reasons: string[] = [];
  const writer = createLineWriter(stream, { onDrain() {}, onClosed: (reason) => reasons.push(reason) }, {}, write);
  for (let id = 1; id <= 4; id++) writer.send({ jsonrpc: '2.0', id, result: {} });
  await new Promise((resolve) => setImmediate(resolve));
  writer.send({ jsonrpc: '2.0', id: 5, result: {} });
  await writer.flush();
  assert.equal(reasons, []);
  assert.is(writer.closed, false);
  assert.equal(
    lines.map((line) => JSON.parse(line).id),
    [1, 2, 3, 4, 5],
    'a newer line does not overtake the refused ones',
  );
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
