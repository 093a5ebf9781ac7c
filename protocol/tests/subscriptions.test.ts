// One resource, many spellings: the canonical URI subscriptions are kept under, and what the
// registry holds and frees.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createResourceRegistry } from '../resources.js';
import { DEFAULT_SUBSCRIPTION_LIMITS, createSubscriptionRegistry } from '../subscriptions.js';

const resources = createResourceRegistry(
  [{ uri: 'x://sprint/current', name: 'current', read: () => [] }],
  [
    { uriTemplate: 'x://sprint/{id}', name: 'sprint', read: () => null, canonical: (vars) => ({ id: vars.id!.trim() }) },
    { uriTemplate: 'x://query{?a,b}', name: 'query', read: () => null },
  ],
);

test('canonicalUri: decoded, canonicalised and spelled again by the template', () => {
  assert.is(resources.canonicalUri('x://sprint/%20P-S1%20'), 'x://sprint/P-S1');
  assert.is(resources.canonicalUri('x://sprint/%50-%53%31'), 'x://sprint/P-S1');
  assert.is(resources.canonicalUri('x://query?b=2&a=%31'), 'x://query?a=1&b=2', 'query parameters in template order');
  assert.is(resources.canonicalUri('x://query?'), 'x://query');
  assert.is(resources.canonicalUri('x://sprint/current'), 'x://sprint/current', 'a fixed resource is its own key');
  assert.is(resources.canonicalUri('elsewhere://x'), 'elsewhere://x', 'a URI nothing serves keeps its spelling');
});

test('canonicalUri: a spelling that would lead to another resource keeps its own', () => {
  // %63urrent decodes to "current": spelled again it would be the fixed resource, which the
  // template's read never sees. It must not share that resource's subscribers.
  assert.is(resources.canonicalUri('x://sprint/%63urrent'), 'x://sprint/%63urrent');
});

function registry(limits = {}) {
  const watched = new Set<string>();
  const subscriptions = createSubscriptionRegistry(
    resources.canonicalUri,
    { ...DEFAULT_SUBSCRIPTION_LIMITS, ...limits },
    { added: (key) => watched.add(key), removed: (key) => watched.delete(key), watched: (key) => watched.has(key) },
    '',
  );
  return { subscriptions, watched };
}

test('every spelling is one watched resource; the last one to leave frees it', () => {
  const { subscriptions, watched } = registry();
  subscriptions.subscribe('x://sprint/%20P-S1');
  subscriptions.subscribe('x://sprint/P-S1');
  subscriptions.subscribe('x://sprint/P-S1');
  subscriptions.openStream('listen', ['x://sprint/%50-S1', 'x://query?a=1']);
  assert.equal([...watched], ['x://sprint/P-S1', 'x://query?a=1']);
  assert.is(subscriptions.count(), 4, 'a repeated subscription is held once');
  assert.equal(
    [...subscriptions.subscribersOf('x://sprint/P-S1')].map((s) => [s.holder, s.uri]),
    [
      [null, 'x://sprint/%20P-S1'],
      [null, 'x://sprint/P-S1'],
      ['listen', 'x://sprint/%50-S1'],
    ],
  );
  subscriptions.unsubscribe('x://sprint/P-S1%20%20');
  assert.equal([...watched], ['x://sprint/P-S1', 'x://query?a=1'], 'the stream still holds it');
  subscriptions.closeStream('listen');
  assert.equal([...watched], []);
  assert.is(subscriptions.count(), 0);
});

test('a listen stream is added whole or not at all', () => {
  let calls = 0;
  const subscriptions = createSubscriptionRegistry(
    resources.canonicalUri,
    DEFAULT_SUBSCRIPTION_LIMITS,
    {
      added(key) {
        if (++calls === 2) throw new Error(`cannot watch ${key}`);
      },
      removed: () => {},
      watched: () => false,
    },
    '',
  );
  assert.throws(() => subscriptions.openStream('listen', ['x://sprint/a', 'x://sprint/b']), /cannot watch x:\/\/sprint\/b/);
  assert.is(subscriptions.count(), 0);
});

test.run();
