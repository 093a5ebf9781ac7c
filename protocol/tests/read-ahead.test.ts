// What a stdio connection at its limit does with what it reads meanwhile.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createReadAhead } from '../read-ahead.js';
import type { Inbound } from '../transport.js';

const line = (message: unknown): Inbound => ({ kind: 'message', text: JSON.stringify(message) });
const request = (id: number, method = 'tools/call') => line({ jsonrpc: '2.0', id, method, params: {} });
const ping = (id: number) => line({ jsonrpc: '2.0', id, method: 'ping' });
const cancel = (requestId: number) => line({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId } });
const label = (message: Inbound) => {
  if (message.kind !== 'message') return message.kind;
  const { id, method, params } = JSON.parse(message.text);
  return method === 'notifications/cancelled' ? `cancel ${params.requestId}` : `${method} ${id}`;
};

test('a ping is answered at once, a cancellation goes at once and again in its place, the rest waits in order', () => {
  const delivered: string[] = [];
  const ahead = createReadAhead((message) => delivered.push(label(message)), 1024 * 1024);
  for (const message of [request(1), ping(2), cancel(1), request(3), { kind: 'not-utf8' } as const]) ahead.hold(message);
  assert.equal(delivered, ['ping 2', 'cancel 1'], 'at once, while the connection has no room');
  assert.ok(ahead.holding);
  delivered.length = 0;
  let room = 2;
  ahead.drain(() => room-- > 0);
  assert.equal(delivered, ['tools/call 1', 'cancel 1'], 'in order, while there is room');
  ahead.drain(() => true);
  assert.equal(delivered, ['tools/call 1', 'cancel 1', 'tools/call 3', 'not-utf8']);
  assert.not.ok(ahead.holding);
});

test('with the output full, a ping or a listing waits, then goes first of all held once the output has room; a cancellation still goes at once (issue 30)', () => {
  const delivered: string[] = [];
  let outputRoom = false;
  const ahead = createReadAhead(
    (message) => delivered.push(label(message)),
    1024 * 1024,
    () => outputRoom,
  );
  for (const message of [request(1), request(2), ping(3), request(4, 'tools/list'), cancel(2)]) ahead.hold(message);
  assert.equal(delivered, ['cancel 2']);
  ahead.drain(() => false);
  assert.equal(delivered, ['cancel 2'], 'the output is still full');
  outputRoom = true;
  ahead.drain(() => false);
  assert.equal(delivered, ['cancel 2', 'ping 3', 'tools/list 4'], 'ahead of the requests held, with no room for them yet');
  ahead.drain(() => true);
  assert.equal(delivered, ['cancel 2', 'ping 3', 'tools/list 4', 'tools/call 1', 'tools/call 2', 'cancel 2']);
  assert.not.ok(ahead.holding);
});

test('only a short, well-formed ping request or cancellation goes first', () => {
  const delivered: string[] = [];
  const ahead = createReadAhead((message) => delivered.push(label(message)), 1024 * 1024);
  const long = line({ jsonrpc: '2.0', id: 9, method: 'ping', params: { _meta: { pad: 'x'.repeat(2000) } } });
  ahead.hold(long);
  ahead.hold(line({ jsonrpc: '2.0', method: 'ping' })); // a notification, not a request
  ahead.hold({ kind: 'message', text: '{"jsonrpc":"2.0","id":1,"method":"ping"' }); // not JSON
  ahead.hold(line([{ jsonrpc: '2.0', id: 4, method: 'ping' }])); // a batch waits its turn
  assert.equal(delivered, []);
});

test('the bound: full once what waits reaches it, and not after it is handed on', () => {
  const ahead = createReadAhead(() => {}, 100);
  ahead.hold(request(1));
  assert.not.ok(ahead.full);
  ahead.hold(line({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { pad: 'x'.repeat(100) } }));
  assert.ok(ahead.full);
  ahead.drain(() => true);
  assert.not.ok(ahead.full);
});

test.run();
