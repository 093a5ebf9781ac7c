// A fixture a test writes for one run of the runner: a file in a temporary folder, removed when
// the test's process exits, passed or failed, so `npm test` leaves nothing behind in the
// system's temporary folder.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];
process.on('exit', () => {
  for (const folder of made) rmSync(folder, { recursive: true, force: true });
});

/** A fresh folder holding `name` with `text`; its path is what the runner is given. */
export function fixtureFolder(prefix: string, name: string, text: string): string {
  const folder = mkdtempSync(join(tmpdir(), `${prefix}-`));
  made.push(folder);
  writeFileSync(join(folder, name), text);
  return folder;
}
