// `mcp-conform list`: the fixtures a run would use (by default the built-in generic set), one per
// line: name, the revision it opens the session with, and the rules it covers (spec-tests/RULES.md
// in the mcp-by-hand repository says what each id means).
import type { ListArguments } from './cli-args.js';
import { revisionOf } from './fixture-types.js';
import type { Write } from './reporter.js';
import { loadFixture } from './run-fixture.js';
import { fixtureFiles } from './run-command.js';

export function listCommand(args: ListArguments, write: Write): number {
  const rows = fixtureFiles(args.paths, true).map((file) => {
    const loaded = loadFixture(file);
    if (!loaded.ok) return [file.name, 'unreadable', loaded.error];
    return [file.name, revisionOf(loaded.fixture.header.protocol), loaded.fixture.header.covers.join(', ')];
  });
  const nameWidth = Math.max(0, ...rows.map(([name]) => name?.length ?? 0));
  for (const [name = '', revision = '', rules = ''] of rows)
    write(`${name.padEnd(nameWidth)}  ${revision.padEnd(10)}  ${rules}`.trimEnd() + '\n');
  write(`${rows.length} fixtures\n`);
  return rows.some(([, revision]) => revision === 'unreadable') ? 1 : 0;
}
