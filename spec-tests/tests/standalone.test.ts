// The repository stands alone: the schemas it validates against are its own (checked against the
// list in spec-tests/schemas/README.md), the rules index is current, and no file points to
// material outside the repository, which a fresh clone would not have.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rulesMarkdown } from '../requirements.js';

const SCHEMAS = 'spec-tests/schemas';

/** `| 2025-11-25 | \`<sha-256>\` |` rows of the schemas README. */
function listedDigests(): Map<string, string> {
  const rows = readFileSync(join(SCHEMAS, 'README.md'), 'utf8').matchAll(/^\| (\d{4}-\d{2}-\d{2}) \| `([0-9a-f]{64})` \|$/gm);
  return new Map([...rows].map((row) => [row[1] ?? '', row[2] ?? '']));
}

test('each schema file is the one its README lists, byte for byte', () => {
  const listed = listedDigests();
  const present = readdirSync(SCHEMAS).filter((name) => /^\d{4}-\d{2}-\d{2}$/.test(name));
  assert.equal([...listed.keys()].sort(), ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28']);
  assert.equal(present.sort(), [...listed.keys()].sort(), 'a revision folder without a listed digest, or the reverse');
  for (const [version, digest] of listed) {
    const actual = createHash('sha256')
      .update(readFileSync(join(SCHEMAS, version, 'schema.json')))
      .digest('hex');
    assert.is(actual, digest, `${SCHEMAS}/${version}/schema.json differs from the copy its README lists`);
  }
});

test('spec-tests/RULES.md is what requirements.ts prints (npx tsx spec-tests/requirements.ts --markdown)', () => {
  assert.fixture(readFileSync('spec-tests/RULES.md', 'utf8'), rulesMarkdown() + '\n');
});

// Spelled in pieces so that this file does not name them itself.
const OUTSIDE = [
  ['..', '/shared'],
  ['shared', '/spec'],
  ['shared', '/notes'],
  ['REQUIRE', 'MENTS.md'],
  ['PEE', 'RS.md'],
].map((parts) => parts.join(''));

/** The repository's files: the tracked ones in a git checkout, else all but installs and builds. */
function repositoryFiles(dir = '.'): string[] {
  if (dir === '.' && existsSync('.git'))
    return execFileSync('git', ['ls-files', '-z'], { encoding: 'utf8' }).split('\0').filter(Boolean);
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => !['node_modules', 'dist', '.git'].includes(entry.name))
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      return entry.isDirectory() ? repositoryFiles(path) : entry.isFile() ? [path] : [];
    });
}

test('no file points to material outside the repository', () => {
  const offenders: string[] = [];
  for (const path of repositoryFiles()) {
    if (path === 'package-lock.json' || path.endsWith('schema.json')) continue;
    const text = readFileSync(path, 'utf8');
    for (const needle of OUTSIDE) if (text.includes(needle)) offenders.push(`${path} names ${needle}`);
  }
  assert.equal(offenders, []);
});

test.run();
