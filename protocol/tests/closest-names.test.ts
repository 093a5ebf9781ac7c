// What a typo is (closest-names.ts): the rule behind every "did you mean", for argument names
// and for people.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { closestNames, editDistance, typoAllowance, typoDistance } from '../closest-names.js';

test("Levenshtein's distance counts insertions, deletions and replacements; a swap is two", () => {
  assert.is(editDistance('status', 'status'), 0);
  assert.is(editDistance('stauts', 'status'), 2);
  assert.is(editDistance('labl', 'label'), 1);
  assert.is(editDistance('', 'key'), 3);
});

test('a typo may change a third of the letters, at least 2; a name begun is 1 away', () => {
  assert.is(typoAllowance('key'), 2);
  assert.is(typoAllowance('story_points'), 4);
  assert.is(typoDistance('desc', 'description', 2), 1);
  assert.is(typoDistance('x', 'xyz', 2), 2, 'one letter is no name begun');
  assert.is(typoDistance('ab', 'abcdefgh', 2), 1);
  assert.is(typoDistance('zz', 'comments_before', 2), Infinity, 'lengths too far apart');
});

test('the closest names come first, equally close ones in the order given, up to the most asked for', () => {
  const names = ['query', 'project', 'status', 'priority', 'assignee', 'sprint', 'label', 'text'];
  assert.equal(closestNames('projcet', names, 2), ['project']);
  assert.equal(closestNames('stauts', names, 2), ['status']);
  assert.equal(closestNames('sprnt', names, 2), ['sprint']);
  assert.equal(closestNames('pr', names, 3), ['project', 'priority'], 'both begin with it: in the order given');
  assert.equal(closestNames('labels', names, 1), ['label']);
  assert.equal(closestNames('zzz', names, 2), []);
});

test('a long name is compared by its first 64 characters', () => {
  const long = 'a'.repeat(10_000);
  assert.equal(closestNames(long, ['a'.repeat(64)], 1), ['a'.repeat(64)]);
});

test.run();
