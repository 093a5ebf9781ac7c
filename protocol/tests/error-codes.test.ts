// Every JSON-RPC error code the server sends has one name, in ErrorCode (protocol/errors.ts):
// a bare number elsewhere is a code nobody can find, check against the spec, or rename.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ErrorCode } from '../errors.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** The .ts files of the engine and the tracker, tests left out. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'tests' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The code of a file with its comments removed: comments may speak of a code by its number. */
const withoutComments = (source: string): string => source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');

test('no error code is written as a bare number outside errors.ts', () => {
  const bare = [join(ROOT, 'protocol'), join(ROOT, 'lib')]
    .flatMap(sourceFiles)
    .filter((file) => !file.endsWith(join('protocol', 'errors.ts')))
    .flatMap((file) =>
      withoutComments(readFileSync(file, 'utf8'))
        .split('\n')
        .filter((line) => /-32\d{3}\b/.test(line))
        .map((line) => `${relative(ROOT, file)}: ${line.trim()}`),
    );
  assert.equal(bare, [], `use ErrorCode instead:\n${bare.join('\n')}`);
});

test('each code has one name, in the ranges JSON-RPC 2.0 reserves', () => {
  const codes = Object.values(ErrorCode);
  assert.is(new Set(codes).size, codes.length, 'two names for one code');
  for (const code of codes) assert.ok(code >= -32768 && code <= -32000, `${code} is outside -32768..-32000`);
});

test('each code says where the spec defines it', () => {
  const source = readFileSync(join(ROOT, 'protocol', 'errors.ts'), 'utf8');
  const table = source.slice(source.indexOf('export const ErrorCode'), source.indexOf('} as const'));
  for (const name of Object.keys(ErrorCode)) {
    const comment =
      table
        .slice(0, table.indexOf(`  ${name}:`))
        .split('*/')
        .at(-2) ?? '';
    assert.match(comment, /https:\/\//, `ErrorCode.${name} has no spec URL in its comment`);
  }
});

test.run();
