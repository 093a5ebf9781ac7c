// The requestState sealer: what travels through the client comes back unaltered, once, in time.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { canElicitForm, createStateSealer } from '../mrtr.js';

test('a sealed state opens to its payload, once', () => {
  const sealer = createStateSealer<{ n: number }>();
  const token = sealer.seal({ n: 7 });
  assert.equal(sealer.open(token), { n: 7 });
  assert.is(sealer.open(token), null, 'single use');
});

test('a state altered anywhere, or sealed with another key, does not open', () => {
  const sealer = createStateSealer<{ n: number }>();
  const token = sealer.seal({ n: 7 });
  const [body, mac] = token.split('.') as [string, string];
  const forgedBody = Buffer.from(Buffer.from(body, 'base64url').toString().replace('"n":7', '"n":8')).toString('base64url');
  assert.is(sealer.open(`${forgedBody}.${mac}`), null);
  assert.is(sealer.open(`${body}.${mac.slice(0, -2)}AA`), null);
  assert.is(sealer.open('not-a-state'), null);
  assert.is(sealer.open(`${body}.${mac}.extra`), null);
  assert.is(createStateSealer<{ n: number }>().open(createStateSealer<{ n: number }>().seal({ n: 1 })), null);
});

test('an expired state does not open', async () => {
  const sealer = createStateSealer<{ n: number }>(undefined, 5);
  const token = sealer.seal({ n: 1 });
  await new Promise((resolve) => setTimeout(resolve, 15));
  assert.is(sealer.open(token), null);
});

test("instances given one key open each other's states (each only once); a short key is refused", () => {
  const key = new Uint8Array(32).fill(7);
  const token = createStateSealer<{ n: number }>(key).seal({ n: 1 });
  assert.equal(createStateSealer<{ n: number }>(key).open(token), { n: 1 }, 'another instance, the same key');
  assert.is(createStateSealer<{ n: number }>(new Uint8Array(32).fill(8)).open(token), null, 'another key');
  assert.throws(() => createStateSealer(new Uint8Array(16)), /at least 32 bytes/);
});

test('form elicitation: an empty elicitation object means form mode; url only does not', () => {
  assert.is(canElicitForm({ elicitation: {} }), true);
  assert.is(canElicitForm({ elicitation: { form: {} } }), true);
  assert.is(canElicitForm({ elicitation: { url: {} } }), false);
  assert.is(canElicitForm({}), false);
});

test.run();
