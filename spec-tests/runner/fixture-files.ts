// Finds fixture files (*.txtar) under the paths given on the command line and names them.
// A fixture's name is its path after the last `fixtures/` directory, without the extension
// (generic/lifecycle/ping-before-initialize), so names stay the same whichever directory the
// runner was pointed at; outside a fixtures/ tree the path relative to the argument is used.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';

const FIXTURE_EXTENSION = '.txtar';

export interface FixtureFile {
  path: string;
  name: string;
  /** The fixture's text when it does not live in a file (the fixtures built into the bundle). */
  text?: string;
}

export function findFixtureFiles(paths: string[]): FixtureFile[] {
  const files = paths.flatMap((path) => filesUnder(path).map((file) => ({ path: file, name: fixtureName(file, path) })));
  return files.sort((left, right) => left.name.localeCompare(right.name));
}

function filesUnder(path: string): string[] {
  if (!existsSync(path)) throw new Error(`no such fixture file or directory: ${path}`);
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { recursive: true, encoding: 'utf8' })
    .filter((entry) => entry.endsWith(FIXTURE_EXTENSION))
    .map((entry) => join(path, entry))
    .filter((file) => statSync(file).isFile());
}

export function fixtureName(file: string, argument: string): string {
  const posix = file.split(sep).join('/');
  const marker = posix.lastIndexOf('fixtures/');
  const tail = marker !== -1 ? posix.slice(marker + 'fixtures/'.length) : relativeName(file, argument);
  return tail.endsWith(FIXTURE_EXTENSION) ? tail.slice(0, -FIXTURE_EXTENSION.length) : tail;
}

function relativeName(file: string, argument: string): string {
  const name = file === argument ? basename(file) : relative(argument, file);
  return name.split(sep).join('/');
}
