// Layer 3 tests: the peer pairs requests with answers and cancellations with handlers.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { OutgoingMessage, Request, RequestId } from '../json-rpc.js';
import { type RunningRequest, createPeer } from '../peer.js';

const request = (id: RequestId, method = 'work'): Request => ({ kind: 'request', id, method, params: undefined });

function peerWith(onRequest: (request: Request, running: RunningRequest) => unknown) {
  const sent: OutgoingMessage[] = [];
  const peer = createPeer({ send: (m) => sent.push(m), onRequest, onOutgoingAbandoned: () => {}, report: () => {} });
  return { peer, sent };
}

test('a synchronous handler is answered at once, and the id is free again', () => {
  const { peer } = peerWith(() => ({ ok: true }));
  assert.equal(peer.answer(request(1)), { jsonrpc: '2.0', id: 1, result: { ok: true } });
  assert.is(peer.inFlight(), 0);
});

test('a synchronous handler is active while it runs, and never in flight: nothing can be read before it answers', () => {
  let during: { active: boolean; inFlight: number } | undefined;
  let running: RunningRequest | undefined;
  const { peer } = peerWith((_request, self) => {
    running = self;
    during = { active: self.active, inFlight: peer.inFlight() };
    return 'done';
  });
  assert.equal(peer.answer(request(3)), { jsonrpc: '2.0', id: 3, result: 'done' });
  assert.equal(during, { active: true, inFlight: 0 });
  assert.not.ok(running?.active, 'answered: nothing more is sent for it');
  peer.cancel(3); // too late, and harmless
  assert.is(running?.cancelled, false);
});

test('a request whose handler returned a promise is in flight, and active, until it settles', async () => {
  let running: RunningRequest | undefined;
  let finish = () => {};
  const { peer } = peerWith((_request, self) => {
    running = self;
    return new Promise<string>((resolve) => (finish = () => resolve('late')));
  });
  const answer = peer.answer(request(4));
  assert.is(peer.inFlight(), 1);
  assert.ok(running?.active);
  finish();
  assert.equal(await answer, { jsonrpc: '2.0', id: 4, result: 'late' });
  assert.is(peer.inFlight(), 0);
  assert.not.ok(running.active);
});

test('a synchronous request with the id of a running one gets -32600, and the running one goes on', async () => {
  let finish = () => {};
  const { peer } = peerWith((request) =>
    request.method === 'slow' ? new Promise<string>((resolve) => (finish = () => resolve('slow'))) : 'quick',
  );
  const slow = peer.answer(request(1, 'slow'));
  const quick = peer.answer(request(1, 'quick')) as OutgoingMessage;
  assert.is('error' in quick && quick.error.code, -32600);
  assert.equal(peer.answer(request(2, 'quick')), { jsonrpc: '2.0', id: 2, result: 'quick' });
  assert.is(peer.inFlight(), 1);
  finish();
  assert.equal(await slow, { jsonrpc: '2.0', id: 1, result: 'slow' });
});

test('a second request with the id of a running one gets -32600; 1 and "1" are different ids', async () => {
  const finishers: Array<() => void> = [];
  const { peer } = peerWith(() => new Promise<void>((resolve) => finishers.push(resolve)));
  const first = peer.answer(request(1));
  const duplicate = peer.answer(request(1)) as OutgoingMessage;
  assert.is('error' in duplicate && duplicate.error.code, -32600);
  assert.instance(peer.answer(request('1')), Promise);
  assert.is(finishers.length, 2, 'the duplicate never reached a handler');
  finishers[0]!();
  assert.equal(await first, { jsonrpc: '2.0', id: 1, result: undefined });
});

test('a cancelled request is never answered; a signal first asked for after the cancel is already aborted', async () => {
  let running: RunningRequest | undefined;
  let finish = () => {};
  const { peer } = peerWith((_request, self) => {
    running = self;
    return new Promise<string>((resolve) => (finish = () => resolve('late')));
  });
  const answer = peer.answer(request(0));
  assert.ok(running?.active);
  peer.cancel(0); // id 0 is an id like any other
  assert.is(running.cancelled, true);
  assert.is(running.signal.aborted, true);
  assert.not.ok(running.active);
  finish();
  assert.is(await answer, null);
});

test('a signal asked for before the cancel is aborted by it', () => {
  let signal: AbortSignal | undefined;
  const { peer } = peerWith((_request, self) => {
    signal = self.signal;
    return new Promise(() => {});
  });
  void peer.answer(request(''));
  assert.is(signal?.aborted, false);
  peer.cancel('');
  assert.is(signal?.aborted, true);
});

test('a cancelled id may be reused at once, and the old handler cannot end the new request', async () => {
  const finishers: Array<() => void> = [];
  const { peer } = peerWith(() => new Promise<string>((resolve) => finishers.push(() => resolve('done'))));
  const old = peer.answer(request(7));
  peer.cancel(7);
  const reused = peer.answer(request(7));
  finishers[0]!();
  assert.is(await old, null);
  assert.is(peer.inFlight(), 1, 'the new request is still running');
  finishers[1]!();
  assert.equal(await reused, { jsonrpc: '2.0', id: 7, result: 'done' });
});

test('a throwing handler is answered with an error, a fault of ours as -32603', () => {
  const { peer } = peerWith(() => {
    throw new Error('bug');
  });
  const answer = peer.answer(request(2)) as OutgoingMessage;
  assert.is('error' in answer && answer.error.code, -32603);
});

test.run();
