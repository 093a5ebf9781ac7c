// The requirements manifest (spec-tests/requirements.ts) and the fixtures' `covers:` lines
// agree: every enforced rule has a fixture, every rule a fixture names is in the manifest, and
// a rule listed as uncovered has not quietly gained a fixture (then it belongs with the
// enforced ones). The manifest's ids must also exist in REQUIREMENTS.md when it is at hand.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync } from 'node:fs';
import { MANIFEST, fixturesByRule } from '../requirements.js';

const REQUIREMENTS_FILE = '../shared/spec/REQUIREMENTS.md';
const byRule = fixturesByRule();
const manifestIds = new Set(MANIFEST.map((rule) => rule.id));

test('manifest ids are unique and every row says what, where and (if uncovered) why', () => {
  assert.is(manifestIds.size, MANIFEST.length, 'a rule id is listed twice');
  for (const rule of MANIFEST) {
    assert.ok(rule.rule.length > 0 && rule.spec.length > 0, `${rule.id} lacks its behaviour or spec page`);
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

// REQUIREMENTS.md lives beside the repository (../shared/spec); checked when it is there.
test('every manifest id names a section or row of REQUIREMENTS.md', () => {
  if (!existsSync(REQUIREMENTS_FILE)) return;
  const text = readFileSync(REQUIREMENTS_FILE, 'utf8');
  const missing = MANIFEST.map((rule) => rule.id).filter((id) => !definedIn(text, id));
  assert.equal(missing, [], `not in REQUIREMENTS.md: ${missing.join(', ')}`);
});

/** `## 4.` / `### 5.3` headings, `| J7 |` table rows, `**A-8 ...**` ambiguity bullets. */
function definedIn(text: string, id: string): boolean {
  const escaped = id.replace(/\./g, '\\.');
  return (
    new RegExp(`^#{2,3} ${escaped}\\.? `, 'm').test(text) ||
    new RegExp(`^\\| ${escaped} \\|`, 'm').test(text) ||
    new RegExp(`^- \\*\\*${escaped} `, 'm').test(text)
  );
}

test.run();
