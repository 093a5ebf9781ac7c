// spec-tests/fixtures/README.md is the generated index of the fixtures: it must be exactly what
// the generator prints today, so a fixture added, moved or reworded without it fails here.
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { INDEX, fixturesIndex, lessonOf } from '../fixtures-index.js';

test('spec-tests/fixtures/README.md is current (if not: npm run fixtures-index, and commit the file)', () => {
  const written = readFileSync(INDEX, 'utf8');
  const current = fixturesIndex();
  if (written !== current) {
    const missing = current.split('\n').filter((line) => line.startsWith('| [') && !written.includes(line));
    const stale = written.split('\n').filter((line) => line.startsWith('| [') && !current.includes(line));
    assert.unreachable(
      `${INDEX} is stale: run \`npm run fixtures-index\` and commit it (other branches add fixtures too: after a merge, run it again).\n` +
        [...missing.map((line) => `  new:  ${line}`), ...stale.map((line) => `  gone: ${line}`)].slice(0, 20).join('\n'),
    );
  }
});

test('every fixture has a row, under a topic, with a lesson', () => {
  const index = fixturesIndex();
  const rows = index.split('\n').filter((line) => line.startsWith('| ['));
  assert.ok(rows.length >= 100, `only ${rows.length} rows`);
  assert.equal(
    rows.filter((row) => row.endsWith('|  |')),
    [],
    'a fixture without prose in its header',
  );
});

test('a lesson is the first sentence, not cut at an abbreviation, and safe inside a table', () => {
  assert.is(lessonOf('Id 0 is a valid request id.\nMore text here.'), 'Id 0 is a valid request id.');
  assert.is(lessonOf('Sends a value, e.g. 2.5, and more. Second.'), 'Sends a value, e.g. 2.5, and more.');
  assert.is(lessonOf('a | b'), 'a \\| b');
  assert.ok(lessonOf('word '.repeat(100)).endsWith(' …'));
});

test.run();
