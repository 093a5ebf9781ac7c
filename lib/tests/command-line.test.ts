// The tracker's command line (lib/cli.ts): what `--instance` accepts, and what it goes with.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseCommandLine } from '../cli.js';

test('--instance NAME names an HTTP instance: letters, digits, _ and -, 1-32 of them; only with --http', () => {
  assert.is(parseCommandLine(['--http', '0', '--instance', 'tracker_b-2']).instanceName, 'tracker_b-2');
  assert.is(parseCommandLine(['--http', '0', '--instance=a']).instanceName, 'a');
  for (const bad of ['a.b', 'x'.repeat(33), 'a b', 'caf\u00e9']) {
    assert.throws(() => parseCommandLine(['--http', '0', '--instance', bad]), /an instance name is 1-32 of A-Z a-z 0-9 _ -/, bad);
  }
  assert.throws(() => parseCommandLine(['--instance', 'a']), /--instance go with --http/);
});

test.run();
