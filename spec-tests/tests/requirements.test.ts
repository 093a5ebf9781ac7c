// The requirements manifest (spec-tests/requirements.ts) and the fixtures' `covers:` lines
// agree: every enforced rule has a fixture, every rule a fixture names is in the manifest, and
// a rule listed as uncovered has not quietly gained a fixture (then it belongs with the
// enforced ones). Each rule links the spec section it comes from.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MANIFEST, fixturesByRule } from '../requirements.js';

const byRule = fixturesByRule();
const manifestIds = new Set(MANIFEST.map((rule) => rule.id));

test('manifest ids are unique and every row says what, where and (if uncovered) why', () => {
  assert.is(manifestIds.size, MANIFEST.length, 'a rule id is listed twice');
  for (const rule of MANIFEST) {
    assert.ok(rule.rule.length > 0, `${rule.id} does not say what the server does`);
    assert.match(rule.spec, /^https:\/\/\S+$/, `${rule.id} does not link its source`);
    assert.ok(['MUST', 'SHOULD', 'MAY'].includes(rule.level), `${rule.id} has no RFC 2119 level`);
    if (!rule.enforced) assert.ok(rule.reason.length > 0, `${rule.id} is not covered but gives no reason`);
  }
});

test('every enforced rule has at least one fixture', () => {
  const bare = MANIFEST.filter((rule) => rule.enforced && !byRule.has(rule.id)).map((rule) => rule.id);
  assert.equal(bare, [], `enforced rules without a fixture: ${bare.join(', ')}`);
});

test('every rule a fixture covers is in the manifest', () => {
  const unknown = [...byRule.entries()]
    .filter(([id]) => !manifestIds.has(id))
    .map(([id, names]) => `${id} (${names.join(', ')})`);
  assert.equal(unknown, [], `covers: names rules the manifest does not list: ${unknown.join('; ')}`);
});

test('a rule listed as not covered has no fixture (else move it to the enforced rules)', () => {
  const stale = MANIFEST.filter((rule) => !rule.enforced && byRule.has(rule.id)).map(
    (rule) => `${rule.id} (${byRule.get(rule.id)?.join(', ')})`,
  );
  assert.equal(stale, [], `listed as not covered but covered by: ${stale.join('; ')}`);
});

test('the tracker fixtures run under every handshake revision', () => {
  const trackerFixtures = [...new Set([...byRule.values()].flat().filter((name) => name.startsWith('tracker/')))];
  for (const version of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']) {
    assert.ok(
      trackerFixtures.some((name) => name.endsWith(`-${version}`)),
      `no tracker fixture for ${version}`,
    );
  }
});

test.run();
