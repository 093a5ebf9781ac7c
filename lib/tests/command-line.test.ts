// The tracker's command line (lib/cli.ts): what `--instance` and `--users-file` accept, and what they go with.
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

test('--users-file PATH goes with --http, and not with --auth-token-file (one way to let people in)', () => {
  assert.is(parseCommandLine(['--http', '0', '--users-file', 'users.txt']).usersFile, 'users.txt');
  assert.throws(
    () => parseCommandLine(['--users-file', 'users.txt']),
    /--users-file, --allow-origin and --instance go with --http/,
  );
  assert.throws(
    () => parseCommandLine(['--http', '0', '--users-file', 'users.txt', '--auth-token-file', 'token']),
    /--auth-token-file and --users-file exclude each other/,
  );
});

test.run();
